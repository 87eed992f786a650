# SPDX-License-Identifier: Apache-2.0
"""`tender ask` as a conversation: without --json or --verbose it prints only
what the person hears, the library's `say` sentences (docs/dialog.md), and the
person's replies after "> " (replies read from a pipe). One golden file per
scenario of issue 32 and language, in Tests/python/golden/ask/: the whole
standard output and the exit status. Set TENDER_UPDATE_GOLDEN=1 to rewrite
them after a deliberate change of wording (and read the diff).

Each scenario runs on a fresh home seeded by `tender demo`; the password
goes to PAM on standard input and must never be printed."""
import json
import os
import re
import subprocess

import pytest

from bank_host import write_handler
from test_ask import CLI, PASSWORD, environment, ledger_records, run

HERE = os.path.dirname(os.path.abspath(__file__))
GOLDEN = os.path.join(HERE, "golden", "ask")
EXAMPLES = os.path.join(HERE, "..", "..", "examples", "intents")
UPDATE = os.environ.get("TENDER_UPDATE_GOLDEN") == "1"

pytestmark = pytest.mark.skipif(not os.access(CLI, os.X_OK), reason="the tender tool is not built")

#: (scenario, language, request, replies, exit status, records added to the ledger)
SCENARIOS = [
    ("send-signed", "en", "send $50 to John", ["2", "mobile", "yes", PASSWORD], 0, 1),
    ("send-signed", "es", "envía 50 dólares a John", ["la segunda", "móvil", "sí", PASSWORD], 0, 1),
    ("yes-word", "en", "send $20 to Tim", ["yes", PASSWORD], 0, 1),
    ("yes-word", "es", "envía 20 dólares a Tim", ["sí", PASSWORD], 0, 1),
    ("fragment-refused", "en", "send $50 to John", ["y", "ly", "baily", "w", "work", "yes", PASSWORD], 0, 1),
    ("fragment-refused", "es", "envía 50 dólares a John", ["y", "ly", "baily", "m", "móvil", "vale", PASSWORD], 0, 1),
    ("cancel-question", "en", "send $50 to John", ["never mind"], 1, 0),
    ("cancel-question", "es", "envía 50 dólares a John", ["olvídalo"], 1, 0),
    ("cancel-confirmation", "en", "send $20 to Tim", ["stop"], 1, 0),
    ("cancel-confirmation", "es", "envía 20 dólares a Tim", ["cancela"], 1, 0),
    ("refused-help", "en", "transfer $20 from my vacation account to savings", ["Checking", "yes", PASSWORD], 0, 1),
    ("refused-help", "es", "transfiere 20 dólares de mi cuenta de vacaciones a Savings", ["Checking", "sí", PASSWORD], 0, 1),
    ("refused-custom-help", "en", "coffee expense", ["vacation"], 0, 0),
    ("bill-payee", "en", "pay the electric company", ["the first one", "yes", "yes", PASSWORD], 0, 1),
    ("bill-payee", "es", "paga la factura de Electric Company", ["la primera", "sí", "sí", PASSWORD], 0, 1),
]

#: What the person must never see: state JSON, parameter names, reason codes, ids.
INTERNAL = re.compile(r"[{}\[\]\"_]|billPayee|transactionAmount|fromAccount|toAccount|currencyAmount|noMatching|"
                      r"handle →|confirm →|john-baily|ec-main|\bfailure[A-Z]")


@pytest.fixture
def handler(tmp_path):
    return write_handler(tmp_path)


@pytest.mark.parametrize("scenario, language, request_text, replies, status, paid", SCENARIOS,
                         ids=[f"{s[0]}-{s[1]}" for s in SCENARIOS])
def test_the_conversation_matches_its_golden_file(tmp_path, handler, scenario, language, request_text, replies, status, paid):
    home = str(tmp_path / "home")
    made = run("demo", "--home", home)
    assert made.returncode == 0, made.stdout + made.stderr
    before = ledger_records(home)
    args = ["ask", "--home", home]
    if scenario == "refused-custom-help":
        args += ["--intents", os.path.join(EXAMPLES, "expense.json"), "--handler", handler]
    done = run(*args, request_text, stdin="".join(reply + "\n" for reply in replies))
    transcript = f"$ tender ask {json.dumps(request_text, ensure_ascii=False)}\n{done.stdout}(exit {done.returncode})\n"
    path = os.path.join(GOLDEN, f"{scenario}.{language}.txt")
    if UPDATE:
        with open(path, "w", encoding="utf-8") as f:
            f.write(transcript)
    with open(path, encoding="utf-8") as f:
        assert transcript == f.read(), done.stderr
    assert done.returncode == status, done.stdout + done.stderr
    assert ledger_records(home) == before + paid
    assert PASSWORD not in done.stdout + done.stderr
    for line in done.stdout.splitlines():
        if line.startswith("> "):
            continue
        assert len(line) <= 160 and not INTERNAL.search(line), line


def test_verbose_adds_the_state_and_json_stays_the_machine_form(tmp_path):
    home = str(tmp_path / "home")
    assert run("demo", "--home", home).returncode == 0
    verbose = run("ask", "--home", home, "--verbose", "envía 20 dólares a Tim", stdin="sí\n" + PASSWORD + "\n")
    assert verbose.returncode == 0, verbose.stdout + verbose.stderr
    assert "understood: send_payment" in verbose.stdout and "confirm → ready" in verbose.stdout
    assert "¿Envío 20 $ a Tim Cook desde Checking?" in verbose.stdout and "Enviaste 20 $ a Tim Cook." in verbose.stdout
    machine = run("ask", "--home", home, "--json", "envía 20 dólares a Tim", stdin="sí\n" + PASSWORD + "\n")
    assert machine.returncode == 0, machine.stdout + machine.stderr
    turns = [json.loads(line) for line in machine.stdout.splitlines()]
    assert turns[-1]["turn"] == "handle" and turns[-1]["say"] == "Enviaste 20 $ a Tim Cook."
    question = next(t for t in turns if t["turn"] == "question")
    assert question["say"] == "¿Envío 20 $ a Tim Cook desde Checking?"
    assert question["question"] == "Send $20 to Tim Cook from Checking? There is no fee."
