# SPDX-License-Identifier: Apache-2.0
"""make test-crash: kill -9 a process paying from eight submitter threads, many times.

    python3 crash_test.py [--rounds N] [--threads T] [--seed S] [--keep]

Each round starts payer.py on the same home, lets it pay for a random moment
(after its first acknowledgement of the round) and kills it with SIGKILL.
Then it checks, on the store as the crash left it:

- every acknowledged payment (a line ``KEY JWS`` that payer.py fsynced to its
  acknowledgement file before counting it) is in the ledger exactly once,
  with exactly the JWS it was acknowledged with;
- no idempotency key was paid twice, and the balance is the opening balance
  less what the ledger's payments moved, once each;
- the engine's verify and ``tender verify`` pass.

The next round retries the keys that were in flight when the process was
killed, and some acknowledged ones (whose retry must answer the same JWS).
Rounds whose kill left records committed but without their stored signature
are counted: those records are signed again when the store is next opened.
Needs TENDER_LIBRARY (or an installed library) and TENDER_CLI.
"""

import argparse
import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import payer  # noqa: E402  (amount_of, and the binding's import path)

tender = payer.tender

OPENING_MINOR = 100_000_000_000
DIRECTORY = {
    "contacts": [{"id": "tim-cook", "displayName": "Tim Cook",
                  "handles": [{"id": "tc-work", "label": "work", "type": "email", "value": "tim@example.com"}]}],
    "accounts": [{"id": "checking", "nickname": "Checking", "type": "checking",
                  "balance": {"amount": f"{OPENING_MINOR // 100}.00", "currency": "USD"}, "default": True}],
}
NO_AUTH = {"restrictedIntents": []}


class Failure(Exception):
    pass


def read_lines(path):
    """The complete lines of a file (a last line without its newline was cut by the kill: never acknowledged)."""
    if not os.path.exists(path):
        return []
    with open(path) as handle:
        text = handle.read()
    return text.split("\n")[:-1]


def cut_torn_line(path):
    """Drops a last line the kill cut short (no newline: its write never returned, so it was never
    acknowledged), so that the next round's lines do not run on from it."""
    if not os.path.exists(path):
        return
    with open(path, "rb+") as handle:
        data = handle.read()
        if data and not data.endswith(b"\n"):
            handle.truncate(data.rfind(b"\n") + 1)


def unsigned_rows(home):
    """Ledger rows committed without their stored signature, read straight from the store as the kill left it."""
    db = sqlite3.connect(f"file:{os.path.join(home, 'tender.sqlite3')}?mode=ro", uri=True)
    try:
        columns = [row[1] for row in db.execute("PRAGMA table_info(ledger)")]
        if "seal" not in columns:
            return 0
        return db.execute("SELECT count(*) FROM ledger WHERE seal IS NOT NULL").fetchone()[0]
    finally:
        db.close()


def balance_minor(engine):
    for account in engine.directory()["accounts"]:
        if account["id"] == "checking":
            units, _, cents = account["balance"]["amount"].partition(".")
            return int(units) * 100 + int(cents or 0)
    raise Failure("the checking account is gone")


def check(home, acks_path, started_path, cli):
    """Checks the store against every acknowledgement so far; returns (payments, acked keys, report)."""
    acked = {}
    for line in read_lines(acks_path):
        key, _, jws = line.partition(" ")
        if not jws:
            raise Failure(f"a malformed acknowledgement line: {line[:80]!r}")
        if key in acked and acked[key] != jws:
            raise Failure(f"{key} was acknowledged with two different JWS")
        acked[key] = jws
    started = set(read_lines(started_path))
    with tender.Engine(home, authentication=NO_AUTH) as engine:
        ledger = engine.ledger()
        report = engine.verify()
        balance = balance_minor(engine)
    payments = {}
    for entry in ledger:
        if entry["type"] != "payment":
            continue
        key = entry["record"]["idempotencyKey"]
        if key in payments:
            raise Failure(f"{key} was paid twice (records {payments[key]['sequence']} and {entry['sequence']})")
        payments[key] = entry
    for key, jws in acked.items():
        entry = payments.get(key)
        if entry is None:
            raise Failure(f"the acknowledged payment {key} is not in the ledger")
        if entry["jws"] != jws:
            raise Failure(f"{key} is in the ledger with another JWS than the one acknowledged")
    strangers = [key for key in payments if key not in started]
    if strangers:
        raise Failure(f"the ledger holds payments nobody started: {strangers[:3]}")
    moved = sum(payer.amount_of(key) for key in payments)
    if balance != OPENING_MINOR - moved:
        raise Failure(f"the balance is {balance}, expected {OPENING_MINOR - moved}: a payment moved money twice or not at all")
    if report.get("records") != len(ledger) or not report.get("valid"):
        raise Failure(f"verify: {report}")
    done = subprocess.run([cli, "verify", "--home", home], capture_output=True, text=True, timeout=300)
    if done.returncode != 0:
        raise Failure(f"tender verify failed ({done.returncode}): {done.stdout}{done.stderr}")
    return payments, acked, report


def wait_for_ack(path, size, child, limit):
    """Waits until `path` grew past `size` (a new acknowledgement) or `limit` seconds passed."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if child.poll() is not None:
            return
        if os.path.exists(path) and os.path.getsize(path) > size:
            return
        time.sleep(0.002)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--keep", action="store_true", help="keep the home and the logs")
    options = parser.parse_args()
    cli = os.environ.get("TENDER_CLI")
    if not cli:
        raise SystemExit("crash_test.py: set TENDER_CLI to the tender tool")
    seed = options.seed if options.seed is not None else random.SystemRandom().randrange(1 << 32)
    rng = random.Random(seed)
    work = tempfile.mkdtemp(prefix="tender-crash-")
    home = os.path.join(work, "home")
    acks, started, retry = (os.path.join(work, name) for name in ("acks", "started", "retry"))
    with tender.Engine(home, authentication=NO_AUTH) as engine:
        engine.import_directory(DIRECTORY)
    begun = time.monotonic()
    rounds_unsigned = resigned_total = retried_acked = 0
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    ok = False
    try:
        payments, acked = {}, {}
        for number in range(options.rounds):
            size = os.path.getsize(acks) if os.path.exists(acks) else 0
            lines_before, keys_before = len(read_lines(acks)), len(acked)
            args = [sys.executable, os.path.join(HERE, "payer.py"), home, str(number), str(options.threads), acks, started]
            if os.path.exists(retry):
                args.append(retry)
            child = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
            try:
                line = child.stdout.readline()
                if line != "ready\n":
                    raise Failure(f"round {number}: the payer did not start: {line!r} {child.stderr.read()}")
                wait_for_ack(acks, size, child, 60)
                time.sleep(rng.uniform(0.0, 0.25))
                child.send_signal(signal.SIGKILL)
                child.wait(timeout=60)
            finally:
                if child.poll() is None:
                    child.kill()
                    child.wait()
            err = child.stderr.read()
            cut_torn_line(acks)
            cut_torn_line(started)
            if child.returncode != -signal.SIGKILL:
                raise Failure(f"round {number}: the payer ended by itself ({child.returncode}): {err}")
            unsigned = unsigned_rows(home)
            rounds_unsigned += unsigned > 0
            payments, acked, report = check(home, acks, started, cli)
            resigned_total = len(report.get("resigned", []))
            retried_acked += len(read_lines(acks)) - lines_before - (len(acked) - keys_before)
            in_flight = sorted(set(read_lines(started)) - set(acked))
            again = rng.sample(sorted(acked), min(10, len(acked)))
            with open(retry, "w") as handle:
                handle.write("".join(f"{key}\n" for key in in_flight + again))
            print(f"round {number + 1}/{options.rounds}: {len(acked)} acknowledged, {len(payments)} paid, "
                  f"{unsigned} record(s) left without a stored signature, {len(in_flight)} in flight retried next", flush=True)
        if options.rounds >= 10 and unsigned_rows_supported(home) and rounds_unsigned == 0:
            raise Failure("no kill landed between a commit and the storing of its signatures: the new path was not exercised")
        ok = True
        print(f"crash test passed: {options.rounds} rounds of kill -9 with {options.threads} submitters in "
              f"{time.monotonic() - begun:.1f}s (seed {seed}): {len(acked)} payments acknowledged, {len(payments)} paid, "
              f"{retried_acked} retries of acknowledged keys answered the same JWS, {rounds_unsigned} round(s) killed "
              f"between a commit and its signatures' store ({resigned_total} record(s) signed again at open), verify passed")
    except Failure as failure:
        print(f"crash test FAILED (seed {seed}, home kept in {work}): {failure}", file=sys.stderr)
        sys.exit(1)
    finally:
        if ok and not options.keep:
            shutil.rmtree(work, ignore_errors=True)
        elif ok:
            print(f"kept {work}")


def unsigned_rows_supported(home):
    db = sqlite3.connect(f"file:{os.path.join(home, 'tender.sqlite3')}?mode=ro", uri=True)
    try:
        return "seal" in [row[1] for row in db.execute("PRAGMA table_info(ledger)")]
    finally:
        db.close()


if __name__ == "__main__":
    main()
