# SPDX-License-Identifier: Apache-2.0
"""`tender migrate` (and `tenderd --migrate`, which it runs): tenderd's SQLite stores moved into PostgreSQL, verified
before and after; a person with anything in PostgreSQL already is left alone; a mistyped state directory or user is an
error that creates nothing; and the attacks on it: another user's state, a crafted state naming someone else's uid, a
symbolic link, a tampered ledger, a tenderd that others may change run by root.

Run as root (make test-postgres): a throwaway cluster and throwaway users, as Tests/postgres/test_postgres.py."""

import json
import os
import pwd
import shutil
import signal
import sqlite3
import stat
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from test_postgres import CLIENT, TENDER, TENDERD, Daemon, as_user, pytestmark  # noqa: E402,F401
from pg_cluster import run_as  # noqa: E402
from pg_world import Throwaway  # noqa: E402


@pytest.fixture(scope="module")
def world():
    # d: tenderd's user and role; a, b, c: people; x: Mallory, a local user with a database role of her own; p: the cluster.
    with Throwaway("tpm", ("d", "a", "b", "c", "x", "p")) as throwaway:
        names, cluster = throwaway.names, throwaway.cluster
        with open(os.path.join(throwaway.base, "policy.json"), "w") as f:
            json.dump({"authentication": {"restrictedIntents": []}}, f)
        os.chmod(os.path.join(throwaway.base, "policy.json"), 0o644)
        done = cluster.sql(names["p"], f'CREATE ROLE "{names["x"]}" LOGIN', database="postgres")
        assert done.returncode == 0, done.stderr
        # The schema exists (a first tenderd on PostgreSQL made it): Bob is served there once.
        home = throwaway.directories(("first", 0o755), ("first/state", 0o700), ("first/run", 0o755))
        policy(home, cluster.uri())
        daemon = throwaway.started(Daemon(home, names["d"]))
        assert client(daemon, names["b"], "payments") == {"keys": []}
        daemon.kill(signal.SIGTERM)
        yield throwaway


def policy(home, store=None):
    with open(os.path.join(home, "policy.json"), "w") as f:
        json.dump({"authentication": {"restrictedIntents": []}, **({"store": store} if store else {})}, f)


def client(daemon, user, *args):
    done = as_user(user, [sys.executable, CLIENT, daemon.socket, *args])
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


def sqlite_state(world, name, people, payments=2):
    """A tenderd state directory BASE/NAME/state on SQLite where each of `people` set up their directory and paid
    `payments` times; tenderd stopped. Returns (home, state, {person: checkpoint file})."""
    home = world.directories((name, 0o755), (f"{name}/state", 0o700), (f"{name}/run", 0o755))
    policy(home)
    daemon = world.started(Daemon(home, world.names["d"]))
    checkpoints = {}
    for person in people:
        assert client(daemon, person, "setup") == {"ok": True}
        for index in range(payments):
            assert client(daemon, person, "pay", "-", f"{name}-{index}")["code"] == "SUCCESS"
        path = os.path.join(home, f"checkpoint-{person}")
        with open(path, "w") as f:
            f.write(client(daemon, person, "checkpoint")["checkpoint"])
        os.chmod(path, 0o644)
        checkpoints[person] = path
    daemon.kill(signal.SIGTERM)
    return home, os.path.join(home, "state"), checkpoints


def rows_in_postgresql(world, user):
    """{table: rows} of `user` in the database, every table, read as tenderd's role."""
    uid = pwd.getpwnam(user).pw_uid if not str(user).isdigit() else int(user)
    tables = ["contacts", "handles", "accounts", "ledger", "signing_keys", "auth_throttle", "known_devices", "audit", "bill_payees",
              "bills", "vocabulary", "settings", "shortcuts", "resigned", "paid_parties", "claims"]
    query = " UNION ALL ".join(f"SELECT '{table}', count(*) FROM tender.{table}" for table in tables)
    done = world.cluster.sql(world.names["d"], f"SET tender.uid = '{uid}'; {query}")
    assert done.returncode == 0, done.stderr
    counts = dict(line.split("|") for line in done.stdout.splitlines() if line)
    return {table: int(count) for table, count in counts.items() if int(count)}


def migrate(world, *args, user=None, env=None):
    """`tender migrate --store URI ARGS...`, as root unless `user` is given."""
    argv = [TENDER, "migrate", "--store", world.cluster.uri(), *args]
    environment = env or {"PATH": os.environ["PATH"]}
    if user:
        return as_user(user, argv)
    return subprocess.run(argv, capture_output=True, text=True, timeout=120, env=environment)


def ledger_length(state, user):
    with sqlite3.connect(f"file:{os.path.join(state, str(pwd.getpwnam(user).pw_uid), 'tender.sqlite3')}?mode=ro", uri=True) as db:
        return db.execute("SELECT count(*) FROM ledger").fetchone()[0]


def test_tender_migrate_moves_one_user_verified_before_and_after(world):
    alice, carol = world.names["a"], world.names["c"]
    home, state, checkpoints = sqlite_state(world, "one", [alice, carol])
    length = ledger_length(state, alice)
    # Root runs it: tender runs tenderd's migration as the state directory's owner (tenderd's user, its database role).
    done = migrate(world, "--state", state, "--user", alice)
    assert done.returncode == 0, done.stdout + done.stderr
    uid = pwd.getpwnam(alice).pw_uid
    assert f"uid {uid}: migrated and verified, {length} records" in done.stderr, done.stderr
    assert rows_in_postgresql(world, alice)["ledger"] == length
    assert rows_in_postgresql(world, carol) == {}  # only the user named
    # tenderd on PostgreSQL, on the same state directory (the keys), serves the same ledger: it verifies against the
    # checkpoint made on SQLite, and pays on.
    policy(home, world.cluster.uri())
    daemon = world.started(Daemon(home, world.names["d"]))
    try:
        verified = as_user(alice, [TENDER, "verify", "--broker", daemon.socket, "--checkpoint", checkpoints[alice]])
        assert verified.returncode == 0 and f"ledger valid: {length} records" in verified.stdout, verified.stdout + verified.stderr
        assert client(daemon, alice, "pay", "-", "after")["code"] == "SUCCESS"
    finally:
        daemon.kill(signal.SIGTERM)
    # Everyone else (Carol) next; Alice, already there, is left alone and named.
    done = migrate(world, "--state", state)
    assert done.returncode == 1, done.stderr
    assert f"uid {pwd.getpwnam(carol).pw_uid}: migrated and verified" in done.stderr, done.stderr
    assert f"uid {uid}: not migrated" in done.stderr and "already holds rows (" in done.stderr, done.stderr
    assert rows_in_postgresql(world, alice)["ledger"] == length + 1


@pytest.mark.parametrize("table, row", [
    ("auth_throttle", "(\"user\", failures, next_allowed_ms) VALUES ('someone', 4, 9999999999999)"),
    ("audit", "(at_ms, \"user\", event, intent, detail) VALUES (1, 'someone', 'denied', 'send_payment', 'x')"),
    ("settings", "(key, value) VALUES ('signedIn', 'true')"),
])
def test_a_person_with_anything_in_postgresql_is_left_alone(world, table, row):
    # Not only a ledger: a throttle row (their failed attempts), an audit entry, a setting, made by a tenderd already
    # serving them on PostgreSQL, are theirs; a migration would replace them (the throttle reset to nothing).
    bob = world.names["b"]
    _, state, _ = sqlite_state(world, f"held-{table}", [bob], payments=1)
    uid = pwd.getpwnam(bob).pw_uid
    done = world.cluster.sql(world.names["d"], f"SET tender.uid = '{uid}'; DELETE FROM tender.{table}; INSERT INTO tender.{table} {row}")
    assert done.returncode == 0, done.stderr
    before = rows_in_postgresql(world, bob)
    done = migrate(world, "--state", state, "--user", bob)
    assert done.returncode == 1 and "already holds rows (" in done.stderr and table in done.stderr, done.stderr
    assert rows_in_postgresql(world, bob) == before
    done = world.cluster.sql(world.names["d"], f"SET tender.uid = '{uid}'; DELETE FROM tender.{table}")
    assert done.returncode == 0, done.stderr


def test_a_mistyped_state_directory_or_user_is_an_error_and_creates_nothing(world):
    base, role = world.base, world.names["d"]
    missing = os.path.join(base, "no-such-state")
    # tenderd itself, as its user: a state directory that is not there is not made (it used to be, and exit 0).
    done = run_as(role, [TENDERD, "--state", missing, "--store", world.cluster.uri(), "--migrate"])
    assert done.returncode != 0 and "no state directory" in done.stderr, done.stderr
    assert not os.path.exists(missing)
    done = migrate(world, "--state", missing)
    assert done.returncode != 0 and "no state directory" in done.stderr, done.stderr
    assert not os.path.exists(missing)
    # An empty state directory: nothing to move is an error, not a success.
    empty = world.directories(("empty-state", 0o700))
    done = migrate(world, "--state", empty)
    assert done.returncode == 1 and "nothing to migrate" in done.stderr, done.stderr
    # A user that does not exist, and one without a SQLite store there.
    _, state, _ = sqlite_state(world, "typo", [world.names["c"]], payments=1)
    done = migrate(world, "--state", state, "--user", "no-such-user-tpm")
    assert done.returncode != 0 and "there is no user" in done.stderr, done.stderr
    mallory = world.names["x"]
    done = migrate(world, "--state", state, "--user", mallory)
    assert done.returncode == 1 and "does not exist" in done.stderr, done.stderr
    assert rows_in_postgresql(world, mallory) == {}
    assert not os.path.exists(os.path.join(state, str(pwd.getpwnam(mallory).pw_uid)))
    # tenderd's own --user takes a uid only.
    done = run_as(role, [TENDERD, "--state", state, "--store", world.cluster.uri(), "--migrate", "--user", "alice"])
    assert done.returncode == 2 and "numeric uid" in done.stderr, done.stderr


def test_without_tenderd_tender_migrate_says_so(world):
    lonely = world.directories(("lonely", 0o755), owner="root")
    shutil.copy(TENDER, os.path.join(lonely, "tender"))
    done = subprocess.run([os.path.join(lonely, "tender"), "migrate", "--store", world.cluster.uri(), "--state", lonely],
                          capture_output=True, text=True, timeout=60, env={"PATH": "/nonexistent"})
    assert done.returncode != 0 and "no tenderd was found" in done.stderr and "--tenderd" in done.stderr, done.stderr


def test_a_user_cannot_migrate_tenderds_state(world):
    # Mallory runs tender migrate on tenderd's state directory: tenderd runs as her, who can neither own nor read it.
    alice, mallory = world.names["a"], world.names["x"]
    _, state, _ = sqlite_state(world, "theirs", [alice], payments=1)
    before = rows_in_postgresql(world, alice)
    done = migrate(world, "--state", state, "--user", alice, user=mallory)
    assert done.returncode != 0, done.stderr
    assert "state directory" in done.stderr, done.stderr
    assert rows_in_postgresql(world, alice) == before


def test_a_crafted_state_naming_another_persons_uid_cannot_write_their_rows(world):
    # Mallory makes a state directory of her own, with a home named after Alice's uid holding a store she made
    # (tender init), and migrates it under her own database role: the schema is tenderd's role's, so nothing is written.
    alice, mallory = world.names["a"], world.names["x"]
    mine = world.directories(("crafted", 0o755), ("crafted/state", 0o700), owner=mallory)
    uid = pwd.getpwnam(alice).pw_uid
    made = as_user(mallory, [TENDER, "init", "--home", os.path.join(mine, "state", str(uid))])
    assert made.returncode == 0, made.stdout + made.stderr
    before = rows_in_postgresql(world, alice)
    done = migrate(world, "--state", os.path.join(mine, "state"), "--user", alice, user=mallory)
    assert done.returncode != 0 and "not migrated" in done.stderr and "permission denied" in done.stderr, done.stderr
    assert rows_in_postgresql(world, alice) == before
    # Root running it on her directory runs tenderd as her (the directory's owner), not as root nor tenderd's user.
    done = migrate(world, "--state", os.path.join(mine, "state"), "--user", alice)
    assert done.returncode != 0 and "permission denied" in done.stderr, done.stderr
    assert rows_in_postgresql(world, alice) == before


def test_a_symbolic_link_is_not_followed(world):
    # A home in tenderd's state that is a link to another home (another person's store), and a state directory that is a
    # link: refused, nothing written.
    alice, carol = world.names["a"], world.names["c"]
    _, state, _ = sqlite_state(world, "linked", [alice], payments=1)
    carol_uid = pwd.getpwnam(carol).pw_uid
    link = os.path.join(state, str(carol_uid))
    os.symlink(os.path.join(state, str(pwd.getpwnam(alice).pw_uid)), link)
    os.lchown(link, pwd.getpwnam(world.names["d"]).pw_uid, -1)
    before = rows_in_postgresql(world, carol)
    done = migrate(world, "--state", state, "--user", carol)
    assert done.returncode == 1 and "not migrated" in done.stderr, done.stderr
    assert rows_in_postgresql(world, carol) == before
    os.unlink(link)
    state_link = os.path.join(world.base, "state-link")
    os.symlink(state, state_link)
    done = migrate(world, "--state", state_link, "--user", alice)
    assert done.returncode != 0 and "link" in done.stderr, done.stderr


def test_a_tampered_sqlite_ledger_is_not_migrated(world):
    # A ledger row changed in the SQLite file (an amount): its verification fails before anything is copied.
    bob = world.names["c"]
    _, state, _ = sqlite_state(world, "tampered", [bob], payments=2)
    path = os.path.join(state, str(pwd.getpwnam(bob).pw_uid), "tender.sqlite3")
    info = os.stat(path)
    with sqlite3.connect(path) as db:
        db.execute("UPDATE ledger SET amount_minor = amount_minor + 100 WHERE type = 'payment'")
    os.chown(path, info.st_uid, info.st_gid)
    for suffix in ("-wal", "-shm"):
        if os.path.exists(path + suffix):
            os.chown(path + suffix, info.st_uid, info.st_gid)
    before = rows_in_postgresql(world, bob)
    done = migrate(world, "--state", state, "--user", bob)
    assert done.returncode == 1 and "not migrated" in done.stderr, done.stderr
    assert rows_in_postgresql(world, bob) == before


def test_root_does_not_run_a_tenderd_others_may_change(world):
    # tender beside a "tenderd" that others may write (or that another user owns): root would run whatever was put there.
    base = world.directories(("planted", 0o755), owner="root")
    shutil.copy(TENDER, os.path.join(base, "tender"))
    marker = os.path.join(base, "ran")
    fake = os.path.join(base, "tenderd")
    with open(fake, "w") as f:
        f.write(f"#!/bin/sh\ntouch {marker}\n")
    os.chmod(fake, 0o777)
    os.chmod(fake, stat.S_IRWXU | stat.S_IRWXG | stat.S_IRWXO)
    done = subprocess.run([os.path.join(base, "tender"), "migrate", "--store", world.cluster.uri(), "--state", base],
                          capture_output=True, text=True, timeout=60, env={"PATH": "/nonexistent"})
    assert done.returncode != 0 and "other than root" in done.stderr, done.stderr
    os.chmod(fake, 0o755)
    os.chown(fake, pwd.getpwnam(world.names["x"]).pw_uid, -1)
    done = migrate(world, "--state", base, "--tenderd", fake)
    assert done.returncode != 0 and "other than root" in done.stderr, done.stderr
    assert not os.path.exists(marker)


def test_tender_itself_does_not_need_libpq(world):
    # tender runs tenderd's migration rather than linking libpq: the tool (and make demo, which builds it without
    # libpq-dev) needs no PostgreSQL client library.
    needed = subprocess.run(["readelf", "-d", TENDER], capture_output=True, text=True, timeout=60)
    assert needed.returncode == 0, needed.stderr
    assert "(NEEDED)" in needed.stdout and "libpq" not in needed.stdout, needed.stdout


def test_reading_a_postgresql_ledger_through_the_broker_writes_nothing_there(world):
    # verify, checkpoint-free listings and the ledger, asked by a person tenderd never served: answered from an empty
    # store, and not a row is written for them (nor for anyone else) in the database.
    home = os.path.join(world.base, "first")
    daemon = world.started(Daemon(home, world.names["d"]))
    newcomer = world.user(f"tpmn{world.tag}")
    try:
        everyone = {user: rows_in_postgresql(world, user) for user in (world.names["a"], world.names["b"], world.names["c"])}
        assert client(daemon, newcomer, "payments") == {"keys": []}
        assert client(daemon, newcomer, "ledger") == {"entries": 0}
        verified = as_user(newcomer, [TENDER, "verify", "--broker", daemon.socket])
        assert verified.returncode == 0 and "ledger valid: 0 records" in verified.stdout, verified.stdout + verified.stderr
        assert rows_in_postgresql(world, newcomer) == {}
        assert {user: rows_in_postgresql(world, user) for user in everyone} == everyone
    finally:
        daemon.kill(signal.SIGTERM)
