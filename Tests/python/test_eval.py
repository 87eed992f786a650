# SPDX-License-Identifier: Apache-2.0
"""`tender eval` on the dev data (../shared/data and data/generated): the
figures the trained models reach on sentences they never saw hold. The
thresholds are the figures measured when the models were last trained
(docs/understanding.md, "Current figures"; the passes in
docs/understanding-history.md), rounded down: a retrained model must not
fall below them. Where they are under the project's targets, the note and the
docs say so. The parse cost is a benchmark figure, printed, never asserted."""
import json
import os
import subprocess

import pytest

HERE = os.path.dirname(__file__)
ROOT = os.path.join(HERE, "..", "..")
CLI = os.environ.get("TENDER_CLI") or os.path.join(ROOT, "build", "bin", "tender")
SHARED = os.environ.get("TENDER_DATA") or os.path.join(ROOT, "..", "shared", "data")
CLINC_VAL = os.path.join(SHARED, "clinc150", "val.jsonl")
SGD_DEV = os.path.join(SHARED, "sgd", "dev.jsonl")
GENERATED = os.path.join(ROOT, "data", "generated")

needs_shared = pytest.mark.skipif(not (os.path.exists(CLINC_VAL) and os.path.exists(SGD_DEV)), reason="needs ../shared/data")


def evaluate(path):
    out = subprocess.run([CLI, "eval", "--json", path], capture_output=True, text=True, timeout=600, check=True).stdout
    report = json.loads(out)
    print(path, {k: v for k, v in report.items() if k != "confusion"})
    assert report["parse_us_median"] > 0 and report["sign_us_median"] > 0
    return report


@needs_shared
def test_clinc150_val():
    report = evaluate(CLINC_VAL)
    assert report["in_scope_lines"] == 140 and report["out_of_scope_lines"] == 2920
    assert report["in_scope_accuracy"] >= MEASURED["clinc_in_scope"]
    assert report["false_accept_rate"] <= MEASURED["clinc_false_accepts"]


@needs_shared
def test_sgd_dev_first_turns_and_slots():
    report = evaluate(SGD_DEV)
    assert report["in_scope_lines"] == 94 and report["out_of_scope_lines"] == 1908
    assert report["in_scope_accuracy"] >= MEASURED["sgd_in_scope"]
    assert report["false_accept_rate"] <= MEASURED["sgd_false_accepts"]
    slots = report["slots"]
    assert slots["amount"]["f1"] >= MEASURED["sgd_amount_f1"]
    assert slots["person"]["f1"] >= MEASURED["sgd_person_f1"]
    assert slots["account_type"]["f1"] >= MEASURED["sgd_account_type_f1"]
    assert report["slot_kinds_scored"] == ["account_type", "amount", "person"] and report["slot_f1"] >= MEASURED["sgd_slot_f1"]


def test_generated_english_dev():
    report = evaluate(os.path.join(GENERATED, "dev-en.jsonl"))
    assert report["in_scope_accuracy"] >= MEASURED["generated_en_in_scope"]
    assert report["false_accept_rate"] <= MEASURED["generated_en_false_accepts"]
    assert report["slot_f1"] >= MEASURED["generated_en_slot_f1"]


def test_generated_spanish_dev():
    report = evaluate(os.path.join(GENERATED, "dev-es.jsonl"))
    assert report["in_scope_accuracy"] >= MEASURED["generated_es_in_scope"]
    assert report["false_accept_rate"] <= MEASURED["generated_es_false_accepts"]
    assert report["slot_f1"] >= MEASURED["generated_es_slot_f1"]
    assert set(report["confusion"]) >= {"send_payment", "request_payment", "pay_bill", "search_for_bills", "transfer_money",
                                        "search_for_accounts", "search_for_payments"}


@pytest.mark.parametrize("language", ["en", "es"])
def test_independent_requests(language):
    """data/independent: requests by an author who saw none of the data; measured, never trained on."""
    report = evaluate(os.path.join(ROOT, "data", "independent", f"{language}.jsonl"))
    assert report["in_scope_accuracy"] >= MEASURED[f"independent_{language}_in_scope"]
    assert report["false_accept_rate"] <= MEASURED[f"independent_{language}_false_accepts"]
    assert report["slot_f1"] >= MEASURED[f"independent_{language}_slot_f1"]


def test_eval_scores_what_it_reads(tmp_path):
    lines = [{"text": "send $5 to Sam", "expected": "send_payment", "slots": [{"slot": "person", "start": 10, "end": 13, "value": "Sam"}]},
             {"text": "play some jazz", "expected": "out_of_scope"},
             {"text": "pay my water bill", "expected": "transfer_money"}, {"text": "what's my balance", "expected": "any"},
             {"text": "transfer $5 to Sam", "expected": "transfer_money|send_payment"},
             {"text": "to Sam", "expected": "send_payment", "first": False,
              "slots": [{"slot": "recipient_name", "start": 3, "end": 6, "value": "Sam"}]},
             {"text": "ask Sam for it", "expected": "none", "slots": [{"slot": "receiver", "start": 4, "end": 7, "value": "Sam"}]}]
    path = tmp_path / "lines.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    report = json.loads(subprocess.run([CLI, "eval", "--json", str(path)], capture_output=True, text=True, check=True).stdout)
    assert report["in_scope_lines"] == 3  # "any" and the later turn are not scored for intent
    assert abs(report["in_scope_accuracy"] - 2 / 3) < 1e-3 and report["false_accept_rate"] == 0
    assert report["confusion"]["transfer_money"] == {"pay_bill": 1}
    assert report["slots"]["person"] == {"precision": 1.0, "recall": 1.0, "f1": 1.0, "gold": 3, "predicted": 3}
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"text": "x"}\n')
    refused = subprocess.run([CLI, "eval", str(bad)], capture_output=True, text=True)
    assert refused.returncode != 0 and "expected" in refused.stderr


def test_eval_scores_only_the_kinds_the_file_annotates(tmp_path):
    # A dialogue's account type is said with a capital ("Savings."), and the file annotates no dates: the date found
    # in the second line is reported apart, never counted against the file's own kinds.
    lines = [{"dialogue": "d1", "turn": 0, "expected": "none", "text": "send $5 to Sam", "values": {},
              "slots": [{"slot": "amount", "start": 5, "end": 7, "value": "$5"}, {"slot": "recipient_name", "start": 11, "end": 14, "value": "Sam"}]},
             {"dialogue": "d1", "turn": 1, "expected": "none", "text": "Savings. Do it tomorrow.", "values": {"account_type": ["savings"]},
              "slots": []}]
    path = tmp_path / "dialogue.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    report = json.loads(subprocess.run([CLI, "eval", "--json", str(path)], capture_output=True, text=True, check=True).stdout)
    assert report["slots"]["account_type"] == {"precision": 1.0, "recall": 1.0, "f1": 1.0, "gold": 1, "predicted": 1}
    assert report["slots"]["date"]["gold"] == 0 and report["slots"]["date"]["predicted"] == 1
    assert report["slot_kinds_scored"] == ["account_type", "amount", "person"] and report["slot_f1"] == 1.0
    table = subprocess.run([CLI, "eval", "--errors", str(path)], capture_output=True, text=True, check=True).stdout
    assert "the file annotates none, not scored" in table
    assert 'values: Savings. Do it tomorrow. | not in the file: date "tomorrow"' in table


# Measured when the models were last trained (docs/understanding.md), rounded down.
MEASURED = {
    "clinc_in_scope": 0.92, "clinc_false_accepts": 0.005,
    "sgd_in_scope": 0.98, "sgd_false_accepts": 0.002,
    "sgd_amount_f1": 0.99, "sgd_person_f1": 0.92, "sgd_account_type_f1": 0.98, "sgd_slot_f1": 0.97,
    # Issue 31's classifier (generated lines at 0.15, the in-scope-probability rule) lowered three of these floors:
    # generated English in-scope 0.78 -> 0.76 (0.783 -> 0.769), generated Spanish false accepts 0.07 -> 0.08
    # (0.0625 -> 0.075), independent Spanish false accepts 0.02 -> 0.07 (1 -> 4 of 60); docs/understanding-history.md.
    "generated_en_in_scope": 0.76, "generated_en_slot_f1": 0.88, "generated_en_false_accepts": 0.28,
    "generated_es_in_scope": 0.88, "generated_es_slot_f1": 0.89, "generated_es_false_accepts": 0.08,
    "independent_en_in_scope": 0.91, "independent_en_false_accepts": 0.08, "independent_en_slot_f1": 0.76,
    "independent_es_in_scope": 0.89, "independent_es_false_accepts": 0.07, "independent_es_slot_f1": 0.73,
}
