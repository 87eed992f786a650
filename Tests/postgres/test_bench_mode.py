# SPDX-License-Identifier: Apache-2.0
"""`tenderd --bench` (make bench-postgres): it writes made-up people and drops its own schema, so it refuses a
database that holds tenderd's schema (a deployment's) and writes nothing there; on a database of its own it prints its
table and leaves no schema of its own behind. Root, a throwaway cluster (as Tests/postgres/test_postgres.py)."""

import json
import os
import signal
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from test_postgres import CLIENT, TENDERD, Daemon, as_user, pytestmark  # noqa: E402,F401
from pg_cluster import run_as  # noqa: E402
from pg_world import Throwaway  # noqa: E402


def test_the_bench_refuses_a_deployments_database_and_runs_on_its_own():
    with Throwaway("tpy", ("d", "a", "p")) as world:
        names, cluster = world.names, world.cluster
        home = world.directories(("served", 0o755), ("served/state", 0o700), ("served/run", 0o755))
        with open(os.path.join(home, "policy.json"), "w") as f:
            json.dump({"store": cluster.uri(), "authentication": {"restrictedIntents": []}}, f)
        daemon = world.started(Daemon(home, names["d"]))
        done = as_user(names["a"], [sys.executable, CLIENT, daemon.socket, "setup"])
        assert done.returncode == 0, done.stderr
        daemon.kill(signal.SIGTERM)
        state = world.directories(("bench-state", 0o700))
        # The deployment's database: refused before anything is written.
        done = run_as(names["d"], [TENDERD, "--state", state, "--store", cluster.uri(), "--bench", "--payments", "8"])
        assert done.returncode == 2 and "database of its own" in done.stderr, done.stderr
        done = cluster.sql(names["d"], "SELECT count(*) FROM pg_namespace WHERE nspname = 'tender_bench'")
        assert done.returncode == 0 and done.stdout.strip() == "0", done.stdout + done.stderr
        assert os.listdir(state) == []
        # A database of its own: the table, then no bench schema left.
        done = cluster.sql(names["p"], f'CREATE DATABASE tender_bench OWNER "{names["d"]}"', database="postgres")
        assert done.returncode == 0, done.stderr
        done = run_as(names["d"], [TENDERD, "--state", state, "--store", cluster.uri("tender_bench"), "--bench", "--payments", "16"])
        assert done.returncode == 0 and "store/raw" in done.stdout and "8 people at once" in done.stdout, done.stdout + done.stderr
        # Both raw yardsticks, and the store's round trips per payment: one submitter's payment waits for 1 (it waited for 9,
        # then 2).
        assert "raw payment tx/s" in done.stdout and "raw lock-insert-debit tx/s" in done.stdout, done.stdout
        one = [line.split() for line in done.stdout.splitlines() if line.strip().startswith("1 (one person)")][0]
        assert float(one[4]) <= 1.5, done.stdout
        # tenderd's context switches a payment, store and raw, from the same run: a quiet submitter pays on its own thread
        # (the group commit's leader is the caller, no signing worker, no pool wait), so it sleeps once a payment, for its one
        # round trip, where a hand-off to another thread and back would add two (the raw payment's two round trips: 2). The
        # counts take preemptions too, which a loaded machine adds to both sides alike: compared with the raw loop's, not 1.
        assert "switches/pay" in done.stdout and "raw switches/tx" in done.stdout, done.stdout
        assert float(one[-4]) <= float(one[-3]), done.stdout
        # The server's CPU a store payment and a raw payment transaction, from the same run (the throwaway cluster is this
        # machine's): whole microseconds, not skipped ("-"). (16 payments may take less than /proc's clock tick: 0 is possible.)
        assert "server CPU us/pay" in done.stdout and "raw server CPU us/tx" in done.stdout and "not measured" not in done.stdout, done.stdout
        for label in ("1 (one person)", "8 (one person)", "8 people at once"):
            row = [line.split() for line in done.stdout.splitlines() if line.strip().startswith(label)][0]
            assert row[-2].isdigit() and row[-1].isdigit(), (label, done.stdout)
        # Both payment yardsticks side by side (pg40): the raw payment as it was (unsigned) and with an Ed25519 signature a
        # transaction, as SQLite's raw payment rows sign theirs, each with its ratio, in the table and in the last line's JSON.
        assert "raw signed payment tx/s" in done.stdout and "store/signed raw" in done.stdout, done.stdout
        figures = json.loads(done.stdout.strip().splitlines()[-1])
        assert [row["submitters"] for row in figures["rows"]] == ["1 (one person)", "8 (one person)", "8 people at once"], figures
        for row in figures["rows"]:
            for name in ("raw_payment", "raw_signed_payment", "raw_lock_insert_debit"):
                assert row[f"{name}_per_s"] > 0, row
                # Each ratio is the store's rate over that yardstick's, from the same run (rounded to 3 decimals).
                assert abs(row[f"ratio_to_{name}"] - row["store_per_s"] / row[f"{name}_per_s"]) < 0.002 + 0.001 * row[f"ratio_to_{name}"], row
            # CPU a transaction, whole microseconds (16 payments are too few to compare the loops' CPU: their connections' setup
            # is in it).
            assert isinstance(row["raw_signed_payment_cpu_us_per_tx"], int) and row["raw_signed_payment_cpu_us_per_tx"] > 0, row
            assert isinstance(row["raw_signed_payment_server_cpu_us_per_tx"], int), row
        done = cluster.sql(names["d"], "SELECT count(*) FROM pg_namespace WHERE nspname = 'tender_bench'", database="tender_bench")
        assert done.returncode == 0 and done.stdout.strip() == "0", done.stdout + done.stderr
