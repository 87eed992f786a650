#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A bank's host for the two shipped custom intents (expense.json, round-up.json), as a
program for `tender ask` and `tender intent --handler PROGRAM` (docs/custom-intents.md).

Tender runs it once per call, without a shell, with one JSON call on standard input:

    {"call": "values", "intent": "expense", "parameter": "expense"}
        -> {"values": ["eating out", "groceries", ...]}       what the parameter may be
    {"call": "handle", "request": {"intent": ..., "parameters": {...}, "idempotencyKey": ...}}
        -> {"code": "success", "values": {...}}               the intent handled

and reads the answer from standard output (exit status 0). The expenses are this
example's own; round-ups are kept in a books file (JSON), by idempotency key, so a
key seen before moves nothing twice: $TENDER_EXAMPLE_BOOKS, or
~/.local/state/tender/example-books.json ($XDG_STATE_HOME/tender/... when set)."""
import json
import os
import sys
from decimal import Decimal

#: Money set aside, and what is left in each (decimal strings: money is never a float).
EXPENSES = {"vacation": "120.00", "groceries": "85.50", "coffee shop": "20.00", "eating out": "64.25"}


def books_path():
    if os.environ.get("TENDER_EXAMPLE_BOOKS"):
        return os.environ["TENDER_EXAMPLE_BOOKS"]
    state = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return os.path.join(state, "tender", "example-books.json")


def round_up(request):
    """Moves the amount into the savings pot once per idempotency key; answers the pot's total."""
    path = books_path()
    try:
        with open(path, encoding="utf-8") as f:
            books = json.load(f)
    except FileNotFoundError:
        books = {"moves": {}}
    amount = request["parameters"]["amount"]
    key = request["idempotencyKey"]
    if key not in books["moves"]:
        books["moves"][key] = amount
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        with open(path + ".new", "w", encoding="utf-8") as f:
            json.dump(books, f)
        os.replace(path + ".new", path)
    pot = sum(Decimal(m["amount"]) for m in books["moves"].values())
    print(f"handler: round-up pot {pot} {amount['currency']} ({len(books['moves'])} moves, {path})", file=sys.stderr)
    return {"code": "success"}


def main():
    call = json.load(sys.stdin)
    if call["call"] == "values":
        answer = {"values": sorted(EXPENSES)} if call["parameter"] == "expense" else {"values": []}
    elif call["request"]["intent"] == "expense":
        name = call["request"]["parameters"]["expense"]
        if name not in EXPENSES:
            answer = {"code": "failure"}
        else:
            answer = {"code": "success", "values": {"amountLeft": {"amount": EXPENSES[name], "currency": "USD"}}}
    elif call["request"]["intent"] == "round_up_savings":
        answer = round_up(call["request"])
    else:
        answer = {"code": "failure"}
    print(json.dumps(answer))


if __name__ == "__main__":
    main()
