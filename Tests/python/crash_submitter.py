# SPDX-License-Identifier: Apache-2.0
"""Helper of test_ledger.py's crash test (not a test module).

    python3 crash_submitter.py HOME FIRST

Opens an engine on HOME (whose directory the test imported), prints
``ready``, then pays $1.00 to tim-cook with idempotency keys ``k-FIRST``,
``k-FIRST+1``, ... for ever, printing ``ack k-<i>`` (and flushing) after each
successful handle. The test kills it with SIGKILL at a random moment. Any
failure is printed to stderr and ends the process with status 3.
"""

import os
import sys

# The whole dialog of one payment is make test-crash's (Tests/crash/payer.py), which also finds the checkout's binding.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "crash"))

import payer  # noqa: E402

tender = payer.tender


def main(home, first):
    engine = tender.Engine(home, authentication={"restrictedIntents": []})
    print("ready", flush=True)
    index = first
    while True:
        key = f"k-{index}"
        payer.pay(engine, key, cents=100)
        print(f"ack {key}", flush=True)
        index += 1


if __name__ == "__main__":
    try:
        main(sys.argv[1], int(sys.argv[2]))
    except BaseException as exc:  # noqa: BLE001 - report anything, then fail
        print(f"crash_submitter: {type(exc).__name__}: {exc}", file=sys.stderr, flush=True)
        sys.exit(3)
