# SPDX-License-Identifier: Apache-2.0
"""tenderd on PostgreSQL (make test-postgres): a throwaway cluster (initdb into a temporary directory,
pg_ctl start on a Unix socket in it, stopped at the end) run by a throwaway user, and two tenderd
processes, as if on two machines, keeping every person's ledger in one database (`--store`).

Run as root: the cluster, the daemons and the clients are throwaway users (PostgreSQL refuses to run as
root), the daemon reaches the database by peer authentication (its role is its user name, no password).
Skips, saying why, without root, without PostgreSQL's server (initdb, pg_ctl) or without a build.
"""

import json
import os
import pwd
import secrets
import shutil
import signal
import subprocess
import sys
import threading

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "Tests"))
sys.path.insert(0, os.path.join(ROOT, "Tests", "broker"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_broker import CLIENT, LIBRARY, PAM_MATRIX, PYTHONPATH, SERVICE, TENDER, TENDERD, Daemon, as_user, write_pam_stack  # noqa: E402
from pg_cluster import PGBIN, run_as  # noqa: E402
from pg_world import Throwaway  # noqa: E402

pytestmark = [
    pytest.mark.skipif(os.geteuid() != 0, reason="the PostgreSQL tests run the cluster and tenderd as throwaway users: run them as root"),
    pytest.mark.skipif(PGBIN is None or not os.path.exists(os.path.join(PGBIN, "initdb")),
                       reason="PostgreSQL's server is not installed (apt-get install postgresql: scripts/ensure-deps.sh test)"),
    pytest.mark.skipif(not os.path.exists(PAM_MATRIX), reason=f"{PAM_MATRIX} is missing: apt-get install libpam-wrapper"),
    pytest.mark.skipif(shutil.which("setpriv") is None or shutil.which("useradd") is None, reason="setpriv and useradd are needed"),
    pytest.mark.skipif(not os.path.exists(TENDERD), reason="build/bin/tenderd is missing: make build"),
]


@pytest.fixture(scope="module")
def world():
    with Throwaway("tpg", ("d", "a", "b", "c", "p")) as throwaway:
        names, base, cluster = throwaway.names, throwaway.base, throwaway.cluster
        daemon_user = pwd.getpwnam(names["d"])
        pam = write_pam_stack(base, daemon_user.pw_gid, {names["a"]: "alice-Secret-1", names["b"]: "bob-Secret-2"})
        with open(os.path.join(base, "policy.json"), "w") as f:
            # Root restricts nothing, so many payments may run at once; a client asking for the password (its own
            # policy, which only tightens root's) gets PAM and the throttle, which tenderd keeps in the database.
            json.dump({"testing": True, "store": cluster.uri(), "authentication": {
                "service": SERVICE, "pamConfigDirectory": pam, "restrictedIntents": []}}, f)
        throwaway.directories(("state", 0o700), ("run1", 0o755), ("run2", 0o755))
        # Two daemons, one database; both read the signing keys from one state directory (docs/scale.md).
        daemons = []
        for run in ("run1", "run2"):
            daemon = Daemon(base, names["d"])
            daemon.socket = os.path.join(base, run, "socket")
            daemons.append(throwaway.started(daemon))
        yield {"base": base, "cluster": cluster, "daemons": daemons, "names": names, "alice": names["a"], "bob": names["b"], "carol": names["c"],
               "passwords": {names["a"]: "alice-Secret-1", names["b"]: "bob-Secret-2"}, "throwaway": throwaway}


def client(daemon, user, *args):
    done = as_user(user, [sys.executable, CLIENT, daemon.socket, *args])
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


@pytest.fixture(scope="module")
def alice(world):
    assert client(world["daemons"][0], world["alice"], "setup") == {"ok": True}
    return world["alice"]


def verify_on(world, daemon, user):
    """The engine's verify through `daemon`, against a checkpoint made through it: the report."""
    checkpoint = client(daemon, user, "checkpoint")["checkpoint"]
    path = os.path.join(world["base"], f"checkpoint-{user}")
    with open(path, "w") as f:
        f.write(checkpoint)
    os.chmod(path, 0o644)
    return client(daemon, user, "verify", path)["report"]


def ledger_rows(world, user):
    """(count, max sequence, distinct sequences, payments, distinct keys) of `user`'s rows, read as the daemon's role."""
    uid = pwd.getpwnam(user).pw_uid
    done = world["cluster"].sql(world["names"]["d"], f"SET tender.uid = '{uid}'; SELECT count(*), coalesce(max(sequence), 0), "
                                "count(DISTINCT sequence), count(*) FILTER (WHERE type = 'payment'), count(DISTINCT idempotency_key) "
                                "FROM tender.ledger")
    assert done.returncode == 0, done.stderr
    return tuple(int(x) for x in done.stdout.strip().split("|"))


def test_two_daemons_pay_each_key_once_and_keep_one_chain(world, alice):
    password = world["passwords"][alice]
    keys = [f"both-{i}" for i in range(6)]
    outcomes = {}

    def pay(index, key):
        outcomes[(index, key)] = client(world["daemons"][index % 2], alice, "pay", password, key)

    # Each key is asked twice at once, through each daemon: overlapping idempotency keys of one person.
    threads = [threading.Thread(target=pay, args=(i, key)) for key in keys for i in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for key in keys:
        first, second = outcomes[(0, key)], outcomes[(1, key)]
        assert first["code"] == second["code"] == "SUCCESS", (first, second)
        assert first["jws"] == second["jws"], key  # one record, answered to both
    for daemon in world["daemons"]:
        listed = client(daemon, alice, "payments")["keys"]
        assert sorted(k for k in listed if k.startswith("both-")) == keys
    count, last, distinct, payments, paid_keys = ledger_rows(world, alice)
    assert count == last == distinct and payments == paid_keys  # one line: 1..N, no fork, no key twice
    for daemon in world["daemons"]:
        report = verify_on(world, daemon, alice)
        assert report["valid"] and report["records"] == count, report


def test_another_person_sees_and_pays_only_from_their_own_rows(world, alice):
    bob = world["bob"]
    second = world["daemons"][1]
    assert client(second, bob, "payments") == {"keys": []}
    assert client(second, bob, "pay", "-", "bob-0")["code"] != "SUCCESS"  # no directory of his own yet
    assert client(second, bob, "setup") == {"ok": True}
    assert client(second, bob, "pay", world["passwords"][bob], "both-0")["code"] == "SUCCESS"  # Alice's key is not his
    assert client(world["daemons"][0], bob, "payments") == {"keys": ["both-0"]}
    # His balances entry, the testing-mode mark of root's test stack, his payment.
    assert verify_on(world, second, bob)["records"] == ledger_rows(world, bob)[0] == 3
    assert "both-0" in client(second, alice, "payments")["keys"]


def test_row_level_security_holds_the_daemons_own_role(world, alice):
    cluster, role = world["cluster"], world["names"]["d"]
    alice_uid, bob_uid = pwd.getpwnam(alice).pw_uid, pwd.getpwnam(world["bob"]).pw_uid
    # No person set: nothing is read.
    done = cluster.sql(role, "SELECT count(*) FROM tender.ledger")
    assert done.returncode != 0 and "tender.uid" in done.stderr
    # As Bob: none of Alice's rows, whatever the WHERE clause says, and none written in her name.
    done = cluster.sql(role, f"SET tender.uid = '{bob_uid}'; SELECT count(*) FROM tender.ledger WHERE uid = {alice_uid}")
    assert done.returncode == 0 and done.stdout.strip() == "0", done.stderr
    done = cluster.sql(role, f"SET tender.uid = '{bob_uid}'; INSERT INTO tender.settings (uid, key, value) VALUES ({alice_uid}, 'x', 'y')")
    assert done.returncode != 0 and "row-level security" in done.stderr
    done = cluster.sql(role, f"SET tender.uid = '{bob_uid}'; UPDATE tender.accounts SET balance_minor = 0 WHERE uid = {alice_uid}")
    assert done.returncode == 0 and ledger_rows(world, alice)[0] > 0
    # tenderd names the person per transaction on its pooled connections: once that transaction ends, the
    # connection reads nobody's rows (the setting falls back to empty, which is no uid).
    done = cluster.sql(role, f"BEGIN; SELECT set_config('tender.uid', '{alice_uid}', true); COMMIT; SELECT count(*) FROM tender.ledger")
    assert done.returncode != 0 and "bigint" in done.stderr, done.stdout + done.stderr
    # Turning row security off is refused to the role, not obeyed.
    done = cluster.sql(role, "SET row_security = off; SELECT count(*) FROM tender.ledger")
    assert done.returncode != 0 and "row-level security" in done.stderr


def test_sql_in_an_idempotency_key_is_data(world, alice):
    key = "x');DROP/**/TABLE/**/tender.ledger;--?$1\"ON/**/CONFLICT/**/(\"?"  # printable ASCII, no spaces: a valid key
    outcome = client(world["daemons"][1], alice, "pay", world["passwords"][alice], key)
    assert outcome["code"] == "SUCCESS", outcome
    assert key in client(world["daemons"][0], alice, "payments")["keys"]
    assert verify_on(world, world["daemons"][0], alice)["valid"]


def test_kill_9_of_either_daemon_mid_payment_loses_no_acknowledged_payment(world, alice):
    entry = pwd.getpwnam(alice)
    env = {"PATH": os.environ["PATH"], "HOME": "/", "PYTHONPATH": PYTHONPATH, "TENDER_LIBRARY": LIBRARY}
    bursts = [subprocess.Popen(
        ["setpriv", f"--reuid={entry.pw_uid}", f"--regid={entry.pw_gid}", "--clear-groups", "--",
         sys.executable, CLIENT, daemon.socket, "burst", world["passwords"][alice], "30", f"kill{index}"],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for index, daemon in enumerate(world["daemons"])]
    acknowledged = []
    # The two bursts pay at once, one through each daemon; each daemon is killed after its third acknowledgement.
    for index, burst in enumerate(bursts):
        seen = 0
        for line in burst.stdout:
            if "acknowledged" in line:
                acknowledged.append(json.loads(line)["acknowledged"])
                seen += 1
            if seen == 3:
                world["daemons"][index].kill(signal.SIGKILL)
                break
    for burst in bursts:
        rest, errors = burst.communicate(timeout=120)
        acknowledged += [json.loads(line)["acknowledged"] for line in rest.splitlines() if "acknowledged" in line]
    for daemon in world["daemons"]:
        daemon.start()
    assert len(acknowledged) >= 6
    for daemon in world["daemons"]:
        keys = client(daemon, alice, "payments")["keys"]
        assert all(keys.count(key) == 1 for key in acknowledged), acknowledged
    count, last, distinct, payments, paid_keys = ledger_rows(world, alice)
    assert count == last == distinct and payments == paid_keys
    report = verify_on(world, world["daemons"][1], alice)
    assert report["valid"] and report["records"] == count, report


def test_tender_verify_through_either_daemon(world, alice):
    for daemon in world["daemons"]:
        made = as_user(alice, [TENDER, "checkpoint", "--broker", daemon.socket])
        assert made.returncode == 0, made.stderr
        path = os.path.join(world["base"], "checkpoint-cli")
        with open(path, "w") as f:
            f.write(made.stdout)
        os.chmod(path, 0o644)
        verified = as_user(alice, [TENDER, "verify", "--broker", daemon.socket, "--checkpoint", path])
        assert verified.returncode == 0 and "ledger valid" in verified.stdout, verified.stdout + verified.stderr


def test_the_throttle_is_shared_by_both_daemons(world):
    bob = world["bob"]
    first, second = world["daemons"]
    # Bob's client asks for the password, with two free attempts and then 30 s.
    strict = json.dumps({"throttle": {"freeAttempts": 2, "baseDelaySeconds": 30, "maxDelaySeconds": 60}})
    assert client(first, bob, "pay", world["passwords"][bob], "t-0", strict)["code"] == "SUCCESS"
    # Two wrong attempts, one through each daemon; the next, right, through the first, is throttled.
    assert client(first, bob, "pay", "wrong", "t-1", strict)["code"] == "FAILURE_CREDENTIALS_UNVERIFIED"
    assert client(second, bob, "pay", "wrong", "t-2", strict)["code"] == "FAILURE_CREDENTIALS_UNVERIFIED"
    outcome = client(first, bob, "pay", world["passwords"][bob], "t-3", strict)
    assert outcome["code"] != "SUCCESS" and "throttled" in (outcome.get("denial") or ""), outcome


def test_an_unreachable_database_refuses_payments_and_half_does_nothing(world, alice):
    cluster, daemon = world["cluster"], world["daemons"][0]
    before = client(daemon, alice, "payments")["keys"]
    cluster.stop("immediate")
    try:
        outcome = client(daemon, alice, "pay", world["passwords"][alice], "while-down")
        assert outcome.get("error") == "StoreBusyError" and "cannot be reached" in outcome["message"], outcome
    finally:
        cluster.start()
    # The daemons connect again by themselves; the key was never paid, and is paid once now.
    assert client(daemon, alice, "payments")["keys"] == before
    assert client(daemon, alice, "pay", world["passwords"][alice], "while-down")["code"] == "SUCCESS"
    assert client(world["daemons"][1], alice, "payments")["keys"].count("while-down") == 1
    assert verify_on(world, world["daemons"][1], alice)["valid"]


def test_a_daemon_without_the_persons_key_cannot_sign(world, alice):
    # A third tenderd on the same database, with a state directory of its own: Alice's key is not there.
    base = world["base"]
    entry = pwd.getpwnam(world["names"]["d"])
    other = os.path.join(base, "other")
    for directory, mode in (("other", 0o755), ("other/state", 0o700), ("other/run", 0o755)):
        os.mkdir(os.path.join(base, directory), mode)
        os.chown(os.path.join(base, directory), entry.pw_uid, entry.pw_gid)
    shutil.copy(os.path.join(base, "policy.json"), os.path.join(other, "policy.json"))
    daemon = Daemon(other, world["names"]["d"])
    daemon.start()
    try:
        before = ledger_rows(world, alice)
        outcome = client(daemon, alice, "pay", world["passwords"][alice], "keyless")
        assert outcome.get("code") != "SUCCESS", outcome
        assert ledger_rows(world, alice) == before
        assert "keyless" not in client(world["daemons"][0], alice, "payments")["keys"]
    finally:
        daemon.kill(signal.SIGTERM)


def test_a_superuser_role_or_a_password_in_the_uri_is_refused(world):
    base, cluster = world["base"], world["cluster"]
    # The URI's password would be on the command line, readable by every local user: refused, and not repeated.
    done = subprocess.run([TENDERD, "--socket", os.path.join(base, "never"), "--state", os.path.join(base, "never-state"),
                           "--store", "postgresql://someone:Hunter2-Secret@localhost/tender"], capture_output=True, text=True, timeout=30)
    assert done.returncode == 2 and "password" in done.stderr and "Hunter2" not in done.stderr, done.stderr
    # A superuser role (the cluster's own user, by peer authentication) would see every person's rows: refused.
    user = world["names"]["p"]
    entry = pwd.getpwnam(user)
    su = os.path.join(base, "su")
    for directory, mode in (("su", 0o755), ("su/state", 0o700), ("su/run", 0o755)):
        os.mkdir(os.path.join(base, directory), mode)
        os.chown(os.path.join(base, directory), entry.pw_uid, entry.pw_gid)
    shutil.copy(os.path.join(base, "policy.json"), os.path.join(su, "policy.json"))
    os.chmod(os.path.join(base, "pam"), 0o755)
    daemon = Daemon(su, user)
    daemon.start()
    try:
        answer = client(daemon, world["alice"], "payments")
        assert answer.get("error") == "StoreError" and "superuser" in answer["message"], answer
    finally:
        daemon.kill(signal.SIGTERM)
        os.chmod(os.path.join(base, "pam"), 0o750)


def test_a_sqlite_state_migrates_into_postgresql_and_verifies(world):
    carol, base, user = world["carol"], world["base"], world["names"]["d"]
    entry = pwd.getpwnam(user)
    mig = os.path.join(base, "mig")
    for directory, mode in (("mig", 0o755), ("mig/state", 0o700), ("mig/run", 0o755)):
        os.mkdir(os.path.join(base, directory), mode)
        os.chown(os.path.join(base, directory), entry.pw_uid, entry.pw_gid)
    with open(os.path.join(base, "policy.json")) as f:
        policy = json.load(f)
    with open(os.path.join(mig, "policy.json"), "w") as f:
        json.dump({key: value for key, value in policy.items() if key != "store"}, f)  # SQLite files in the state directory
    daemon = Daemon(mig, user)
    daemon.start()
    assert client(daemon, carol, "setup") == {"ok": True}
    for key in ("m-1", "m-2", "m-3"):
        assert client(daemon, carol, "pay", "-", key)["code"] == "SUCCESS"
    checkpoint = client(daemon, carol, "checkpoint")["checkpoint"]
    daemon.kill(signal.SIGTERM)
    path = os.path.join(base, "checkpoint-migrated")
    with open(path, "w") as f:
        f.write(checkpoint)
    os.chmod(path, 0o644)
    state = os.path.join(mig, "state")
    migrate = [TENDERD, "--state", state, "--store", world["cluster"].uri(), "--migrate"]
    done = run_as(user, migrate)
    assert done.returncode == 0 and "migrated and verified, 5 records" in done.stderr, done.stderr
    # Moved once: a second run leaves the person's rows alone.
    again = run_as(user, migrate)
    assert again.returncode == 1 and "already holds rows (" in again.stderr, again.stderr
    # tenderd on PostgreSQL serves the same ledger: it verifies against the checkpoint made on SQLite, and pays on.
    with open(os.path.join(mig, "policy.json"), "w") as f:
        json.dump(policy, f)
    daemon = Daemon(mig, user)
    daemon.start()
    try:
        verified = as_user(carol, [TENDER, "verify", "--broker", daemon.socket, "--checkpoint", path])
        assert verified.returncode == 0 and "ledger valid: 5 records" in verified.stdout, verified.stdout + verified.stderr
        assert client(daemon, carol, "pay", "-", "m-4")["code"] == "SUCCESS"
        assert client(daemon, carol, "payments")["keys"] == ["m-1", "m-2", "m-3", "m-4"]
    finally:
        daemon.kill(signal.SIGTERM)


def test_connections_do_not_grow_with_the_people_served(world, alice):
    # Twelve more people, one after another, through the second daemon: its connections are a pool shared by
    # everyone (at most 16), not two per person held for good (which would be 24 here, and run out of
    # PostgreSQL's max_connections, 100 by default, at about 50 people per daemon).
    tag = secrets.token_hex(3)
    people = [f"tpgm{index}{tag}" for index in range(12)]
    try:
        for name in people:
            subprocess.run(["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", name], check=True)
            assert client(world["daemons"][1], name, "payments") == {"keys": []}
        done = world["cluster"].sql(world["names"]["p"], "SELECT count(*) FROM pg_stat_activity WHERE usename = "
                                    f"'{world['names']['d']}'", database="postgres")
        assert done.returncode == 0, done.stderr
        assert int(done.stdout.strip()) <= 2 * 16 and int(done.stdout.strip()) < len(people) * 2, done.stdout
    finally:
        for name in people:
            subprocess.run(["userdel", name], stderr=subprocess.DEVNULL)


def test_no_secret_of_the_uri_is_echoed_or_accepted(world):
    # libpq's parse errors quote the whole URI, or the part they could not read: tenderd's stderr (the journal) must not
    # repeat a password from a mistyped URI; a client key's passphrase (sslpassword) is a secret on the command line too.
    base = world["base"]
    for uri, secret in (("postgresql://someone:Hunter3-Secret@[::1/tender", "Hunter3"),
                        ("postgresql://someone:Hunter4%zz-Secret@localhost/tender", "Hunter4"),
                        ("postgresql:///tender?host=/nowhere&password=Hunter5%zz", "Hunter5"),
                        ("postgresql:///tender?host=/nowhere&sslpassword=Hunter6-Secret", "Hunter6")):
        # --migrate: a tenderd that accepted the URI would exit by itself (nothing to migrate), not serve.
        done = subprocess.run([TENDERD, "--state", os.path.join(base, "never-state"), "--store", uri, "--migrate"],
                              capture_output=True, text=True, timeout=30)
        assert done.returncode == 2 and secret not in done.stderr, (uri, done.returncode, done.stderr)
    assert "password" in done.stderr, done.stderr


@pytest.mark.parametrize("attribute", ["SUPERUSER", "BYPASSRLS"])
def test_a_role_given_superuser_or_bypassrls_after_connecting_reads_no_other_persons_rows(world, alice, attribute):
    # tenderd checked its role when it connected; a role made a superuser (or given BYPASSRLS) later, or a connection opened
    # again on a server where it is one, would show Bob every person's rows through the pooled connections.
    cluster, role, bob, first = world["cluster"], world["names"]["d"], world["bob"], world["daemons"][0]
    assert client(first, alice, "pay", world["passwords"][alice], f"bypass-{attribute}")["code"] == "SUCCESS"
    assert client(first, bob, "setup") == {"ok": True}
    assert f"bypass-{attribute}" not in client(first, bob, "payments")["keys"]  # the pool holds connections checked at connect
    done = cluster.sql(world["names"]["p"], f'ALTER ROLE "{role}" {attribute}', database="postgres")
    assert done.returncode == 0, done.stderr
    try:
        for daemon in world["daemons"]:
            answer = as_user(bob, [sys.executable, CLIENT, daemon.socket, "payments"])
            assert f"bypass-{attribute}" not in answer.stdout, answer.stdout
            assert "superuser" in answer.stdout, answer.stdout + answer.stderr
        # Connections opened again (the server cut them) while the role bypasses row security: still refused, every time.
        done = cluster.sql(world["names"]["p"], f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = '{role}'",
                           database="postgres")
        assert done.returncode == 0, done.stderr
        for _ in range(3):
            answer = as_user(bob, [sys.executable, CLIENT, first.socket, "payments"])
            assert f"bypass-{attribute}" not in answer.stdout, answer.stdout
    finally:
        done = cluster.sql(world["names"]["p"], f'ALTER ROLE "{role}" NO{attribute}', database="postgres")
        assert done.returncode == 0, done.stderr
    assert client(first, bob, "payments")["keys"] == [k for k in client(first, bob, "payments")["keys"] if not k.startswith("bypass-")]
    assert f"bypass-{attribute}" in client(world["daemons"][1], alice, "payments")["keys"]


@pytest.mark.parametrize("transport", ["tcp", "unix", "owned", "later", "peer"])
def test_an_impostor_server_is_never_handed_the_password(world, alice, transport):
    # A local user listens on the database's TCP port (the server is down, restarting, or elsewhere), or puts a socket
    # in a socket directory others may write (/tmp): without sslmode=verify-full, libpq sends the passfile's password in
    # clear to whoever asks for it, and would then take that impostor's answers (every person's rows, COMMIT OK for a
    # payment never kept). noticed.md: a socket directory an ordinary user owns ("owned"), or one that does not exist
    # yet when tenderd starts and is made by that user later ("later"), passed the check; a Unix socket now needs
    # requirepeer= naming the server's OS user, which libpq checks on every connection ("peer": the impostor's socket
    # in that user's directory is refused by libpq before anything is sent).
    import socket as sockets
    import struct
    base, role = world["base"], world["names"]["d"]
    entry = pwd.getpwnam(role)
    tcp = os.path.join(base, transport)
    for directory, mode in ((transport, 0o755), (f"{transport}/state", 0o700), (f"{transport}/run", 0o755)):
        os.mkdir(os.path.join(base, directory), mode)
        os.chown(os.path.join(base, directory), entry.pw_uid, entry.pw_gid)
    shared = os.path.join(tcp, "shared")
    peer = f"requirepeer={world['cluster'].user}&" if transport == "peer" else ""
    if transport == "tcp":
        listener = sockets.socket(sockets.AF_INET)
        listener.bind(("127.0.0.1", 0))
        port = listener.getsockname()[1]
        where = f"127.0.0.1:{port}/tender?sslmode=prefer&"
    else:
        listener = sockets.socket(sockets.AF_UNIX)
        port = 5432
        where = f"/tender?host={shared}&{peer}"

    def bind_socket():
        """The impostor's socket in `shared`: a directory every user may write (unix), or an ordinary user's (Alice's)."""
        owner = pwd.getpwnam(alice)
        os.mkdir(shared)
        if transport == "unix":
            os.chmod(shared, 0o1777)  # as /tmp
        else:
            os.chown(shared, owner.pw_uid, owner.pw_gid)  # 0755, Alice's
        listener.bind(os.path.join(shared, ".s.PGSQL.5432"))
        os.chmod(os.path.join(shared, ".s.PGSQL.5432"), 0o777)
        listener.listen(4)

    listener.settimeout(15)
    captured = []

    def impostor():
        try:
            while True:
                connection, _ = listener.accept()
                with connection:
                    connection.settimeout(5)
                    while True:
                        length, code = struct.unpack("!ii", connection.recv(8, sockets.MSG_WAITALL))
                        if code in (80877103, 80877104):  # SSLRequest, GSSENCRequest: "no"
                            connection.sendall(b"N")
                            continue
                        connection.recv(length - 8, sockets.MSG_WAITALL)
                        break
                    connection.sendall(b"R" + struct.pack("!ii", 8, 3))  # AuthenticationCleartextPassword
                    kind, length = struct.unpack("!ci", connection.recv(5, sockets.MSG_WAITALL))
                    captured.append(connection.recv(length - 4, sockets.MSG_WAITALL).decode(errors="replace"))
        except (OSError, struct.error):  # closed: libpq hung up (requirepeer), or the listener was closed
            return

    def listen():
        if transport == "tcp":
            listener.listen(4)
        else:
            bind_socket()
        threading.Thread(target=impostor, daemon=True).start()

    if transport != "later":
        listen()
    passfile = os.path.join(tcp, "pgpass")
    with open(passfile, "w") as f:
        f.write(f"*:*:*:*:Db-Secret-{port}\n")
    os.chmod(passfile, 0o600)
    os.chown(passfile, entry.pw_uid, entry.pw_gid)
    with open(os.path.join(base, "policy.json")) as f:
        policy = json.load(f)
    policy["store"] = f"postgresql://{where}user={role}&passfile={passfile}"
    with open(os.path.join(tcp, "policy.json"), "w") as f:
        json.dump(policy, f)
    daemon = Daemon(tcp, role)
    try:
        try:
            daemon.start()
        except AssertionError as refused:  # refused at start: the URI names the danger
            expected = {"tcp": "sslmode=verify-full", "unix": "writable by every user", "owned": "requirepeer=USER",
                        "later": "requirepeer=USER"}
            assert transport in expected and expected[transport] in str(refused), (transport, str(refused))
        else:
            if transport == "later":
                listen()  # made by Alice once tenderd runs
            answer = as_user(alice, [sys.executable, CLIENT, daemon.socket, "payments"])
            assert not any(f"Db-Secret-{port}" in text for text in captured), captured
            assert transport == "peer", f"tenderd started on {where}: {answer.stdout}"
            # libpq refused the impostor's socket (its peer is not the server's user) before sending anything.
            with open(os.path.join(tcp, "tenderd.log")) as f:
                said = answer.stdout + f.read()
            assert "requirepeer" in said, said
        assert not any(f"Db-Secret-{port}" in text for text in captured), captured
    finally:
        listener.close()
        if daemon.process and daemon.serving():
            daemon.kill(signal.SIGTERM)


def test_a_version_1_schema_gains_the_sealed_claims_columns(world, alice):
    # A database a tenderd made before claims were sealed (PostgreSQL schema 1, SQLite's 11): the next open adds
    # claims.seal_kid and claims.seal (schema 2), keeping every row, and payments go on.
    owner = world["names"]["d"]
    done = world["cluster"].sql(owner, "ALTER TABLE tender.claims DROP COLUMN seal_kid, DROP COLUMN seal; "
                                "DELETE FROM tender.tender_schema; INSERT INTO tender.tender_schema (version) VALUES (1)")
    assert done.returncode == 0, done.stderr
    before = ledger_rows(world, alice)
    daemon = world["daemons"][0]
    daemon.kill(signal.SIGTERM)
    daemon.start()
    outcome = client(daemon, alice, "pay", world["passwords"][alice], "after-schema-2")
    assert outcome["code"] == "SUCCESS", outcome
    done = world["cluster"].sql(owner, "SELECT max(version) FROM tender.tender_schema")
    assert done.returncode == 0 and done.stdout.strip() == "4", (done.stdout, done.stderr)  # 3: a key per machine; 4: person_only
    done = world["cluster"].sql(owner, "SELECT string_agg(column_name, ',' ORDER BY column_name) FROM information_schema.columns "
                                "WHERE table_schema = 'tender' AND table_name = 'claims' AND column_name IN ('seal_kid', 'seal')")
    assert done.returncode == 0 and done.stdout.strip() == "seal,seal_kid", (done.stdout, done.stderr)
    assert ledger_rows(world, alice)[3] == before[3] + 1  # one more payment, the rows kept


def test_every_transaction_opens_with_one_call_and_compiles_no_block(world, alice):
    # Each transaction of tenderd's is opened by BEGIN and one call of tender.open_person_v2 (the role check, the person,
    # the lock), or, for a quiet payment, of tender.pay_prepared_v4 (the same opening, then the payment), compiled once per
    # connection; an anonymous DO block, compiled by the server in every transaction, was a
    # third of its work for a payment. Read in the server's statement log.
    cluster, superuser = world["cluster"], world["names"]["p"]
    log = os.path.join(os.path.dirname(cluster.data), "log")
    done = cluster.sql(superuser, "ALTER SYSTEM SET log_statement = 'all'", database="postgres")
    assert done.returncode == 0, done.stderr
    cluster.sql(superuser, "SELECT pg_reload_conf()", database="postgres")
    start = os.path.getsize(log)
    try:
        assert client(world["daemons"][0], alice, "pay", world["passwords"][alice], "one-call")["code"] == "SUCCESS"
    finally:
        cluster.sql(superuser, "ALTER SYSTEM RESET log_statement", database="postgres")
        cluster.sql(superuser, "SELECT pg_reload_conf()", database="postgres")
    with open(log, "rb") as f:
        f.seek(start)
        text = f.read().decode("utf-8", "replace")
    begins = [line for line in text.splitlines() if ": BEGIN" in line and "statement:" not in line]
    opens = [line for line in text.splitlines() if "SELECT tender.open_person_v2(" in line]
    # The payment itself, quiet: BEGIN, one call of tender.pay_prepared_v4 (which opens as open_person_v2 does), COMMIT.
    pays = [line for line in text.splitlines() if "SELECT tender.pay_prepared_v4(" in line]
    assert "DO $$" not in text, [line for line in text.splitlines() if "DO $$" in line][:2]
    assert begins and len(opens) + len(pays) == len(begins), (len(begins), len(opens), len(pays))
    assert len(pays) == 1, pays


def test_a_head_moved_by_the_other_daemon_drops_the_record_signed_ahead_unseen(world, alice):
    # Adversarial review (adv-pg, a quiet submitter's record signed while its transaction's first round trip is at the
    # server): daemon 0 pays, so it knows the head it left; daemon 1 then moves the head (two payments) and pays a key
    # daemon 0 is asked next. Daemon 0's record, built and signed at the head it knew, must be dropped unseen: the key
    # already paid answers daemon 1's record (the same JWS), a new key is built again at the real head, and the chain
    # stays one line that verifies through both daemons.
    password = world["passwords"][alice]
    first, second = world["daemons"]
    assert client(first, alice, "pay", password, "stale-0")["code"] == "SUCCESS"
    for key in ("stale-1", "stale-2"):
        assert client(second, alice, "pay", password, key)["code"] == "SUCCESS"
    paid_by_second = client(second, alice, "pay", password, "stale-3")
    assert paid_by_second["code"] == "SUCCESS", paid_by_second
    again = client(first, alice, "pay", password, "stale-3")
    assert again.get("code") == "SUCCESS" and again["jws"] == paid_by_second["jws"], (again, paid_by_second)
    for key in ("stale-4", "stale-5"):  # the head moved again under daemon 0 between its two quiet payments
        assert client(second, alice, "pay", password, key + "-other")["code"] == "SUCCESS"
        assert client(first, alice, "pay", password, key)["code"] == "SUCCESS"
    count, last, distinct, payments, paid_keys = ledger_rows(world, alice)
    assert count == last == distinct and payments == paid_keys  # one line: 1..N, no fork, no key twice
    for daemon in world["daemons"]:
        listed = client(daemon, alice, "payments")["keys"]
        assert listed.count("stale-3") == 1 and {"stale-4", "stale-5"} <= set(listed), listed
        report = verify_on(world, daemon, alice)
        assert report["valid"] and report["records"] == count, report
