#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""One process paying for many people at once, each with a home of their own.

    python3 examples/many_homes.py [DIR] [PEOPLE] [THREADS]

DIR holds one home per person (DIR/person-N, created when missing); without it
a temporary directory is used and removed afterwards. PEOPLE (default 50)
people, THREADS (default 4) request threads. Each request takes the person's
engine from an EngineCache (opened on demand, at most 16 kept open while
idle), pays $1.00 to a contact of theirs through a whole dialog, and gives the
engine back; then idle engines are closed, as a service would do on a timer.
It prints the payments made, how many engines are open, and exits 0 when every
payment was made. The engines restrict nothing ({"restrictedIntents": []}),
so it runs without /etc/pam.d/tender; a real service keeps the default policy
and asks each person through the session's conversation.

Who belongs to which home is the service's own mapping (here person-N); the
cache never hands one home's engine to another home's request, nor an engine
opened with another configuration, and engines it lets go stay open until the
requests using them are done. The `libtender` package must be importable
(`pip install ./python`) and find libtender (TENDER_LIBRARY=/path/to/libtender.so.1).
"""

import os
import random
import shutil
import sys
import tempfile
import threading

import libtender as tender

DIRECTORY = {
    "contacts": [{"id": "tim-cook", "displayName": "Tim Cook",
                  "handles": [{"id": "tc-work", "label": "work", "type": "email", "value": "tim@example.com"}]}],
    "accounts": [{"id": "checking", "nickname": "Checking", "type": "checking",
                  "balance": {"amount": "1000.00", "currency": "USD"}, "default": True}],
}
POLICY = {"restrictedIntents": []}
PAYMENT = {"intent": "send_payment", "payee": {"id": "tim-cook"},
           "currencyAmount": {"amount": "1.00", "currency": "USD"}}


def home_of(base: str, person: int) -> str:
    """The service's own mapping from a person to their home."""
    return os.path.join(base, f"person-{person}")


def pay(cache: tender.EngineCache, home: str) -> bool:
    """One request: the person's engine from the cache, a whole dialog, the engine given back."""
    with cache.engine(home, authentication=POLICY) as engine:
        with engine.session(PAYMENT) as session:
            if not session.resolve()["complete"]:
                return False
            code, _ = session.confirm()
            if code != tender.ResponseCode.READY:
                return False
            session.agree(True)
            code, _ = session.handle()
            return code == tender.ResponseCode.SUCCESS


def main() -> int:
    base = sys.argv[1] if len(sys.argv) > 1 else None
    people = int(sys.argv[2]) if len(sys.argv) > 2 else 50
    threads = int(sys.argv[3]) if len(sys.argv) > 3 else 4
    temporary = base is None
    if temporary:
        base = tempfile.mkdtemp(prefix="tender-many-")
    os.makedirs(base, mode=0o700, exist_ok=True)
    try:
        with tender.EngineCache(16) as cache:
            for person in range(people):  # each person's directory, once
                with cache.engine(home_of(base, person), authentication=POLICY) as engine:
                    if not engine.directory()["accounts"]:
                        engine.import_directory(DIRECTORY)
            paid = []
            lock = threading.Lock()

            def requests(seed: int) -> None:
                chooser = random.Random(seed)
                for _ in range(people):
                    ok = pay(cache, home_of(base, chooser.randrange(people)))
                    with lock:
                        paid.append(ok)

            workers = [threading.Thread(target=requests, args=(seed,)) for seed in range(threads)]
            for worker in workers:
                worker.start()
            for worker in workers:
                worker.join()
            print(f"{sum(paid)} of {len(paid)} payments made for {people} people; {len(cache)} engines open")
            closed = cache.close_idle(0)
            print(f"closed {closed} idle engines; {len(cache)} open")
            return 0 if paid and all(paid) else 1
    except tender.TenderError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    finally:
        if temporary:
            shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
