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
    assert missing.returncode == 1 and "cannot open" in missing.stderr
