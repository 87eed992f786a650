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


@needs_venv
def test_the_combined_rule_accepts_by_either_clause_and_the_veto_holds():
    # Issue 31, ninth pass (--gate-cv): in scope when the gate is sure and the mixed model does not veto, or when the
    # mixed model alone is sure; the intent by the product of the two models' masses on the gate's clause.
    found = run("""
def row(oos, **m):
    r = [oos] + [0.0] * (len(t.TARGETS) - 1)
    for k, v in m.items(): r[t.TARGETS.index(k)] = v
    return r
gate = np.array([row(0.1, pay_bill=0.5, search_for_bills=0.4),    # the gate sure, the mixed model over the veto
                 row(0.1, search_for_payments=0.9),               # the gate sure, the mixed model vetoes
                 row(0.9, send_payment=0.1),                      # the gate refuses, the mixed model alone is sure
                 row(0.9, send_payment=0.1),                      # both refuse
                 row(0.5, transfer_money=0.5)])                   # the gate under its threshold, the mixed model under its own
mixed = np.array([row(0.3, pay_bill=0.1, search_for_bills=0.6),
                  row(0.7, search_for_payments=0.3),
                  row(0.05, send_payment=0.95),
                  row(0.6, send_payment=0.4),
                  row(0.2, transfer_money=0.8)])
print(json.dumps(list(t.combined_decide(gate, mixed, 0.6, 0.5, 0.9))))
""")
    # the product picks search_for_bills (0.4 x 0.6) over pay_bill (0.5 x 0.1): the gate alone would say pay_bill
    assert found == ["search_for_bills", "out_of_scope", "send_payment", "out_of_scope", "out_of_scope"], found


@needs_venv
def test_the_combined_thresholds_keep_both_clauses_within_the_limits():
    found = run("""
t.MAX_FALSE_ACCEPT = {"clinc": 0.02, "sgd": 0.02}
rng = np.random.default_rng(3)
n = 1000
gate_in, mixed_in = rng.uniform(size=n), rng.uniform(size=n)
sources = np.array(["clinc"] * 500 + ["sgd"] * 500)
out = {}
for share in (1.0, 0.5, None):
    tg, own = t.combined_thresholds(gate_in, mixed_in, sources, share, 0.3)
    accepted = ((gate_in >= tg) & (mixed_in >= 0.3)) | (mixed_in >= own)
    out[str(share)] = [float(accepted[sources == s].mean()) for s in ("clinc", "sgd")] + [float(tg), float(own)]
out["broken"] = t.combined_thresholds(gate_in, mixed_in, sources, 2.0, 0.3) is None
print(json.dumps(out))
""")
    for share in ("1.0", "0.5", "None"):
        clinc, sgd, gate_threshold, own = found[share]
        assert clinc <= 0.02 and sgd <= 0.02, found
        assert clinc >= 0.018 or sgd >= 0.018, found  # the lowest thresholds: the budget is spent, not wasted
    assert found["None"][3] > 1 and found["1.0"][0] <= 0.02  # no own clause; the whole budget to the own clause
    assert found["0.5"][2] < found["1.0"][2]  # half the budget left to the gate: its threshold falls
    assert found["broken"] is True  # an own clause over the limits has no gate threshold


@needs_venv
def test_the_combined_report_names_the_examples_the_fold_models_take():
    found = run("""
classes = ["clinc:weather", "search_for_accounts"]
pool = [{"label": "clinc:weather", "source": "clinc"}, {"label": "search_for_accounts", "source": "clinc"}] * 50
scores = np.array([[5.0, -5.0], [-5.0, 5.0]] * 50)
t._CV["extra"] = [{"text": "what is left of my budget"}, {"text": "round up by $5"}]
gate_extra = np.array([[[-5.0, 5.0], [5.0, -5.0]], [[-5.0, 5.0], [5.0, -5.0]]])
mixed_extra = np.array([[[-5.0, 5.0], [5.0, -5.0]], [[5.0, -5.0], [5.0, -5.0]]])
t.GATE_SHARES, t.GATE_VETOES = (None,), (0.5,)
report = t.combined_report(pool, scores, scores, classes, [r["label"] for r in pool], mixed_extra, gate_extra)
print(json.dumps(report))
""")
    entry = found["own clause at None of the limits, veto 0.5"]
    assert entry["clinc_in_scope"] == 1.0 and entry["clinc_false_accepts"] == 0.0, entry
    # fold 2's mixed model vetoes the example its gate takes
    assert entry["custom_examples_taken_as"] == ["fold 1: 'what is left of my budget' -> search_for_accounts"], entry
