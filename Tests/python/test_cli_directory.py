# SPDX-License-Identifier: Apache-2.0
"""The `tender` tool on a demo home: the seed scenarios, the directory
commands, and `tender intent` run from standard input (one reply per line,
the PAM password included)."""
import json
import re
import os
import subprocess

import pytest

HERE = os.path.dirname(__file__)
CLI = os.environ.get("TENDER_CLI") or os.path.join(HERE, "..", "..", "build", "bin", "tender")

pytestmark = pytest.mark.skipif(not os.path.exists(CLI), reason="the tender tool is not built")


def tender(*args, stdin=""):
    return subprocess.run([CLI, *args], input=stdin, capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def demo_home(tmp_path_factory):
    home = str(tmp_path_factory.mktemp("demo") / "home")
    done = tender("demo", "--home", home)
    assert done.returncode == 0, done.stdout + done.stderr
    return home, done.stdout


def pam_flags(home):
    """No PAM option: the shipped tool has none. In a demo home it uses the demo's stack (testing mode)."""
    return []


def test_the_shipped_tool_takes_no_pam_stack_from_its_caller(demo_home, tmp_path):
    home, _ = demo_home
    for command in ("intent", "ask", "demo"):
        for flag in ("--pam-config-dir", "--pam-service"):
            done = tender(command, flag, str(tmp_path), "--home", home, "{}")
            assert done.returncode != 0 and "Unknown option" in done.stderr, (command, flag, done.stderr)
    # the demo home's own stack is used in testing mode, and the audit and verify say so
    verified = tender("verify", "--home", home)
    assert verified.returncode == 0 and "TESTING MODE" in verified.stdout, verified.stdout


def directory(home):
    listed = tender("directory", "list", "--home", home)
    assert listed.returncode == 0, listed.stderr
    return json.loads(listed.stdout)


def test_the_demo_plays_every_scenario_and_keeps_its_store(demo_home):
    home, output = demo_home
    for request in ["Send $50 to John", "Pay my Electric Company bill", "Transfer $200 from checking to savings",
                    "What's my Safe-to-Spend?", "What bills are due this month?", "Show my payments to John Baily"]:
        assert request in output
    assert output.count("handle → success") == 6
    # the directory's signed balances, the mark of the demo's PAM stack (testing mode), 3 payments
    assert "ledger valid: 5 signed record(s)" in output
    assert "tender intent --home " + home in output
    bills = {b["id"]: b for b in directory(home)["bills"]}
    assert bills["electric-lake-bill"]["status"] == "completed"
    assert bills["electric-main-bill"]["status"] == "unpaid"
    # The person is asked before each payment; the intent carries only what was said.
    assert "Send $50 to John Baily from Checking? There is no fee. (yes/no)" in output
    assert "dinner" not in output and '"note"' not in output
    # The pay_bill record names the bill as it was when paid.
    assert '"billDetailsWhenPaid"' in output
    # Balances before and after: the transfer moves checking and savings.
    before = dict(re.findall(r"balance before +(.+?): (\S+ USD)", output))
    after = dict(re.findall(r"balance after +(.+?): (\S+ USD)", output))
    assert before and set(before) == set(after)
    moved = {name for name in before if before[name] != after[name]}
    assert {"Checking", "Savings"} <= moved, (before, after)


def test_a_scenario_by_hand_with_replies_on_standard_input(demo_home):
    home, _ = demo_home
    intent = json.dumps({"intent": "pay_bill", "billPayee": {"name": "Electric Company"}})
    wrong = tender("intent", "--home", home, *pam_flags(home), intent, stdin="12 Main Street\nyes\nyes\nnot-the-password\n")
    assert wrong.returncode == 1
    assert "failureCredentialsUnverified" in wrong.stdout
    assert "not-the-password" not in wrong.stdout + wrong.stderr
    paid = tender("intent", "--home", home, *pam_flags(home), intent, stdin="12 Main Street\nyes\nyes\ndemo-password\n")
    assert paid.returncode == 0, paid.stdout + paid.stderr
    assert "disambiguation, which billPayee" in paid.stdout
    assert "handle → success" in paid.stdout
    assert {b["id"]: b["status"] for b in directory(home)["bills"]}["electric-main-bill"] == "completed"


def test_add_list_remove(tmp_path):
    home = str(tmp_path / "home")
    contact = {"contacts": [{"id": "ada", "displayName": "Ada Lovelace",
                             "handles": [{"id": "ada-mail", "label": "work", "type": "email", "value": "ada@example.com"}]}]}
    assert tender("directory", "add", "--home", home, json.dumps(contact)).returncode == 0
    path = tmp_path / "dir.json"
    path.write_text(json.dumps({"billPayees": [{"id": "water", "organizationName": "City Water"}],
                                "bills": [{"id": "w1", "billPayee": "water", "type": "water",
                                           "amountDue": {"amount": "30", "currency": "USD"}, "dueDate": "2030-01-01"}]}))
    assert tender("directory", "import", "--home", home, str(path)).returncode == 0
    listed = directory(home)
    assert [c["id"] for c in listed["contacts"]] == ["ada"] and listed["bills"][0]["amountDue"]["amount"] == "30.00"
    missing = tender("directory", "remove", "--home", home, "--contact", "ada", "--bill", "ghost")
    assert missing.returncode != 0 and "ghost" in missing.stderr
    assert [c["id"] for c in directory(home)["contacts"]] == ["ada"]
    assert tender("directory", "remove", "--home", home, "--bill-payee", "water").returncode == 0
    assert directory(home)["bills"] == []
    bad = tender("directory", "add", "--home", home, '{"contacts": [{"id": "x"}]}')
    assert bad.returncode != 0 and "displayName" in bad.stderr


def test_vocabulary_and_the_signed_in_flag(tmp_path, demo_home):
    home, _ = demo_home
    vocabulary = tmp_path / "vocabulary.json"
    vocabulary.write_text(json.dumps({"kind": "accountNickname",
                                      "items": [{"id": "nest-egg", "phrase": "retirement", "alternatives": ["pension pot"]}]}))
    assert tender("directory", "vocabulary", "--home", home, str(vocabulary)).returncode == 0
    shown = tender("directory", "vocabulary", "--home", home, "--show", "accountNickname")
    assert json.loads(shown.stdout)["items"][0]["id"] == "nest-egg"
    search = json.dumps({"intent": "search_for_accounts", "accountNickname": "pension pot"})
    found = tender("intent", "--home", home, *pam_flags(home), search)
    assert found.returncode == 0 and '"id":"nest-egg"' in found.stdout

    assert tender("directory", "signed-in", "--home", home).stdout.strip() == "yes"
    assert tender("directory", "signed-in", "--home", home, "no").returncode == 0
    try:
        refused = tender("intent", "--home", home, *pam_flags(home), search)
        assert refused.returncode == 1 and "failureCredentialsUnverified" in refused.stdout
    finally:
        tender("directory", "signed-in", "--home", home, "yes")


def test_status_records_a_later_change_of_a_pending_request(tmp_path):
    import libtender as binding
    from conftest import NO_AUTH

    home = str(tmp_path / "home")
    with binding.Engine(home, authentication=NO_AUTH) as engine:
        engine.import_directory({"contacts": [{"id": "tim", "displayName": "Tim Cook", "handles": [
            {"id": "tim-mail", "label": "work", "type": "email", "value": "tim@example.com"}]}],
            "accounts": [{"id": "checking", "type": "checking", "balance": {"amount": "10.00", "currency": "USD"},
                          "default": True}]})
        with engine.session({"intent": "request_payment", "payer": {"id": "tim"},
                             "currencyAmount": {"amount": "2.50", "currency": "USD"}, "idempotencyKey": "k1"}) as s:
            s.confirm()
            s.handle()
    refused = tender("status", "--home", home, "k1", "paid")
    assert refused.returncode != 0 and "not a payment status" in refused.stderr
    unknown = tender("status", "--home", home, "k2", "completed")
    assert unknown.returncode != 0 and "k2" in unknown.stderr
    done = tender("status", "--home", home, "k1", "completed")
    assert done.returncode == 0, done.stderr
    entry_json, jws = done.stdout.strip().splitlines()
    entry = json.loads(entry_json)
    assert entry["type"] == "payment_status" and entry["status"] == "completed" and entry["previousStatus"] == "pending"
    assert jws.count(".") == 2
    assert {a["id"]: a["balance"]["amount"] for a in directory(home)["accounts"]} == {"checking": "12.50"}
    final = tender("status", "--home", home, "k1", "canceled")
    assert final.returncode != 0 and "only a pending payment" in final.stderr
    assert tender("verify", "--home", home).returncode == 0
