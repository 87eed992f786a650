"""`tender eval` on CLINC150 val (../shared/data/clinc150): the accuracy and
false-accept targets hold. Only the deterministic figures are checked here;
the parse cost is a benchmark figure, printed, never asserted."""
import json
import os
import subprocess

import pytest

HERE = os.path.dirname(__file__)
CLI = os.environ.get("TENDER_CLI") or os.path.join(HERE, "..", "..", "build", "bin", "tender")
VAL = os.path.join(HERE, "..", "..", "..", "shared", "data", "clinc150", "val.jsonl")

pytestmark = pytest.mark.skipif(not (os.path.exists(CLI) and os.path.exists(VAL)), reason="needs the tool and ../shared/data/clinc150")


def test_val_meets_the_accuracy_and_false_accept_targets():
    out = subprocess.run([CLI, "eval", "--json", VAL], capture_output=True, text=True, timeout=300, check=True).stdout
    report = json.loads(out)
    print(report)
    assert report["in_scope_lines"] == 140 and report["out_of_scope_lines"] == 2920
    assert report["in_scope_accuracy"] >= 0.97
    assert report["false_accept_rate"] <= 0.005
    assert report["parse_us_median"] > 0 and report["sign_us_median"] > 0
    assert set(report["confusion"]) == {"out_of_scope", "pay_bill", "search_for_accounts", "search_for_bills", "search_for_payments", "transfer_money"}


def test_eval_scores_what_it_reads(tmp_path):
    lines = [{"text": "send $5 to Sam", "expected": "send_payment"}, {"text": "play some jazz", "expected": "out_of_scope"},
             {"text": "pay my water bill", "expected": "transfer_money"}, {"text": "what's my balance", "expected": "any"}]
    path = tmp_path / "lines.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    report = json.loads(subprocess.run([CLI, "eval", "--json", str(path)], capture_output=True, text=True, check=True).stdout)
    assert report["in_scope_accuracy"] == 0.5 and report["false_accept_rate"] == 0
    assert report["confusion"]["transfer_money"] == {"pay_bill": 1}
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"text": "x"}\n')
    refused = subprocess.run([CLI, "eval", str(bad)], capture_output=True, text=True)
    assert refused.returncode != 0 and "expected" in refused.stderr
