# SPDX-License-Identifier: Apache-2.0
"""The process that crash_test.py kills (not a test module).

    python3 payer.py HOME ROUND THREADS ACKS STARTED [RETRY]

Opens an engine on HOME and pays from THREADS submitter threads at once, for
ever: new idempotency keys ``rROUND-tT-N``, and now and then a key from the
file RETRY (one key a line: keys of earlier rounds, in flight when they were
killed or acknowledged then). Before each handle it appends ``KEY`` to
STARTED; after a successful handle it appends ``KEY JWS`` to ACKS and fsyncs
it, and only then counts the payment acknowledged. Prints ``ready`` once the
engine is open. Any failure is printed to stderr and ends the process with
status 3.
"""

import importlib.util
import os
import sys
import threading
import zlib

if importlib.util.find_spec("libtender") is None:  # the checkout's binding
    _repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    sys.path.insert(0, os.path.join(_repo, "python"))

import libtender as tender  # noqa: E402


def amount_of(key):
    """The amount paid under `key`, in minor units: the same for every retry of it."""
    return 100 + zlib.crc32(key.encode()) % 50


def intent_of(key, cents=None):
    """$`cents`/100 to tim-cook under `key` (by default ``amount_of(key)``)."""
    cents = amount_of(key) if cents is None else cents
    return {"intent": "send_payment", "payee": {"id": "tim-cook"},
            "currencyAmount": {"amount": f"{cents // 100}.{cents % 100:02d}", "currency": "USD"},
            "idempotencyKey": key}


def append_line(fd, text, durable):
    """One write of a whole line to an O_APPEND file (never interleaved), fsynced when `durable`."""
    data = (text + "\n").encode()
    if os.write(fd, data) != len(data):
        raise OSError(f"short write of {text[:40]!r}")
    if durable:
        os.fsync(fd)


def pay(engine, key, cents=None):
    """One whole dialog paying `intent_of(key, cents)`; returns the JWS handle answered, raises on anything else."""
    with engine.session(intent_of(key, cents)) as session:
        resolution = session.resolve()
        if not resolution["complete"]:
            raise RuntimeError(f"incomplete resolution for {key}: {resolution}")
        code, _ = session.confirm()
        if code is not tender.ResponseCode.READY:
            raise RuntimeError(f"confirm of {key}: {code.name}")
        session.agree(True)
        code, record = session.handle()
        if code is not tender.ResponseCode.SUCCESS or record is None or record["idempotencyKey"] != key or not record.jws:
            raise RuntimeError(f"handle of {key}: {code.name} {record!r}")
        return record.jws


def main(home, round_number, threads, acks_path, started_path, retry_path=None):
    retries = []
    if retry_path:
        with open(retry_path) as handle:
            retries = [line.strip() for line in handle if line.strip()]
    lock = threading.Lock()
    acks = os.open(acks_path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    started = os.open(started_path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    engine = tender.Engine(home, authentication={"restrictedIntents": []})
    failures = []

    def submitter(index):
        number = 0
        try:
            while True:
                key = None
                if number % 3 == 1:
                    with lock:
                        key = retries.pop() if retries else None
                if key is None:
                    key = f"r{round_number}-t{index}-{number}"
                number += 1
                append_line(started, key, durable=False)
                jws = pay(engine, key)
                append_line(acks, f"{key} {jws}", durable=True)
        except BaseException as exc:  # noqa: BLE001 - report anything, then fail
            failures.append(f"{type(exc).__name__}: {exc}")
            print(f"payer: thread {index}: {type(exc).__name__}: {exc}", file=sys.stderr, flush=True)
            os._exit(3)

    workers = [threading.Thread(target=submitter, args=(i,), daemon=True) for i in range(threads)]
    print("ready", flush=True)
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()


if __name__ == "__main__":
    try:
        main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5],
             sys.argv[6] if len(sys.argv) > 6 else None)
    except BaseException as exc:  # noqa: BLE001 - report anything, then fail
        print(f"payer: {type(exc).__name__}: {exc}", file=sys.stderr, flush=True)
        sys.exit(3)
