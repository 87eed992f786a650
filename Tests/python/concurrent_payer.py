# SPDX-License-Identifier: Apache-2.0
"""Helper of test_ledger.py's cross-process idempotency test (not a test module).

    python3 concurrent_payer.py HOME SEED GO_FILE KEYS AMOUNT

Opens its own engine on HOME, prints ``ready``, waits until GO_FILE exists
(so that every process starts paying at once), then pays AMOUNT USD to
tim-cook once for each of the idempotency keys ``same-0`` ... ``same-<KEYS-1>``
in an order shuffled with SEED. Prints one JSON object: key -> {"code",
"record", "jws"}. Any failure is printed to stderr with status 3.
"""

import importlib.util
import json
import os
import random
import sys
import time

if importlib.util.find_spec("libtender") is None:  # as conftest.py: the checkout's binding
    _repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    sys.path.insert(0, os.path.join(_repo, "python"))

import libtender as tender  # noqa: E402


def main(home, seed, go_file, count, amount):
    keys = [f"same-{i}" for i in range(count)]
    random.Random(seed).shuffle(keys)
    results = {}
    with tender.Engine(home, authentication={"restrictedIntents": []}) as engine:
        print("ready", flush=True)
        deadline = time.monotonic() + 60
        while not os.path.exists(go_file):
            if time.monotonic() > deadline:
                raise SystemExit("no go")
            time.sleep(0.001)
        for key in keys:
            intent = {"intent": "send_payment", "payee": {"id": "tim-cook"},
                      "currencyAmount": {"amount": amount, "currency": "USD"}, "idempotencyKey": key}
            with engine.session(intent) as session:
                session.resolve()
                code, _ = session.confirm()
                if code is not tender.ResponseCode.READY:
                    raise SystemExit(f"confirm of {key}: {code.name}")
                session.agree(True)  # the person says yes to the confirmation question
                code, record = session.handle()
                results[key] = {"code": code.name, "record": record, "jws": record.jws if record else None}
    print(json.dumps({"order": keys, "results": results}), flush=True)


if __name__ == "__main__":
    try:
        main(sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), sys.argv[5])
    except BaseException as exc:  # noqa: BLE001 - report anything, then fail
        print(f"concurrent_payer: {type(exc).__name__}: {exc}", file=sys.stderr, flush=True)
        sys.exit(3)
