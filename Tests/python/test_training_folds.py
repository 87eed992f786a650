# SPDX-License-Identifier: Apache-2.0
"""The training script's real-data cross-validation (issue 31): with
`--sgd-unrelated-folds domain` a fold's model is measured on SGD services it
never saw (SGD dev's Alarm_1 is a service train lacks), so every domain of
SGD's other services is in one fold only, while the banking lines and CLINC150's
keep their own groups; a held-out line whose label its fold never saw does not
decide the temperature; and the custom-intent examples a fold model takes are
named, not only counted. Runs the script's functions in the model venv
(`make model-venv`, or TENDER_MODEL_PYTHON); reads no data file."""
import json
import os
import subprocess

import pytest

HERE = os.path.dirname(__file__)
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
PYTHON = os.environ.get("TENDER_MODEL_PYTHON") or os.path.join(ROOT, "build", "model-venv", "bin", "python")
SCRIPT = os.path.join(ROOT, "scripts", "train-understanding-model.py")

PRELUDE = f"""
import importlib.util, json, numpy as np
spec = importlib.util.spec_from_file_location("training", {SCRIPT!r})
t = importlib.util.module_from_spec(spec)
spec.loader.exec_module(t)
"""


def has_model_packages():
    if not os.path.exists(PYTHON):
        return False
    return subprocess.run([PYTHON, "-c", "import numpy, scipy, sklearn, pycrfsuite"], capture_output=True).returncode == 0


def run(code):
    out = subprocess.run([PYTHON, "-c", PRELUDE + code], capture_output=True, text=True, timeout=300, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


needs_venv = pytest.mark.skipif(not has_model_packages(), reason="needs the model venv (make model-venv or TENDER_MODEL_PYTHON)")


@needs_venv
def test_sgd_unrelated_lines_fold_by_domain():
    found = run("""
from sklearn.model_selection import GroupKFold
pool = []
for n, service in enumerate(["Alarm_1", "Restaurants_1", "Restaurants_2", "Flights_1", "Flights_3", "Music_2", "Homes_1"] * 30):
    pool.append({"source": "sgd", "label": "sgd:" + service, "service": service, "group": f"sgd:d{n}"})
for n in range(60):
    pool.append({"source": "sgd", "label": "transfer_money", "service": "Banks_1", "group": f"sgd:b{n}"})
    pool.append({"source": "clinc", "label": "clinc:weather", "group": f"clinc:train.jsonl:{n}"})
out = {}
for mode in ["dialogue", "domain"]:
    t.SGD_UNRELATED_FOLDS = mode
    folds = list(GroupKFold(n_splits=3).split(pool, groups=[t.fold_group(r) for r in pool]))
    where = {}
    for k, (_, test) in enumerate(folds):
        for i in test:
            r = pool[i]
            key = r["service"].split("_")[0] if r["label"].startswith("sgd:") else r["label"]
            where.setdefault(key, set()).add(k)
    out[mode] = {key: sorted(ks) for key, ks in where.items()}
    out[mode + " own groups"] = all(t.fold_group(r) == r["group"] for r in pool if not r["label"].startswith("sgd:"))
print(json.dumps(out))
""")
    # By domain: Restaurants_1 and Restaurants_2 are held out together, and so is every other domain.
    for domain in ["Alarm", "Restaurants", "Flights", "Music", "Homes"]:
        assert len(found["domain"][domain]) == 1, (domain, found["domain"])
    # The banking lines and CLINC150's keep their own groups (a dialogue, a line), so they spread over the folds.
    assert found["domain own groups"] and found["dialogue own groups"]
    assert len(found["domain"]["transfer_money"]) >= 2 and len(found["domain"]["clinc:weather"]) >= 2
    # The default keeps the folds by dialogue: a domain's lines in every fold.
    assert found["dialogue"]["Restaurants"] == [0, 1, 2]


@needs_venv
def test_a_label_its_fold_never_saw_does_not_decide_the_temperature():
    found = run("""
rng = np.random.default_rng(3)
classes = ["a", "b", "c"]
labels = [classes[i % 3] for i in range(300)]
scores = rng.normal(0, 1, (300, 3))
for i, l in enumerate(labels):
    scores[i, classes.index(l)] += 2.0
clean = t.calibrate(scores, labels, classes)
# One more line of a label ("c") its fold's model did not have: that column holds the cross-validation's -1e4.
unseen = np.vstack([scores, [[1.0, 0.5, -1e4]]])
print(json.dumps({"clean": clean, "unseen": t.calibrate(unseen, labels + ["c"], classes)}))
""")
    assert 0.3 < found["clean"] < 3.0, found
    assert abs(found["unseen"] - found["clean"]) < 0.05, found


@needs_venv
def test_the_custom_examples_a_fold_takes_are_named():
    found = run("""
classes = ["clinc:weather", "search_for_accounts"]
pool = [{"label": "clinc:weather", "source": "clinc"}, {"label": "search_for_accounts", "source": "clinc"}] * 50
scores = np.array([[5.0, -5.0], [-5.0, 5.0]] * 50)
t._CV["extra"] = [{"text": "check my expenses"}, {"text": "round up by $5"}]
extra = np.array([[[-5.0, 5.0], [5.0, -5.0]], [[5.0, -5.0], [5.0, -5.0]]])
report = t._cv_report(pool, scores, classes, [r["label"] for r in pool], extra)
print(json.dumps(report["rule"]))
""")
    assert found["custom_examples_taken"] == "1 of 4"
    assert found["custom_examples_taken_as"] == ["fold 1: 'check my expenses' -> search_for_accounts (1.00)"], found


@needs_venv
def test_the_generated_lines_label_mix_stays_out_of_the_real_intercepts():
    # Real lines: one payment request in ten; generated lines: every one a payment request, with the same words. Without
    # their own intercepts the generated lines pull the model's prior towards the request; with --generated-bias the
    # model scores a real line as real lines are labelled, and its weights keep the vocabulary's width.
    found = run("""
rng = np.random.default_rng(5)
def line(source, label):
    return {"features": [int(x) for x in rng.integers(0, 40, 6)], "source": source, "label": label}
rows = [line("clinc", "send_payment" if i % 10 == 0 else "clinc:weather") for i in range(600)]
rows += [line("generated-en", "send_payment") for _ in range(600)]
probe = [line("clinc", "?") for _ in range(400)]
out = {}
for bias in [0.0, 1.0]:
    t.GENERATED_BIAS = bias
    vectorizer, model = t.fit_intent(rows)
    X = vectorizer.transform([[str(h) for h in r["features"]] for r in probe])
    p = model.predict_proba(X)[:, list(model.classes_).index("send_payment")]
    out[str(bias)] = {"send": float(p.mean()), "width": model.coef_.shape[1], "vocabulary": len(vectorizer.vocabulary_)}
print(json.dumps(out))
""")
    plain, biased = found["0.0"], found["1.0"]
    assert biased["width"] == biased["vocabulary"] == plain["width"], found
    assert plain["send"] > 0.18, found  # (60 + 600 × 0.15) / 690 = 0.22: the generated lines pull the shared intercepts
    assert abs(biased["send"] - 0.1) < 0.05, found  # the real lines' own mix


@needs_venv
def test_a_share_of_the_generated_intercepts_comes_back():
    # --generated-share moves the intercepts from the real lines' mix (0) towards the generated lines' (1).
    found = run("""
rng = np.random.default_rng(5)
def line(source, label):
    return {"features": [int(x) for x in rng.integers(0, 40, 6)], "source": source, "label": label}
rows = [line("clinc", "send_payment" if i % 10 == 0 else "clinc:weather") for i in range(600)]
rows += [line("generated-en", "send_payment") for _ in range(600)]
probe = [line("clinc", "?") for _ in range(400)]
t.GENERATED_BIAS = 1.0
out = {}
for share in [0.0, 0.5, 1.0]:
    t.GENERATED_SHARE = share
    vectorizer, model = t.fit_intent(rows)
    X = vectorizer.transform([[str(h) for h in r["features"]] for r in probe])
    out[str(share)] = float(model.predict_proba(X)[:, list(model.classes_).index("send_payment")].mean())
print(json.dumps(out))
""")
    assert abs(found["0.0"] - 0.1) < 0.05 and found["0.0"] < found["0.5"] < found["1.0"], found
    assert found["1.0"] > 0.8, found  # every generated line is a request


@needs_venv
def test_the_generated_intercepts_only_on_the_intents_real_data_covers():
    # Real lines: one bill payment in ten, no request; generated lines: English bill payments and Spanish requests. With
    # --generated-bias-intents pay_bill the column takes the English bill payments' mix out of the real intercepts,
    # while the Spanish requests, which no real line teaches, keep the prior they give (with the column on every
    # generated line a request would be learnt as a generated line's label only).
    found = run("""
rng = np.random.default_rng(5)
def line(source, label):
    return {"features": [int(x) for x in rng.integers(0, 40, 6)], "source": source, "label": label}
rows = [line("clinc", "pay_bill" if i % 10 == 0 else "clinc:weather") for i in range(600)]
rows += [line("generated-en", "pay_bill") for _ in range(600)] + [line("generated-es", "request_payment") for _ in range(600)]
probe = [line("clinc", "?") for _ in range(400)]
t.GENERATED_BIAS = 1.0
out = {}
for name, intents in [("all", frozenset()), ("covered", frozenset({"pay_bill"}))]:
    t.GENERATED_BIAS_INTENTS = intents
    vectorizer, model = t.fit_intent(rows)
    p = model.predict_proba(vectorizer.transform([[str(h) for h in r["features"]] for r in probe]))
    classes = list(model.classes_)
    out[name] = {x: float(p[:, classes.index(x)].mean()) for x in ["pay_bill", "request_payment"]}
    out[name]["width"] = model.coef_.shape[1] - len(vectorizer.vocabulary_)
print(json.dumps(out))
""")
    every, covered = found["all"], found["covered"]
    assert every["width"] == covered["width"] == 0, found
    assert every["request_payment"] < 0.03, found  # the column took the requests' prior too
    assert covered["request_payment"] > 0.08, found  # 90 of 690 of the weight: kept
    assert abs(covered["pay_bill"] - 0.1) < 0.05, found  # the real lines' own mix of bill payments
