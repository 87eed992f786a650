# SPDX-License-Identifier: Apache-2.0
"""The library's models give the training script's predictions
(scripts/train-understanding-model.py writes Tests/fixtures/model-parity.jsonl
from the quantised weights, computed in Python as the library computes them):
the classifier's best label and decision, and every token's slot label."""
import json
import os
import subprocess

import pytest

HERE = os.path.dirname(__file__)
CLI = os.environ.get("TENDER_CLI") or os.path.join(HERE, "..", "..", "build", "bin", "tender")
FIXTURE = os.path.join(HERE, "..", "fixtures", "model-parity.jsonl")


def test_swift_inference_matches_the_training_code(tmp_path):
    with open(FIXTURE, encoding="utf-8") as f:
        expected = [json.loads(line) for line in f if line.strip()]
    assert len(expected) >= 100
    lines = tmp_path / "texts.jsonl"
    lines.write_text("".join(json.dumps({"text": e["text"]}) + "\n" for e in expected), encoding="utf-8")
    out = subprocess.run([CLI, "features", "--predict", str(lines)], capture_output=True, text=True, check=True).stdout
    got = [json.loads(line) for line in out.splitlines()]
    assert len(got) == len(expected)
    for e, g in zip(expected, got):
        assert (g["label"], g["intent"]) == (e["label"], e["intent"]), e["text"]
        assert g["tags"] == e["tags"], e["text"]
    # The fixture exercises both models: several intents, out of scope, and values of several kinds.
    assert len({e["intent"] for e in expected}) >= 5
    assert len({t[2:] for e in expected for t in e["tags"] if t != "O"}) >= 5


def test_predict_refuses_a_line_without_text(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"words": "send $5"}\n')
    refused = subprocess.run([CLI, "features", "--predict", str(bad)], capture_output=True, text=True)
    assert refused.returncode != 0 and "text" in refused.stderr
