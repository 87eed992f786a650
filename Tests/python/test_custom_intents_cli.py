# SPDX-License-Identifier: Apache-2.0
"""Custom intents in the tool: `tender ask` and `tender intent` with
`--intents FILE` and `--handler PROGRAM` (the program gets one JSON call on
standard input and answers on standard output), both shipped examples end
to end from text on a demo home (its demo PAM stack), shortcuts to a custom
intent, and `tender demo --intents` playing both (docs/custom-intents.md)."""
import json
import os
import subprocess

import pytest

from bank_host import write_handler

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.join(HERE, "..", "..")
CLI = os.environ.get("TENDER_CLI") or os.path.join(REPO, "build", "bin", "tender")
EXPENSE = os.path.join(REPO, "examples", "intents", "expense.json")
ROUND_UP = os.path.join(REPO, "examples", "intents", "round-up.json")
PASSWORD = "demo-password"

pytestmark = pytest.mark.skipif(not os.access(CLI, os.X_OK), reason="the tender tool is not built")

def run(*args, stdin=""):
    env = {k: v for k, v in os.environ.items() if k != "TENDER_HOME"}
    return subprocess.run([CLI, *args], input=stdin, capture_output=True, text=True, timeout=120, env=env)


@pytest.fixture
def home(tmp_path):
    path = str(tmp_path / "home")
    done = run("demo", "--home", path)
    assert done.returncode == 0, done.stdout + done.stderr
    return path


@pytest.fixture
def handler(tmp_path):
    return write_handler(tmp_path)


def turns(done):
    return [json.loads(line) for line in done.stdout.splitlines() if line.strip()]


def test_ask_expense_from_text(home, handler):
    done = run("ask", "--home", home, "--json", "--intents", EXPENSE, "--handler", handler, "how much can I still spend on vacation")
    assert done.returncode == 0, done.stdout + done.stderr
    handled = turns(done)[-1]
    assert handled["turn"] == "handle" and handled["code"] == "success"
    assert handled["response"]["text"] == "You have $120 left in vacation."


def test_ask_asks_in_the_definitions_words(home, handler):
    done = run("ask", "--home", home, "--intents", EXPENSE, "--handler", handler, "how am I doing on my budget", stdin="groceries\n")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Which expense?" in done.stdout and "You have $85.50 left in groceries." in done.stdout


def test_ask_round_up_is_restricted_and_signed(home, handler):
    done = run("ask", "--home", home, "--json", "--intents", EXPENSE, "--intents", ROUND_UP, "--handler", handler,
               "round up by $5", stdin=f"yes\nyes\n{PASSWORD}\n")
    assert done.returncode == 0, done.stdout + done.stderr
    played = turns(done)
    assert any(t["turn"] == "authenticate" for t in played)  # the demo PAM stack asked
    handled = played[-1]
    assert handled["code"] == "success" and handled["record"]["intent"] == "round_up_savings"
    assert handled["response"]["text"] == "Done: $5 moved into your savings."
    assert json.loads(open(handler + ".log").read())["parameters"] == {"amount": {"amount": "5.00", "currency": "USD"}}
    verified = run("verify", "--home", home)
    assert verified.returncode == 0 and "ledger valid: 6 records" in verified.stdout, verified.stdout + verified.stderr
    assert PASSWORD not in done.stdout + done.stderr


def test_a_wrong_password_moves_nothing(home, handler):
    done = run("ask", "--home", home, "--json", "--intents", ROUND_UP, "--handler", handler,
               "round up by $5", stdin="yes\nyes\nwrong-password\n")
    assert done.returncode == 1
    assert turns(done)[-1]["code"] == "failureCredentialsUnverified"
    assert not os.path.exists(handler + ".log")


def test_intent_runs_a_custom_intent_document(home, handler):
    done = run("intent", "--home", home, "--intents", EXPENSE, "--handler", handler, '{"intent": "expense", "expense": "vacation"}')
    assert done.returncode == 0, done.stdout + done.stderr
    assert "You have $120 left in vacation." in done.stdout
    unknown = run("intent", "--home", home, '{"intent": "expense", "expense": "vacation"}')
    assert unknown.returncode != 0 and 'unknown intent "expense"' in unknown.stderr


def test_a_failing_handler_is_a_callback_error(home, tmp_path):
    failing = tmp_path / "failing"
    failing.write_text("#!/bin/sh\nexit 3\n")
    failing.chmod(0o700)
    done = run("ask", "--home", home, "--json", "--intents", EXPENSE, "--handler", str(failing), "how much can I still spend on vacation")
    assert done.returncode == 3
    assert "the handler" in done.stdout + done.stderr and "failed" in done.stdout + done.stderr


def test_a_handler_that_keeps_its_output_open_is_stopped(home, tmp_path):
    """Issue 30, item 17: a handler that answers nothing and keeps standard output open (here a
    child it leaves behind holds it) waited forever; now --handler-timeout stops it with a clear error."""
    import time
    hanging = tmp_path / "hanging"
    hanging.write_text("#!/bin/sh\nsleep 300 &\nsleep 300\n")
    hanging.chmod(0o700)
    started = time.monotonic()
    done = run("ask", "--home", home, "--json", "--intents", EXPENSE, "--handler", str(hanging), "--handler-timeout", "2",
               "how much can I still spend on vacation")
    assert time.monotonic() - started < 60
    assert done.returncode == 3, done.stdout + done.stderr
    assert "gave no answer within 2 s and was stopped" in done.stdout + done.stderr
    refused = run("ask", "--home", home, "--intents", EXPENSE, "--handler-timeout", "0", "how am I doing on my budget")
    assert refused.returncode != 0 and "--handler-timeout must be 1 to 3600 seconds" in refused.stderr


def test_demo_plays_both_examples(tmp_path):
    done = run("demo", "--home", str(tmp_path / "home"), "--intents", EXPENSE, "--intents", ROUND_UP)
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    assert "You have $120 left in vacation." in out
    assert "Move $5? (yes/no)" in out and "Done: $5 moved into your savings." in out
    assert '"intent":"round_up_savings","status":"completed"' in out
    assert "round-up pot: 5.00 USD" in out and "verify → ledger valid: 6 signed record(s)" in out


def test_a_shortcut_starts_a_custom_intent_in_ask(home, handler):
    import libtender as tender
    with tender.Engine(home, authentication={"restrictedIntents": []}, intents=[EXPENSE]) as engine:
        engine.add_shortcut("vacation money", {"intent": "expense", "expense": "vacation"})
    done = run("ask", "--home", home, "--json", "--intents", EXPENSE, "--handler", handler, "vacation money")
    assert done.returncode == 0, done.stdout + done.stderr
    played = turns(done)
    assert played[0]["turn"] == "understood" and played[0]["source"] == "shortcut"
    assert played[-1]["response"]["text"] == "You have $120 left in vacation."
    # Without the definition loaded the shortcut names its intent, which is unknown.
    unknown = run("ask", "--home", home, "--json", "vacation money")
    assert unknown.returncode == 3 and 'unknown intent \\"expense\\"' in unknown.stdout + unknown.stderr


def test_the_docs_handler_lines_run_as_written(tmp_path):
    """docs/custom-intents.md's `tender ask --handler examples/intents/handler.py` lines (issue 33.9), run from
    the checkout as written (build/bin/tender, the demo home they name moved to a fresh one); every
    `# → TEXT` line after a command is in its output."""
    import re
    import shlex
    with open(os.path.join(REPO, "docs", "custom-intents.md"), encoding="utf-8") as f:
        doc = f.read()
    block = next(b for b in re.findall(r"^```sh\n(.*?)^```$", doc, flags=re.S | re.M) if "examples/intents/handler.py" in b)
    lines = block.replace("\\\n", " ").splitlines()
    home = str(tmp_path / "demo-home")
    env = {k: v for k, v in os.environ.items() if k != "TENDER_HOME"}
    env["TENDER_EXAMPLE_BOOKS"] = str(tmp_path / "books.json")
    commands = []
    for line in lines:
        if line.startswith("# →"):
            commands[-1][1].append(line[len("# →"):].strip())
        elif line.strip() and not line.startswith("#"):
            words = shlex.split(line, comments=True)
            assert words[0] == "build/bin/tender", line
            words = [CLI] + [home if w == "/tmp/tender-custom-demo" else w for w in words[1:]]
            commands.append((words, []))
    assert len(commands) == 3 and all(expected for _, expected in commands[1:])
    for words, expected in commands:
        answers = f"yes\nyes\n{PASSWORD}\n" if "round up" in words[-1] else ""
        done = subprocess.run(words, input=answers, capture_output=True, text=True, timeout=120, env=env, cwd=REPO)
        assert done.returncode == 0, " ".join(words) + "\n" + done.stdout + done.stderr
        for text in expected:
            assert text in done.stdout, text + "\n" + done.stdout
    # The amount heard is confirmed first, then the money moving agreed to, in Tender's own words (issues 33.10, 30.1).
    assert "Did I hear $5 right?" in done.stdout and "Move $5?" in done.stdout
    assert done.stdout.index("Did I hear $5 right?") < done.stdout.index("Move $5?")
    books = json.loads(open(tmp_path / "books.json").read())
    assert list(books["moves"].values()) == [{"amount": "5.00", "currency": "USD"}]


def test_the_demos_closing_lines_give_the_password_and_replay_by_hand(tmp_path):
    """Plain `tender demo` (a temporary home) ends with the demo stack's password and the lines that
    replay a scenario by hand (issue 33.6); those lines run as printed, the home moved to a fresh one."""
    import shlex
    done = run("demo")
    assert done.returncode == 0, done.stdout + done.stderr
    tail = done.stdout.strip().splitlines()[-4:]
    assert f'password, typed above for the person, is "{PASSWORD}"' in tail[0], tail
    assert "replay a scenario by hand" in tail[1], tail
    home = str(tmp_path / "replay")
    kept = shlex.split(tail[2].replace("~/tender-demo", home))
    asked = shlex.split(tail[3].split("      (")[0].replace("~/tender-demo", home))
    assert kept[1:3] == ["demo", "--home"] and asked[1:3] == ["ask", "--home"] and asked[-1] == "send $50 to John"
    assert run(*kept[1:]).returncode == 0
    paid = run(*asked[1:], stdin=f"John Baily\nmobile\nyes\n{PASSWORD}\n")
    assert paid.returncode == 0 and "Sent $50 to John Baily." in paid.stdout, paid.stdout + paid.stderr
