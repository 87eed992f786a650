# SPDX-License-Identifier: Apache-2.0
"""`tender intents check` and `tender intents list` on the shipped custom intent examples and on broken definitions."""
import json
import os
import subprocess

import pytest

HERE = os.path.dirname(__file__)
REPO = os.path.join(HERE, "..", "..")
CLI = os.environ.get("TENDER_CLI") or os.path.join(REPO, "build", "bin", "tender")
EXAMPLES = [os.path.join(REPO, "examples", "intents", name) for name in ("expense.json", "round-up.json")]

pytestmark = pytest.mark.skipif(not os.path.exists(CLI), reason="needs the tender tool")


def tender(*args):
    return subprocess.run([CLI, "intents", *args], capture_output=True, text=True, timeout=60)


def test_the_examples_are_valid_and_listed_after_the_built_in_intents():
    checked = tender("check", *EXAMPLES)
    assert checked.returncode == 0, checked.stderr
    assert "valid, 1 intent: expense" in checked.stdout and "valid, 1 intent: round_up_savings" in checked.stdout
    listed = json.loads(tender("list", "--json", *EXAMPLES).stdout)["intents"]
    names = [item["name"] for item in listed]
    assert names[:7] == ["send_payment", "request_payment", "pay_bill", "search_for_bills", "transfer_money",
                         "search_for_accounts", "search_for_payments"]
    assert names[7:] == ["expense", "round_up_savings"]
    assert listed[8]["category"] == "moneyMovement" and listed[8]["parameters"] == ["amount", "fromAccount"]


def test_a_broken_definition_exits_1_naming_the_intent_field_and_reason(tmp_path):
    broken = json.load(open(EXAMPLES[0]))
    broken["intents"][0]["shortcutTypes"] = []
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(broken))
    checked = tender("check", str(path))
    assert checked.returncode == 1
    assert 'intent "expense".shortcutTypes: no shortcut type uses every parameter (expense)' in checked.stderr


def test_the_same_intent_twice_and_a_missing_file_are_refused(tmp_path):
    twice = tender("check", EXAMPLES[0], EXAMPLES[0])
    assert twice.returncode == 1 and '"expense" is already defined' in twice.stderr
    missing = tender("check", str(tmp_path / "nothing.json"))
    assert missing.returncode == 1 and "cannot be opened" in missing.stderr


def test_check_and_the_library_give_one_verdict_on_invalid_utf8(tmp_path):
    """Issue 30, item 16: a definition with a byte that is not UTF-8 in a string was "valid" to
    `tender intents check` (the tool read it with replacement characters) and refused by the library."""
    import libtender as lib
    text = open(EXAMPLES[0], "rb").read().replace(b'"title": "Expense"', b'"title": "Expense \xff"')
    path = tmp_path / "latin1.json"
    path.write_bytes(text)
    checked = tender("check", str(path))
    assert checked.returncode == 1 and "not valid UTF-8" in checked.stderr and "valid, 1 intent" not in checked.stdout
    with pytest.raises(lib.TenderError, match="not valid UTF-8"):
        lib.Engine(str(tmp_path / "home"), authentication={"restrictedIntents": []}, intents=[str(path)])


def test_check_reports_examples_the_built_in_model_takes(tmp_path):
    """Issue 30, item 1: an example that is a built-in request can never reach the custom intent; check says so."""
    takeover = json.load(open(EXAMPLES[1]))
    takeover["intents"][0]["examples"] = ["send $50 to John"]
    path = tmp_path / "takeover.json"
    path.write_text(json.dumps(takeover))
    checked = tender("check", str(path))
    assert checked.returncode == 0, checked.stderr
    assert 'warning: intent "round_up_savings" example "send $50 to John" is send_payment to the built-in model' in checked.stdout
    shipped = tender("check", *EXAMPLES)
    assert shipped.returncode == 0 and "warning" not in shipped.stdout
