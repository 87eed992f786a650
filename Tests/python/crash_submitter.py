# SPDX-License-Identifier: Apache-2.0
"""Helper of test_ledger.py's crash test (not a test module).

    python3 crash_submitter.py HOME FIRST

Opens an engine on HOME (whose directory the test imported), prints
``ready``, then pays $1.00 to tim-cook with idempotency keys ``k-FIRST``,
``k-FIRST+1``, ... for ever, printing ``ack k-<i>`` (and flushing) after each
successful handle. The test kills it with SIGKILL at a random moment. Any
failure is printed to stderr and ends the process with status 3.
"""

import importlib.util
import os
import sys

if importlib.util.find_spec("libtender") is None:  # as conftest.py: the checkout's binding
    _repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    sys.path.insert(0, os.path.join(_repo, "python"))

import libtender as tender  # noqa: E402


def main(home, first):
    engine = tender.Engine(home, authentication={"restrictedIntents": []})
    print("ready", flush=True)
    index = first
    while True:
        key = f"k-{index}"
        intent = {"intent": "send_payment", "payee": {"id": "tim-cook"},
                  "currencyAmount": {"amount": "1.00", "currency": "USD"}, "idempotencyKey": key}
        with engine.session(intent) as session:
            resolution = session.resolve()
            if not resolution["complete"]:
                raise SystemExit(f"incomplete resolution for {key}: {resolution}")
            code, _ = session.confirm()
            if code is not tender.ResponseCode.READY:
                raise SystemExit(f"confirm of {key}: {code.name}")
            session.agree(True)  # the person says yes to the confirmation question
            code, record = session.handle()
            if code is not tender.ResponseCode.SUCCESS or record["idempotencyKey"] != key:
                raise SystemExit(f"handle of {key}: {code.name} {record!r}")
        print(f"ack {key}", flush=True)
        index += 1


if __name__ == "__main__":
    try:
        main(sys.argv[1], int(sys.argv[2]))
    except BaseException as exc:  # noqa: BLE001 - report anything, then fail
        print(f"crash_submitter: {type(exc).__name__}: {exc}", file=sys.stderr, flush=True)
        sys.exit(3)
