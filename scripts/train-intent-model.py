#!/usr/bin/env python3
"""Trains Tender's intent model offline and writes it as C data compiled into
libtender.so (Sources/CTenderModel/intent_model.c).

Not part of the build or the tests: run it by hand after changing the
Featurizer (Sources/TenderCore/Understanding/Featurizer.swift) or the data.
It needs scikit-learn (pip install scikit-learn) and a built `tender` tool,
whose hidden `tender features` command computes the features exactly as the
library does at parse time.

Data: CLINC150 (Larson et al., EMNLP 2019), CC BY 3.0, ../shared/data/clinc150.
The model learns the dataset's 151 labels (150 intents and its out-of-scope
queries) with a linear SVM over tf-idf weighted hashed features; each label
maps to a Tender intent or to out_of_scope. Small weights are pruned and the
rest quantised to 8 bits.

    python3 scripts/train-intent-model.py [--data DIR] [--tender build/bin/tender]
"""
import argparse
import json
import os
import struct
import subprocess

import numpy as np
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.svm import LinearSVC

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGETS = ["out_of_scope", "pay_bill", "transfer_money", "search_for_accounts", "search_for_bills", "search_for_payments"]
# The dataset's "any" labels, decided: spending is a payment search; a rewards balance is too close to
# redeeming rewards (out of scope) to accept safely.
ANY = {"spending_history": "search_for_payments", "rewards_balance": "out_of_scope"}
C, PRUNE, REJECT_BELOW = 1.0, 0.1, -0.5

# Extra in-scope phrasings, generated from templates written for Tender (not taken from the data):
# the in-scope labels have 100 crowd-sourced lines each against 14,000 out-of-scope ones.
ACCOUNTS = ["checking", "savings", "chase", "credit card", "visa", "mastercard", "amex card", "bank account", "debit card", "joint account"]
BILLS = ["electric", "water", "phone", "cable", "internet", "gas", "credit card", "insurance", "rent", "utility"]
PERIODS = ["this month", "last week", "yesterday", "today", "this billing period", "the past few days", "last month", "this week"]
TEMPLATES = {
    "balance": [
        "how much money is in my {a}", "what is the balance of my {a}", "how much do i have left in my {a}",
        "is there enough money in my {a} for a new laptop", "could i buy a car with what is in my {a}",
        "tell me what my {a} holds", "what's left on my {a}", "check how much cash my {a} has",
    ],
    "transactions": [
        "what did i buy with my {a} {p}", "show the charges on my {a} {p}", "list what i spent on my {a} {p}",
        "which purchases went through my {a} {p}", "what withdrawals came out of my {a} {p}", "what payments hit my {a} {p}",
        "go over the items charged to my {a} {p}", "let me see the activity on my {a} {p}",
    ],
    "bill_due": [
        "when do i have to pay my {b} bill", "what date is my {b} bill due", "by when should the {b} bill be paid",
        "which day is the {b} bill due", "when is the deadline for my {b} bill", "remind me when the {b} bill needs paying",
    ],
    "bill_balance": [
        "how much do i owe on my {b} bill", "what is the total of my {b} bill", "how much is the {b} bill this time",
        "what amount do i need to pay for {b}", "how big is my {b} bill",
    ],
}


def augmented():
    rows = []
    for label, templates in TEMPLATES.items():
        for template in templates:
            for i, account in enumerate(ACCOUNTS if "{a}" in template else [""]):
                for j, bill in enumerate(BILLS if "{b}" in template else [""]):
                    period = PERIODS[(i + j) % len(PERIODS)]
                    rows.append({"text": template.format(a=account, b=bill, p=period), "clinc_intent": label})
    return rows


def features(tender, path):
    out = subprocess.run([tender, "features", path], check=True, capture_output=True, text=True).stdout
    return [json.loads(line) for line in out.splitlines() if line]


def evaluate(rows, scores, classes, target_of):
    scored = in_scope = right = out_scope = accepted = 0
    for row, s in zip(rows, scores):
        best = int(np.argmax(s))
        label = target_of[classes[best]] if s[best] >= REJECT_BELOW else "out_of_scope"
        expected = row["expected"]
        if expected == "any":
            continue
        scored += 1
        if expected == "out_of_scope":
            out_scope += 1
            accepted += label != "out_of_scope"
        else:
            in_scope += 1
            right += label == expected
    return right / in_scope, accepted / out_scope


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", default=os.path.join(ROOT, "..", "shared", "data", "clinc150"))
    parser.add_argument("--tender", default=os.path.join(ROOT, "build", "bin", "tender"))
    parser.add_argument("--out", default=os.path.join(ROOT, "Sources", "CTenderModel", "intent_model.c"))
    args = parser.parse_args()

    train = features(args.tender, os.path.join(args.data, "train.jsonl"))
    extra_path = os.path.join(os.environ.get("TMPDIR", "/tmp"), "tender-augmented.jsonl")
    with open(extra_path, "w") as out:
        out.writelines(json.dumps(row) + "\n" for row in augmented())
    extra = features(args.tender, extra_path)
    print(f"{len(extra)} generated in-scope lines added to {len(train)}")
    val = features(args.tender, os.path.join(args.data, "val.jsonl"))
    target_of = {row["clinc_intent"]: row["expected"] for row in train}
    target_of.update(ANY)

    vectorizer = TfidfVectorizer(analyzer=lambda x: x, lowercase=False)
    X = vectorizer.fit_transform([row["features"] for row in train + extra])
    model = LinearSVC(C=C)
    model.fit(X, [row["clinc_intent"] for row in train + extra])
    W = model.coef_.copy()
    W[np.abs(W) < PRUNE] = 0
    classes = list(model.classes_)

    # Quantise: weights to int8 with one scale, idf to uint8 with one scale.
    weight_scale = float(np.abs(W).max()) / 127.0
    Q = np.round(W / weight_scale).astype(np.int8)
    idf = vectorizer.idf_
    idf_scale = float(idf.max()) / 255.0
    idf_q = np.clip(np.round(idf / idf_scale), 1, 255).astype(np.uint8)

    # Check the model on val (float weights: the library scores the quantised ones; tender eval measures those).
    Xv = vectorizer.transform([row["features"] for row in val])
    inverse = {v: k for k, v in vectorizer.vocabulary_.items()}
    order = sorted(range(len(inverse)), key=lambda i: inverse[i])
    keys = [inverse[i] for i in order]
    accuracy, false_accepts = evaluate(val, Xv @ W.T + model.intercept_, classes, target_of)
    print(f"val (float weights): in-scope accuracy {accuracy:.4f}, false-accept rate {false_accepts:.4f}")

    blob = bytearray(b"TIM1")
    blob += struct.pack("<HffI", len(classes), weight_scale, idf_scale, len(keys))
    blob += struct.pack("<f", REJECT_BELOW)
    for name in classes:
        encoded = name.encode()
        blob += struct.pack("<B", len(encoded)) + encoded + struct.pack("<B", TARGETS.index(target_of[name]))
    blob += struct.pack(f"<{len(classes)}f", *model.intercept_)
    blob += struct.pack(f"<{len(keys)}Q", *keys)
    blob += bytes(idf_q[i] for i in order)
    entries = bytearray()
    for i in order:
        column = Q[:, i]
        nonzero = np.nonzero(column)[0]
        blob += struct.pack("<B", len(nonzero))
        for c in nonzero:
            entries += struct.pack("<Bb", c, int(column[c]))
    blob += entries

    with open(args.out, "w") as out:
        out.write("/* Generated by scripts/train-intent-model.py: Tender's intent model (see that script).\n"
                  " * Learnt from CLINC150 (Larson et al., EMNLP 2019), licensed CC BY 3.0:\n"
                  " * https://github.com/clinc/oos-eval. Do not edit. */\n")
        out.write('#include "tender_model.h"\n\n')
        out.write(f"const size_t tdr_intent_model_size = {len(blob)};\n")
        out.write("const unsigned char tdr_intent_model[] = {\n")
        for start in range(0, len(blob), 24):
            out.write("    " + ", ".join(str(b) for b in blob[start:start + 24]) + ",\n")
        out.write("};\n")
    print(f"wrote {args.out}: {len(blob)} bytes, {len(classes)} classes, {len(keys)} features, {len(entries) // 2} weights")


if __name__ == "__main__":
    main()
