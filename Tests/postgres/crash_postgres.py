# SPDX-License-Identifier: Apache-2.0
"""The crash test on PostgreSQL: two tenderd processes, as if on two machines, on one throwaway cluster; each round,
four client processes of one person pay the same idempotency keys at once (two through each daemon), and one daemon,
picked at random, is killed with SIGKILL mid-payment, then started again. After every round: every acknowledged
payment is in the ledger once, with the JWS it was acknowledged with; no key has two rows; the chain is one line
(sequences 1..N, no fork); acknowledged <= paid. At the end the ledger verifies through either daemon, with the
engine's verify and with `tender verify --broker`, against checkpoints made through both.

    python3 Tests/postgres/crash_postgres.py [--rounds N] [--seed S]     (root; make test-crash-postgres ROUNDS=N)

make test-postgres runs 3 rounds. Exits 0 when every check held, 1 (naming it) when one did not, and skips (exit 0,
saying why) without root or PostgreSQL's server.
"""

import argparse
import json
import os
import pwd
import random
import signal
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from pg_cluster import PGBIN  # noqa: E402
from pg_world import Throwaway  # noqa: E402
from test_postgres import CLIENT, LIBRARY, PYTHONPATH, TENDER, Daemon, as_user  # noqa: E402

KEYS_PER_ROUND = 10
CLIENTS = 4
# How long a round waits for its first acknowledged payment before the kill.
ACK_TIMEOUT = 60


def client(daemon, user, *args):
    done = as_user(user, [sys.executable, CLIENT, daemon.socket, *args])
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


def payments(world, user):
    """{key: [(jws, sealed), ...]} of `user`'s payment rows and (count, max sequence, distinct sequences) of all their rows,
    read as the daemon's role."""
    uid = pwd.getpwnam(user).pw_uid
    role = world.names["d"]
    done = world.cluster.sql(role, f"SET tender.uid = '{uid}'; SELECT idempotency_key, seal IS NOT NULL, jws FROM tender.ledger "
                             "WHERE type = 'payment'")
    assert done.returncode == 0, done.stderr
    rows = {}
    for line in done.stdout.splitlines():
        if line:
            key, sealed, jws = line.split("|", 2)
            rows.setdefault(key, []).append((jws, sealed == "t"))
    done = world.cluster.sql(role, f"SET tender.uid = '{uid}'; SELECT count(*), coalesce(max(sequence), 0), count(DISTINCT sequence) "
                             "FROM tender.ledger")
    assert done.returncode == 0, done.stderr
    return rows, tuple(int(x) for x in done.stdout.strip().split("|"))


def one_round(world, daemons, alice, number, rng):
    """Pays KEYS_PER_ROUND keys from CLIENTS processes at once (every key through both daemons), kills one daemon with
    SIGKILL after the first acknowledgement and a random pause, starts it again; returns {key: jws} acknowledged."""
    client(daemons[(number + 1) % 2], alice, "setup")  # the account back to $1000
    entry = pwd.getpwnam(alice)
    env = {"PATH": os.environ["PATH"], "HOME": "/", "PYTHONPATH": PYTHONPATH, "TENDER_LIBRARY": LIBRARY}
    prefix = f"r{number}"
    processes = [subprocess.Popen(
        ["setpriv", f"--reuid={entry.pw_uid}", f"--regid={entry.pw_gid}", "--clear-groups", "--",
         sys.executable, CLIENT, daemons[index % 2].socket, "burst", "-", str(KEYS_PER_ROUND), prefix],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for index in range(CLIENTS)]
    acknowledged, cut, lock, first = [], [], threading.Lock(), threading.Event()

    def read(process):
        for line in process.stdout:
            if '"acknowledged"' in line:
                with lock:
                    acknowledged.append(json.loads(line))
                first.set()
            elif '"error"' in line:
                with lock:
                    cut.append(line)

    readers = [threading.Thread(target=read, args=(process,)) for process in processes]
    for reader in readers:
        reader.start()
    victim = rng.randrange(2)
    first.wait(timeout=ACK_TIMEOUT)
    time.sleep(rng.uniform(0, 0.4))
    daemons[victim].kill(signal.SIGKILL)
    for process in processes:
        try:
            process.wait(timeout=120)
        except subprocess.TimeoutExpired:
            process.kill()
    for reader in readers:
        reader.join(timeout=30)
    daemons[victim].start()
    seen = {}
    for answer in acknowledged:
        # Two daemons answering one key must answer the one record.
        assert seen.setdefault(answer["acknowledged"], answer["jws"]) == answer["jws"], f"key {answer['acknowledged']} answered twice differently"
    return seen, victim, len(cut)


def check(world, alice, acknowledged):
    rows, (count, last, distinct) = payments(world, alice)
    for key, jws in acknowledged.items():
        assert key in rows, f"acknowledged payment {key} is not in the ledger"
        assert len(rows[key]) == 1, f"payment {key} has {len(rows[key])} rows"
        stored, sealed = rows[key][0]
        # A record committed without its stored signature yet (the next write transaction stores it) holds its signing
        # input and a dot, sealed: Ed25519 is deterministic, so the JWS acknowledged is that input signed.
        expected = jws[:jws.rindex(".") + 1] if sealed else jws
        assert stored == expected, f"payment {key} is in the ledger with another JWS than the one acknowledged"
    assert all(len(found) == 1 for found in rows.values()), "a key has two rows"
    assert count == last == distinct, f"the chain is not one line: {count} rows, last sequence {last}, {distinct} distinct"
    assert len(acknowledged) <= len(rows), f"acknowledged {len(acknowledged)} > paid {len(rows)}"
    return len(rows), count


def verify_through(world, daemons, alice):
    for index, daemon in enumerate(daemons):
        checkpoint = client(daemon, alice, "checkpoint")["checkpoint"]
        path = os.path.join(world.base, f"checkpoint-{index}")
        with open(path, "w") as f:
            f.write(checkpoint)
        os.chmod(path, 0o644)
        for other in daemons:
            report = client(other, alice, "verify", path)["report"]
            assert report["valid"], report
            verified = as_user(alice, [TENDER, "verify", "--broker", other.socket, "--checkpoint", path])
            assert verified.returncode == 0 and "ledger valid" in verified.stdout, verified.stdout + verified.stderr


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args()
    if os.geteuid() != 0 or PGBIN is None:
        print("crash test on PostgreSQL skipped: it needs root and PostgreSQL's server (initdb, pg_ctl)")
        return 0
    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    rng = random.Random(seed)
    with Throwaway("tpk", ("d", "a", "p")) as world:
        names, cluster = world.names, world.cluster
        world.directories(("state", 0o700), ("run1", 0o755), ("run2", 0o755))
        with open(os.path.join(world.base, "policy.json"), "w") as f:
            json.dump({"store": cluster.uri(), "authentication": {"restrictedIntents": []}}, f)
        daemons = []
        for run in ("run1", "run2"):
            daemon = Daemon(world.base, names["d"])
            daemon.socket = os.path.join(world.base, run, "socket")
            daemons.append(world.started(daemon))
        alice = names["a"]
        acknowledged, kills, cut = {}, [0, 0], 0
        try:
            for number in range(args.rounds):
                answered, victim, interrupted = one_round(world, daemons, alice, number, rng)
                # A round in which nothing was acknowledged tested nothing (the clients broken, every payment refused):
                # it is a failure, not a pass.
                assert answered, f"round {number}: no payment was acknowledged, so the kill tested nothing"
                kills[victim] += 1
                cut += interrupted
                for key, jws in answered.items():
                    assert acknowledged.setdefault(key, jws) == jws, key
                paid, records = check(world, alice, acknowledged)
            verify_through(world, daemons, alice)
        except AssertionError as failure:
            print(f"crash test on PostgreSQL FAILED (seed {seed}): {failure}")
            return 1
        print(f"crash test on PostgreSQL: {args.rounds} rounds (seed {seed}), daemon 1 killed {kills[0]}, daemon 2 {kills[1]} times "
              f"with SIGKILL mid-payment ({cut} client dialogs cut short); {len(acknowledged)} payments acknowledged, {paid} in the ledger, once each, with the "
              f"JWS acknowledged; one chain of {records} records; verify passes through both daemons")
    return 0


if __name__ == "__main__":
    sys.exit(main())
