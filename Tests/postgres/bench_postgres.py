# SPDX-License-Identifier: Apache-2.0
"""Payments a second through tenderd, on SQLite and on PostgreSQL, from one and from eight client processes of
one person, and from eight people at once (the many-homes workload: one client process each), and a raw loop of the same kind of transaction through libpq on the same server (pgbench), from one run.

    python3 Tests/postgres/bench_postgres.py [--payments N]     (as root; make bench-postgres)

Each payment is a whole brokered dialog (a client process's engine says hello, resolves, confirms and handles
through tenderd: the Python binding and the socket are part of every figure, for both stores alike). The
throwaway cluster runs with fsync on, as a deployment would. Prints figures, ratios and the load average.
"""

import argparse
import json
import os
import pwd
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from pg_cluster import PGBIN, run_as  # noqa: E402
from pg_world import Throwaway  # noqa: E402
from test_postgres import CLIENT, LIBRARY, PYTHONPATH, TENDERD, Daemon  # noqa: E402


def setup(daemon, user):
    """The test directory again for `user`: their account back to $1000 (each payment is $5)."""
    entry = pwd.getpwnam(user)
    done = subprocess.run(["setpriv", f"--reuid={entry.pw_uid}", f"--regid={entry.pw_gid}", "--clear-groups", "--",
                           sys.executable, CLIENT, daemon.socket, "setup"],
                          env={"PATH": os.environ["PATH"], "HOME": "/", "PYTHONPATH": PYTHONPATH,
                               "TENDER_LIBRARY": LIBRARY}, capture_output=True, text=True)
    assert done.returncode == 0 and "ok" in done.stdout, done.stderr


def payers(daemon, users, count, processes, prefix):
    """`processes` clients paying `count` payments in all at once through `daemon`, client i as users[i % len(users)]:
    payments a second."""
    env = {"PATH": os.environ["PATH"], "HOME": "/", "PYTHONPATH": PYTHONPATH, "TENDER_LIBRARY": LIBRARY}
    each = count // processes
    start = time.monotonic()
    running = []
    for index in range(processes):
        entry = pwd.getpwnam(users[index % len(users)])
        running.append(subprocess.Popen(
            ["setpriv", f"--reuid={entry.pw_uid}", f"--regid={entry.pw_gid}", "--clear-groups", "--",
             sys.executable, CLIENT, daemon.socket, "burst", "-", str(each), f"{prefix}-{index}"],
            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
    paid = 0
    for process in running:
        out, err = process.communicate(timeout=600)
        paid += sum(1 for line in out.splitlines() if "acknowledged" in line)
        assert process.returncode == 0, err
    elapsed = time.monotonic() - start
    assert paid == each * processes, (paid, each * processes, [line for line in out.splitlines() if "acknowledged" not in line][:3])
    return paid / elapsed


def pgbench(cluster, user, clients, seconds=5, one_person=True):
    """Transactions a second of the same shape through libpq: lock the person, insert a ledger-sized row, update
    a balance, commit (pgbench, prepared statements); for one person (as the payments measured) or one per client."""
    script = os.path.join(os.path.dirname(cluster.data), "raw.sql")
    with open(script, "w") as f:
        person = "1" if one_person else "(:client_id + 1)"
        f.write(f"\\set p random(1, 1000000000)\nBEGIN;\nSELECT pg_advisory_xact_lock(1, {person});\n"
                "INSERT INTO raw (person, sequence, jws, hash) VALUES (:client_id, :p, repeat('x', 1500), repeat('h', 43));\n"
                f"UPDATE raw_balance SET balance = balance - 1 WHERE person = {person};\nCOMMIT;\n")
    os.chmod(script, 0o644)
    done = run_as(user, [os.path.join(PGBIN, "pgbench"), "-h", cluster.socket, "-n", "-M", "prepared", "-c", str(clients),
                         "-j", str(min(clients, 2)), "-T", str(seconds), "-f", script, "tender"])
    assert done.returncode == 0, done.stderr
    line = [line for line in done.stdout.splitlines() if line.startswith("tps")][0]
    return float(line.split("=")[1].split()[0])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--payments", type=int, default=160, help="payments per run, at most 200 ($5 each from $1000)")
    parser.add_argument("--store-payments", type=int, default=400, help="payments per row of tenderd --bench")
    args = parser.parse_args()
    if os.geteuid() != 0 or PGBIN is None:
        print("bench-postgres skipped: it needs root and PostgreSQL's server")
        return
    with Throwaway("tpb", ("d", "a", "p"), fsync=True) as world:
        names, cluster = world.names, world.cluster
        assert cluster.sql(names["d"], "CREATE TABLE raw (person int, sequence bigint, jws text, hash text, PRIMARY KEY (person, sequence)); "
                           "CREATE TABLE raw_balance (person int PRIMARY KEY, balance bigint); "
                           "INSERT INTO raw_balance SELECT g, 1000000000 FROM generate_series(1, 64) g").returncode == 0
        # The many-homes workload: eight people at once, each a client process of their own (a person is a uid).
        people = [world.user(f"tpbm{index}{world.tag}") for index in range(8)]
        results = {}
        for kind in ("sqlite", "postgresql"):
            home = world.directories((kind, 0o755), (f"{kind}/state", 0o700), (f"{kind}/run", 0o755))
            policy = {"authentication": {"restrictedIntents": []}}
            if kind == "postgresql":
                policy["store"] = cluster.uri()
            with open(os.path.join(home, "policy.json"), "w") as f:
                json.dump(policy, f)
            daemon = world.started(Daemon(home, names["d"]))
            setup(daemon, names["a"])
            payers(daemon, [names["a"]], 16, 1, f"{kind}-warm")
            for clients in (1, 8):
                setup(daemon, names["a"])
                results[(kind, clients)] = payers(daemon, [names["a"]], args.payments, clients, f"{kind}-{clients}")
            for person in people:
                setup(daemon, person)
            results[(kind, "people")] = payers(daemon, people, args.payments, len(people), f"{kind}-people")
        raw = {clients: pgbench(cluster, names["d"], clients) for clients in (1, 8)}
        raw["people"] = pgbench(cluster, names["d"], len(people), one_person=False)
        table = f"{'submitters':>18} {'SQLite pay/s':>13} {'PostgreSQL pay/s':>17} {'PG/SQLite':>10} {'raw libpq tx/s':>15} {'PG/raw':>7}\n"
        for clients in (1, 8, "people"):
            sqlite, postgres = results[("sqlite", clients)], results[("postgresql", clients)]
            label = f"{len(people)} people at once" if clients == "people" else f"{clients} (one person)"
            table += f"{label:>18} {sqlite:>13.1f} {postgres:>17.1f} {postgres / sqlite:>10.2f} {raw[clients]:>15.1f} {postgres / raw[clients]:>7.3f}\n"
        # The store itself, in tenderd's process (no client, no socket), against a raw libpq loop there: tenderd --bench.
        state = world.directories(("bench-state", 0o700))
        done = cluster.sql(names["p"], f'CREATE DATABASE tender_bench OWNER "{names["d"]}"', database="postgres")
        assert done.returncode == 0, done.stderr
        done = run_as(names["d"], [TENDERD, "--state", state, "--store", cluster.uri("tender_bench"), "--bench",
                                   "--payments", str(args.store_payments)])
        assert done.returncode == 0, done.stdout + done.stderr
        store_table = done.stdout
        print(f"load average: {open('/proc/loadavg').read().split()[:3]}")
        print("Whole brokered dialogs (a client process's engine through tenderd), SQLite and PostgreSQL, and pgbench:")
        print(table)
        print("The store alone (tenderd --bench):")
        print(store_table)
        print("raw libpq: pgbench, prepared: lock the person, insert a ledger-sized row, update a balance, commit; one person "
              "(the rows of one submitter count), or one person per client (the people's row)")

if __name__ == "__main__":
    main()
