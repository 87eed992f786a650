# SPDX-License-Identifier: Apache-2.0
"""tenderd on PostgreSQL attacked where it meets the deployment (make test-postgres, docs/scale.md "Threat model"):
a connection service naming a server past the URI's checks, a schema `tender` made or changed by another role, and
the reuse budget across two daemons. A throwaway cluster and throwaway users, as test_postgres.py; run as root.
"""

import json
import os
import pwd
import signal
import subprocess
import sys
import time

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from test_postgres import pytestmark  # noqa: E402,F401  (the same skips)
from test_postgres import client  # noqa: E402
from test_broker import SERVICE, TENDERD, Daemon, write_pam_stack  # noqa: E402
from pg_world import Throwaway  # noqa: E402


@pytest.fixture(scope="module")
def world():
    with Throwaway("tps", ("d", "a", "p", "e")) as throwaway:
        names = throwaway.names
        done = throwaway.cluster.sql(names["p"], f'CREATE ROLE "{names["e"]}" NOLOGIN', database="postgres")
        assert done.returncode == 0, done.stderr
        daemon_user = pwd.getpwnam(names["d"])
        pam = write_pam_stack(throwaway.base, daemon_user.pw_gid, {names["a"]: "alice-Secret-1"})
        yield {"base": throwaway.base, "cluster": throwaway.cluster, "names": names, "alice": names["a"], "password": "alice-Secret-1",
               "pam": pam, "daemons": throwaway.daemons, "daemon_user": daemon_user}


def start_daemon(world, name, database="tender", authentication=None, state=None):
    """A tenderd of its own (BASE/NAME: policy, socket, state unless `state` is another's) on `database`."""
    base = os.path.join(world["base"], name)
    user = world["daemon_user"]
    os.mkdir(base, 0o755)
    for directory, mode in (("state", 0o700), ("run", 0o755)):
        os.mkdir(os.path.join(base, directory), mode)
        os.chown(os.path.join(base, directory), user.pw_uid, user.pw_gid)
    policy = {"testing": True, "store": world["cluster"].uri(database), "authentication": {
        "service": SERVICE, "pamConfigDirectory": world["pam"], "restrictedIntents": []}}
    if authentication:
        policy["authentication"].update(authentication)
    with open(os.path.join(base, "policy.json"), "w") as f:
        json.dump(policy, f)
    daemon = Daemon(base, world["names"]["d"])
    if state:
        daemon.state = state
    daemon.start()
    world["daemons"].append(daemon)
    return daemon


def superuser(world, statement, database):
    done = world["cluster"].sql(world["names"]["p"], statement, database=database)
    assert done.returncode == 0, done.stderr


def new_database(world, name):
    superuser(world, f'CREATE DATABASE {name} OWNER "{world["names"]["d"]}"', "postgres")


# --- a connection service (issue 35: service=/PGSERVICE named a TCP host past the sslmode check) ---

def run_tenderd(world, store, env=None):
    """tenderd started with `store` and `env`, as its user: (exit status or None while it still runs after 5 s, stderr)."""
    user = world["daemon_user"]
    state, run = os.path.join(world["base"], "svc-state"), os.path.join(world["base"], "svc-run")
    for directory in (state, run):
        if not os.path.exists(directory):
            os.mkdir(directory, 0o700)
            os.chown(directory, user.pw_uid, user.pw_gid)
    process = subprocess.Popen(
        ["setpriv", f"--reuid={user.pw_uid}", f"--regid={user.pw_gid}", "--clear-groups", "--", TENDERD, "--socket",
         os.path.join(run, "socket"), "--state", state, "--store", store],
        env={"PATH": os.environ["PATH"], **(env or {})}, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        _, err = process.communicate(timeout=5)
        return process.returncode, err
    except subprocess.TimeoutExpired:
        process.kill()
        _, err = process.communicate()
        return None, err

def paying_daemon(world, name, key):
    """A daemon on a new database of its own, `name`, where alice has set up and paid once under `key`."""
    new_database(world, name)
    daemon = start_daemon(world, name, database=name)
    assert client(daemon, world["alice"], "setup") == {"ok": True}
    assert client(daemon, world["alice"], "pay", world["password"], key)["code"] == "SUCCESS"
    return daemon


def hold_lock(world, database, key, seconds, role=None):
    """A psql session of the server's user (as `role` when given) holding tenderd's advisory lock on `key` (a person's
    uid; -1 is the migration's) in `database` for `seconds`: the process, to wait for."""
    from pg_cluster import PGBIN
    entry = pwd.getpwnam(world["names"]["p"])
    hold = (f'SET ROLE "{role}"; ' if role else "") + f"SELECT pg_advisory_lock({0x54454E44}, {key}), pg_sleep({seconds})"
    return subprocess.Popen(["setpriv", f"--reuid={entry.pw_uid}", f"--regid={entry.pw_gid}", "--clear-groups", "--",
                             os.path.join(PGBIN, "psql"), "-h", world["cluster"].socket, "-d", database, "-X", "-q", "-c", hold],
                            cwd="/", stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, text=True)



def assert_one_chain_that_verifies(world, daemon, person, database):
    """The ledger in `database` is one chain (its sequence numbers distinct and gapless) that verifies through `daemon`."""
    ledger = world["cluster"].sql(world["names"]["p"], "SELECT count(*), count(DISTINCT sequence), max(sequence) - min(sequence) + 1 "
                                  "FROM tender.ledger", database=database)
    assert ledger.returncode == 0, ledger.stderr
    count, distinct, span = ledger.stdout.strip().split("|")[:3]
    assert count == distinct == span, ledger.stdout
    path = os.path.join(world["base"], f"{database}-checkpoint")
    with open(path, "w") as f:
        f.write(client(daemon, person, "checkpoint")["checkpoint"])
    os.chmod(path, 0o644)
    report = client(daemon, person, "verify", path)["report"]
    assert report["valid"], report


def test_a_connection_service_cannot_name_a_server_past_the_checks(world):
    # The service file names a server over TCP with no certificate check: the password would go to whoever answers there.
    services = os.path.join(world["base"], "pg_service.conf")
    with open(services, "w") as f:
        f.write("[evil]\nhost=127.0.0.1\nport=1\nsslmode=disable\ndbname=tender\n")
    os.chmod(services, 0o644)
    for store, env in (("postgresql:///tender?service=evil", {"PGSERVICEFILE": services}),
                       ("postgresql:///tender", {"PGSERVICEFILE": services, "PGSERVICE": "evil"})):
        status, err = run_tenderd(world, store, env)
        assert status == 2 and "connection service" in err, (store, env, status, err)
    # libpq's environment defaults are checked as libpq reports them (PGHOST over TCP, PGSSLMODE too weak).
    status, err = run_tenderd(world, "postgresql:///tender", {"PGHOST": "127.0.0.1", "PGSSLMODE": "require"})
    assert status == 2 and "over TCP" in err, (status, err)


# --- a schema `tender` made or changed by another role ---

def test_a_schema_owned_by_another_role_is_refused(world):
    evil, role = world["names"]["e"], world["names"]["d"]
    new_database(world, "owned")
    # Another role made the schema first, and lets tenderd's role create its tables there: it would own them all.
    superuser(world, f'CREATE SCHEMA tender AUTHORIZATION "{evil}"; GRANT USAGE, CREATE ON SCHEMA tender TO "{role}"', "owned")
    daemon = start_daemon(world, "owned", database="owned")
    outcome = client(daemon, world["alice"], "setup")
    assert outcome.get("error") == "StoreError" and f"owned by the role {evil}" in outcome["message"], outcome
    done = world["cluster"].sql(world["names"]["p"], "SELECT count(*) FROM pg_tables WHERE schemaname = 'tender'", database="owned")
    assert done.stdout.strip() == "0", done.stdout  # nothing was made in it


def test_an_object_of_another_role_in_the_schema_is_refused(world):
    evil, role = world["names"]["e"], world["names"]["d"]
    daemon = paying_daemon(world, "planted", "before")
    # A function of another role's planted in the schema (a superuser's, or a role tenderd's granted CREATE).
    superuser(world, "CREATE FUNCTION tender.planted() RETURNS int LANGUAGE sql AS 'SELECT 1'; "
              f'ALTER FUNCTION tender.planted() OWNER TO "{evil}"', "planted")
    daemon.kill(signal.SIGTERM)
    daemon.start()
    outcome = client(daemon, world["alice"], "pay", world["password"], "after")
    assert outcome.get("error") == "StoreError" and f"function planted of the role {evil}" in outcome["message"], outcome
    superuser(world, "DROP FUNCTION tender.planted()", "planted")
    # tenderd's own role lets others create in its schema: refused as well.
    done = world["cluster"].sql(role, "GRANT CREATE ON SCHEMA tender TO PUBLIC", database="planted")
    assert done.returncode == 0, done.stderr
    daemon.kill(signal.SIGTERM)
    daemon.start()
    outcome = client(daemon, world["alice"], "pay", world["password"], "after")
    assert outcome.get("error") == "StoreError" and "privilege to create objects" in outcome["message"], outcome
    done = world["cluster"].sql(role, "REVOKE CREATE ON SCHEMA tender FROM PUBLIC", database="planted")
    assert done.returncode == 0, done.stderr
    daemon.kill(signal.SIGTERM)
    daemon.start()
    assert client(daemon, world["alice"], "pay", world["password"], "after")["code"] == "SUCCESS"


def test_a_trigger_rule_or_grant_of_another_role_on_tenderds_tables_is_refused(world):
    # Adversarial review: the check looked at the objects in the schema (relations, functions, types, operators) but not at
    # what hangs on tenderd's tables: a trigger whose function is another role's runs that role's code in every payment
    # transaction (here it copies each record out); a grant lets the role set tender.uid and read any person's rows.
    evil, role, alice = world["names"]["e"], world["names"]["d"], world["alice"]
    daemon = paying_daemon(world, "hooked", "before")
    superuser(world, f'CREATE SCHEMA evil AUTHORIZATION "{evil}"; CREATE TABLE evil.loot (jws text); '
              f'ALTER TABLE evil.loot OWNER TO "{evil}"; '
              "CREATE FUNCTION evil.spy() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog AS "
              "$$BEGIN INSERT INTO evil.loot VALUES (NEW.jws); RETURN NEW; END$$; "
              f'ALTER FUNCTION evil.spy() OWNER TO "{evil}"; GRANT USAGE ON SCHEMA evil TO "{role}"; '
              "CREATE TRIGGER spy BEFORE INSERT ON tender.ledger FOR EACH ROW EXECUTE FUNCTION evil.spy()", "hooked")
    daemon.kill(signal.SIGTERM)
    daemon.start()
    outcome = client(daemon, alice, "pay", world["password"], "hooked")
    loot = world["cluster"].sql(world["names"]["p"], "SELECT count(*) FROM evil.loot", database="hooked")
    assert loot.stdout.strip() == "0", ("another role's trigger copied records out", loot.stdout, outcome)
    assert outcome.get("error") == "StoreError" and "trigger spy on ledger" in outcome["message"], outcome
    superuser(world, "DROP TRIGGER spy ON tender.ledger", "hooked")
    # A grant on a table of tenderd's: the role could set tender.uid and read every person's rows.
    superuser(world, f'GRANT SELECT ON tender.ledger TO "{evil}"', "hooked")
    daemon.kill(signal.SIGTERM)
    daemon.start()
    outcome = client(daemon, alice, "pay", world["password"], "granted")
    assert outcome.get("error") == "StoreError" and f"privilege SELECT on ledger of the role {evil}" in outcome["message"], outcome
    superuser(world, f'REVOKE SELECT ON tender.ledger FROM "{evil}"', "hooked")
    daemon.kill(signal.SIGTERM)
    daemon.start()
    assert client(daemon, alice, "pay", world["password"], "after")["code"] == "SUCCESS"


def test_a_search_path_set_by_the_databases_owner_runs_nothing_of_theirs(world):
    # Adversarial review: a database owned by another role (tenderd's role given CONNECT and CREATE in it), whose owner
    # sets the database's search_path to a schema of theirs before pg_catalog. tenderd's first statements on a connection
    # (the role check, set_config) ran before it fixed its search path, so they resolved the owner's set_config: their
    # code ran as tenderd's role (the owner of every person's rows) on every connection.
    evil, role, alice = world["names"]["e"], world["names"]["d"], world["alice"]
    superuser(world, f'CREATE DATABASE trapped OWNER "{evil}"', "postgres")
    superuser(world, f'GRANT CONNECT, CREATE ON DATABASE trapped TO "{role}"', "postgres")
    # What the database's owner may do in their own database (done here as the superuser, on their behalf).
    superuser(world, f'CREATE SCHEMA trap AUTHORIZATION "{evil}"; CREATE TABLE trap.loot (who text); '
              f'ALTER TABLE trap.loot OWNER TO "{evil}"; GRANT INSERT ON trap.loot TO PUBLIC; GRANT USAGE ON SCHEMA trap TO PUBLIC; '
              "CREATE FUNCTION trap.set_config(text, text, boolean) RETURNS text LANGUAGE sql AS "
              "$$INSERT INTO trap.loot VALUES (current_user); SELECT pg_catalog.set_config($1, $2, $3)$$; "
              f'ALTER FUNCTION trap.set_config(text, text, boolean) OWNER TO "{evil}"; '
              "ALTER DATABASE trapped SET search_path = trap, pg_catalog", "trapped")
    daemon = start_daemon(world, "trapped", database="trapped")
    assert client(daemon, alice, "setup") == {"ok": True}
    outcome = client(daemon, alice, "pay", world["password"], "trapped")
    loot = world["cluster"].sql(world["names"]["p"], "SELECT count(*) FROM trap.loot", database="trapped")
    assert loot.stdout.strip() == "0", ("the database owner's set_config ran as tenderd's role", loot.stdout)
    assert outcome["code"] == "SUCCESS", outcome


# --- the reuse budget, shared by every daemon (issue 35: it was each daemon's own) ---

def test_the_reuse_budget_is_one_across_daemons(world):
    new_database(world, "reuse")
    reuse = {"restrictedIntents": ["send_payment"], "reuseSeconds": 120, "reuseCount": 2}
    first = start_daemon(world, "reuse1", database="reuse", authentication=reuse)
    second = start_daemon(world, "reuse2", database="reuse", authentication=reuse, state=first.state)
    alice, password = world["alice"], world["password"]
    assert client(first, alice, "setup") == {"ok": True}
    # Authenticated through the first daemon: a budget of $5 over 2 payments.
    assert client(first, alice, "pay", password, "r-0")["code"] == "SUCCESS"
    # Through the second, no password given ("-" cancels any question): the budget covers it, as on one machine.
    outcome = client(second, alice, "pay", "-", "r-1")
    assert outcome["code"] == "SUCCESS", outcome
    # The $5 are spent: through the first daemon, whose own memory would still hold them, the next payment asks again.
    outcome = client(first, alice, "pay", "-", "r-2")
    assert outcome["code"] != "SUCCESS" and "cancel" in (outcome.get("denial") or "").lower(), outcome
    # The audit says which: one authenticated, one reused, one cancelled.
    done = world["cluster"].sql(world["names"]["d"], f"SET tender.uid = '{pwd.getpwnam(alice).pw_uid}'; "
                                "SELECT string_agg(event, ',' ORDER BY id) FROM tender.audit WHERE event IN ('authenticated', 'reused', 'denied')",
                                database="reuse")
    assert done.returncode == 0 and done.stdout.strip() == "authenticated,reused,denied", (done.stdout, done.stderr)


def test_the_shared_budget_fails_closed_when_its_table_is_unusable(world):
    reuse = {"restrictedIntents": ["send_payment"], "reuseSeconds": 120, "reuseCount": 2}
    first = [d for d in world["daemons"] if d.base.endswith("reuse1")][0]
    alice, password = world["alice"], world["password"]
    assert client(first, alice, "pay", password, "f-0", json.dumps(reuse))["code"] == "SUCCESS"
    # The budgets' table taken away by someone with the daemons' role: nothing is reused, the password is asked.
    done = world["cluster"].sql(world["names"]["d"], "ALTER TABLE tender.reuse_grants RENAME TO gone", database="reuse")
    assert done.returncode == 0, done.stderr
    try:
        outcome = client(first, alice, "pay", "-", "f-1", json.dumps(reuse))
        assert outcome["code"] != "SUCCESS", outcome
        assert client(first, alice, "pay", password, "f-2", json.dumps(reuse))["code"] == "SUCCESS"
    finally:
        world["cluster"].sql(world["names"]["d"], "ALTER TABLE tender.gone RENAME TO reuse_grants", database="reuse")


def test_the_shared_budget_is_spent_once_when_daemons_race(world):
    # Adversarial review: one authentication ($5, the budget), then six payments of $5 without the password at once
    # through two daemons: the budget covers one of them, as on one machine, never one per daemon.
    from concurrent.futures import ThreadPoolExecutor
    new_database(world, "race")
    reuse = {"restrictedIntents": ["send_payment"], "reuseSeconds": 120, "reuseCount": 5}
    first = start_daemon(world, "race1", database="race", authentication=reuse)
    second = start_daemon(world, "race2", database="race", authentication=reuse, state=first.state)
    alice, password = world["alice"], world["password"]
    assert client(first, alice, "setup") == {"ok": True}
    assert client(first, alice, "pay", password, "race-0")["code"] == "SUCCESS"
    with ThreadPoolExecutor(max_workers=6) as pool:
        outcomes = list(pool.map(lambda i: client((first, second)[i % 2], alice, "pay", "-", f"race-{i + 1}"), range(6)))
    paid = [outcome for outcome in outcomes if outcome.get("code") == "SUCCESS"]
    assert len(paid) == 1, outcomes


def test_no_claim_is_ever_made_through_tenderd(world):
    # Claim liveness (issue 35) is machine-local (boot id, pid, start time): safe only while no tenderd makes claims. A
    # brokered engine has no host that moves money (tender_engine_new_with_host is refused over the broker), so the
    # claims table stays empty whatever is paid; should tenderd ever call a host, its claims' liveness must move into the
    # database first (docs/scale.md).
    uid = pwd.getpwnam(world["alice"]).pw_uid
    for database in ("reuse", "planted"):
        done = world["cluster"].sql(world["names"]["d"], f"SET tender.uid = '{uid}'; SELECT count(*) FROM tender.claims", database=database)
        assert done.returncode == 0 and done.stdout.strip() == "0", (done.stdout, done.stderr)


# --- the function tenderd's transactions open with (tender.open_person_v2) ---

def test_the_opening_function_is_tenderds_alone_and_a_grant_of_it_is_refused(world):
    evil, role = world["names"]["e"], world["names"]["d"]
    daemon = paying_daemon(world, "opening", "opened")
    # tenderd made it: its role's, running with its caller's rights, EXECUTE for its owner alone.
    done = world["cluster"].sql(world["names"]["p"], "SELECT pg_get_userbyid(proowner), prosecdef, "
                                "(SELECT string_agg(CASE WHEN grantee = 0 THEN 'PUBLIC' ELSE pg_get_userbyid(grantee) END, ',') "
                                "FROM aclexplode(coalesce(proacl, acldefault('f', proowner)))) FROM pg_proc "
                                "WHERE oid = 'tender.open_person_v2(bigint, boolean, integer, integer)'::regprocedure", database="opening")
    assert done.returncode == 0 and done.stdout.strip() == f"{role}|f|{role}", done.stdout + done.stderr
    # Another role cannot call it to name a person or take a person's lock: no use of the schema, no EXECUTE, even
    # once the schema's owner lets it use the schema.
    call = f'SET ROLE "{evil}"; SELECT tender.open_person_v2(1, false, 1, 1)'
    done = world["cluster"].sql(world["names"]["p"], call, database="opening")
    assert done.returncode != 0 and "permission denied for schema tender" in done.stderr, done.stderr
    done = world["cluster"].sql(role, f'GRANT USAGE ON SCHEMA tender TO "{evil}"', database="opening")
    assert done.returncode == 0, done.stderr
    done = world["cluster"].sql(world["names"]["p"], call, database="opening")
    assert done.returncode != 0 and "permission denied for function open_person_v2" in done.stderr, done.stderr
    # A grant of it (by tenderd's own role, or a superuser) is refused at the next open, as a grant on a table is.
    done = world["cluster"].sql(role, f'REVOKE USAGE ON SCHEMA tender FROM "{evil}"; '
                                "GRANT EXECUTE ON FUNCTION tender.open_person_v2(bigint, boolean, integer, integer) TO PUBLIC",
                                database="opening")
    assert done.returncode == 0, done.stderr
    daemon.kill(signal.SIGTERM)
    daemon.start()
    outcome = client(daemon, world["alice"], "pay", world["password"], "granted")
    assert outcome.get("error") == "StoreError" and "privilege EXECUTE on the function open_person_v2 of the role PUBLIC" in outcome["message"], outcome
    done = world["cluster"].sql(role, "REVOKE EXECUTE ON FUNCTION tender.open_person_v2(bigint, boolean, integer, integer) FROM PUBLIC",
                                database="opening")
    assert done.returncode == 0, done.stderr
    daemon.kill(signal.SIGTERM)
    daemon.start()
    assert client(daemon, world["alice"], "pay", world["password"], "revoked")["code"] == "SUCCESS"


def test_a_dropped_opening_function_fails_one_transaction_cleanly_and_is_made_again(world):
    role = world["names"]["d"]
    daemon = paying_daemon(world, "dropped", "first")
    function = "tender.open_person_v2(bigint, boolean, integer, integer)"
    # Dropped under a running daemon: the transaction that finds it missing fails with the server's error, nothing of it
    # kept; the daemon's next transactions open without it.
    assert world["cluster"].sql(role, f"DROP FUNCTION {function}", database="dropped").returncode == 0
    outcome = client(daemon, world["alice"], "pay", world["password"], "while-dropped")
    keys = client(daemon, world["alice"], "payments")["keys"]
    assert ("while-dropped" in keys) == (outcome.get("code") == "SUCCESS"), (outcome, keys)
    assert client(daemon, world["alice"], "pay", world["password"], "after-drop")["code"] == "SUCCESS"
    # The next start's migration makes it again.
    daemon.kill(signal.SIGTERM)
    daemon.start()
    assert client(daemon, world["alice"], "pay", world["password"], "second")["code"] == "SUCCESS"
    done = world["cluster"].sql(role, f"SELECT to_regprocedure('{function}') IS NOT NULL", database="dropped")
    assert done.stdout.strip() == "t", done.stdout + done.stderr


# --- session settings the database's (or role's) owner may set (ALTER DATABASE ... SET): read and kept as tenderd needs ---

def test_bytea_output_set_by_the_databases_owner_still_reads_a_payments_fingerprint(world):
    # Adversarial review (pgspeed): the database's owner sets bytea_output = 'escape' for the database. tenderd read every
    # bytea (a payment's fingerprint, a key's public key) as hex only, so the fingerprint read back was empty: the same
    # payment asked again under its idempotency key (a retry after a lost answer) was answered TENDER_E_LEDGER_TAMPERED
    # ("its signed payload does not carry the fingerprint its row keeps") for a ledger nobody had touched.
    alice = world["alice"]
    new_database(world, "escaped")
    superuser(world, "ALTER DATABASE escaped SET bytea_output = 'escape'", "postgres")
    daemon = start_daemon(world, "escaped", database="escaped")
    assert client(daemon, alice, "setup") == {"ok": True}
    first = client(daemon, alice, "pay", world["password"], "escaped")
    again = client(daemon, alice, "pay", world["password"], "escaped")
    assert first.get("code") == again.get("code") == "SUCCESS", (first, again)
    assert first["jws"] == again["jws"]


def test_synchronous_commit_off_set_by_the_databases_owner_loses_no_acknowledged_payment(world):
    # Adversarial review (pgspeed): the database's owner sets synchronous_commit = off for the database. tenderd's payments
    # then committed without waiting for their WAL: acknowledged, and lost when the server crashed within the WAL
    # writer's delay. tenderd's session turns an inherited `off` back on (its lazy writes stay lazy, by their own choice).
    alice = world["alice"]
    new_database(world, "hurried")
    superuser(world, "ALTER DATABASE hurried SET synchronous_commit = off", "postgres")
    superuser(world, "ALTER SYSTEM SET wal_writer_delay = '10s'", "postgres")
    superuser(world, "SELECT pg_reload_conf()", "postgres")
    try:
        daemon = start_daemon(world, "hurried", database="hurried")
        assert client(daemon, alice, "setup") == {"ok": True}
        time.sleep(1)
        acknowledged = []
        for index in range(4):
            outcome = client(daemon, alice, "pay", world["password"], f"hurried-{index}")
            assert outcome["code"] == "SUCCESS", outcome
            acknowledged.append(f"hurried-{index}")
        world["cluster"].stop("immediate")
        world["cluster"].start()
        kept = world["cluster"].sql(world["names"]["p"], "SELECT idempotency_key FROM tender.ledger WHERE idempotency_key IS NOT NULL",
                                    database="hurried")
        assert kept.returncode == 0, kept.stderr
        assert sorted(kept.stdout.split()) == acknowledged, ("acknowledged payments lost in the server's crash", kept.stdout)
    finally:
        superuser(world, "ALTER SYSTEM RESET wal_writer_delay", "postgres")
        superuser(world, "SELECT pg_reload_conf()", "postgres")


def test_a_default_isolation_set_by_the_databases_owner_still_finds_what_the_lock_holder_committed(world):
    # Adversarial review (pgspeed): the database's owner sets default_transaction_isolation = 'repeatable read'. A write
    # transaction took its snapshot with its first statement, the call that then waits for the person's lock: once the
    # holder committed (the same payment's claim, through the other daemon) the waiter did not see it, and the payment
    # asked through both daemons at once failed on one (SQLSTATE 40001) where it should be answered with the one record.
    from concurrent.futures import ThreadPoolExecutor
    new_database(world, "isolated")
    superuser(world, "ALTER DATABASE isolated SET default_transaction_isolation = 'repeatable read'", "postgres")
    first = start_daemon(world, "isolated1", database="isolated")
    second = start_daemon(world, "isolated2", database="isolated", state=first.state)
    alice, password = world["alice"], world["password"]
    assert client(first, alice, "setup") == {"ok": True}
    assert client(second, alice, "pay", password, "isolated-0")["code"] == "SUCCESS"
    # The person's lock held a moment (as a third daemon's payment would), so both daemons' transactions wait for it.
    holder = hold_lock(world, "isolated", pwd.getpwnam(alice).pw_uid, seconds=4)
    try:
        time.sleep(0.5)
        with ThreadPoolExecutor(max_workers=2) as pool:
            outcomes = list(pool.map(lambda daemon: client(daemon, alice, "pay", password, "isolated-1"), (first, second)))
    finally:
        holder.wait(timeout=30)
    assert [outcome.get("code") for outcome in outcomes] == ["SUCCESS", "SUCCESS"], outcomes
    assert outcomes[0]["jws"] == outcomes[1]["jws"]
    keys = client(first, alice, "payments")["keys"]
    assert sorted(keys) == ["isolated-0", "isolated-1"], keys


def test_a_read_only_default_set_by_the_databases_owner_does_not_stop_payments(world):
    # Adversarial review (pgspeed): default_transaction_read_only = on for the database made every write transaction of
    # tenderd's fail (its schema's migration first); tenderd's writes begin READ WRITE, as they begin READ COMMITTED.
    new_database(world, "readonly")
    superuser(world, "ALTER DATABASE readonly SET default_transaction_read_only = on", "postgres")
    daemon = start_daemon(world, "readonly", database="readonly")
    assert client(daemon, world["alice"], "setup") == {"ok": True}
    outcome = client(daemon, world["alice"], "pay", world["password"], "readonly")
    assert outcome.get("code") == "SUCCESS", outcome


def test_another_role_can_neither_replace_nor_shadow_the_opening_function(world):
    # Adversarial review (pgspeed): another role, the database's owner with its search path set to a schema of theirs,
    # tries to run its code in place of tender.open_person_v2 (one that names a person but skips the lock would fork a
    # chain): CREATE OR REPLACE, ALTER (owner, SECURITY DEFINER, a SET), DROP, and an overload taking the call's
    # literal types exactly (integer where the function takes bigint) on its search path. None is possible or called.
    evil, role, alice = world["names"]["e"], world["names"]["d"], world["alice"]
    superuser(world, f'CREATE DATABASE shadowed OWNER "{evil}"', "postgres")
    superuser(world, f'GRANT CONNECT, CREATE ON DATABASE shadowed TO "{role}"', "postgres")
    daemon = start_daemon(world, "shadowed", database="shadowed")
    assert client(daemon, alice, "setup") == {"ok": True}
    assert client(daemon, alice, "pay", world["password"], "shadowed-0")["code"] == "SUCCESS"
    # The owner's schema on the database's search path, with an overload of theirs that records being called.
    superuser(world, f'CREATE SCHEMA trap AUTHORIZATION "{evil}"; CREATE TABLE trap.loot (who text); '
              f'ALTER TABLE trap.loot OWNER TO "{evil}"; GRANT INSERT ON trap.loot TO PUBLIC; GRANT USAGE ON SCHEMA trap TO PUBLIC; '
              "CREATE FUNCTION trap.open_person_v2(integer, boolean, integer, integer) RETURNS void LANGUAGE sql AS "
              "$$INSERT INTO trap.loot VALUES (current_user); SELECT pg_catalog.set_config('tender.uid', $1::text, true)$$; "
              f'ALTER FUNCTION trap.open_person_v2(integer, boolean, integer, integer) OWNER TO "{evil}"; '
              "ALTER DATABASE shadowed SET search_path = trap, tender, pg_catalog", "shadowed")
    function = "tender.open_person_v2(bigint, boolean, integer, integer)"
    superuser(world, f'GRANT USAGE ON SCHEMA tender TO "{evil}"', "shadowed")  # the most tenderd's role might give it
    try:
        for attempt, refusal in (
            (f"CREATE OR REPLACE FUNCTION {function} RETURNS void LANGUAGE sql AS $$SELECT$$", "permission denied for schema tender"),
            ("CREATE FUNCTION tender.open_person_v2(integer, boolean, integer, integer) RETURNS void LANGUAGE sql AS $$SELECT$$",
             "permission denied for schema tender"),
            (f'ALTER FUNCTION {function} OWNER TO "{evil}"', "must be owner of function"),
            (f"ALTER FUNCTION {function} SECURITY DEFINER", "must be owner of function"),
            (f"ALTER FUNCTION {function} SET search_path = trap", "must be owner of function"),
            (f"DROP FUNCTION {function}", "must be owner of function"),
        ):
            done = world["cluster"].sql(world["names"]["p"], f'SET ROLE "{evil}"; {attempt}', database="shadowed")
            assert done.returncode != 0 and refusal in done.stderr, (attempt, done.stderr)
        daemon.kill(signal.SIGTERM)
        daemon.start()
        outcome = client(daemon, alice, "pay", world["password"], "shadowed-1")
        assert outcome.get("code") == "SUCCESS", outcome
        loot = world["cluster"].sql(world["names"]["p"], "SELECT count(*) FROM trap.loot", database="shadowed")
        assert loot.stdout.strip() == "0", ("the database owner's open_person_v2 ran as tenderd's role", loot.stdout)
    finally:
        superuser(world, f'REVOKE USAGE ON SCHEMA tender FROM "{evil}"', "shadowed")


def test_an_overload_made_while_the_daemon_runs_is_never_called_in_place_of_the_opening_function(world):
    # Adversarial review (pgspeed): tenderd's role grants another role CREATE in the schema while a daemon runs (refused at
    # the next open, seen only then). That role makes tender.open_person_v2(integer, boolean, integer, integer): the
    # call's literals (integer for the function's bigint) matched it better, so every transaction ran its code as
    # tenderd's role (every person's rows; a person named without the lock). The call types each argument as the
    # function takes it, so it matches tenderd's function exactly.
    evil, role, alice = world["names"]["e"], world["names"]["d"], world["alice"]
    daemon = paying_daemon(world, "overloaded", "overloaded-0")
    superuser(world, f'CREATE SCHEMA trap AUTHORIZATION "{evil}"; CREATE TABLE trap.loot (who text); '
              f'ALTER TABLE trap.loot OWNER TO "{evil}"; GRANT INSERT ON trap.loot TO PUBLIC; GRANT USAGE ON SCHEMA trap TO PUBLIC',
              "overloaded")
    done = world["cluster"].sql(role, f'GRANT USAGE, CREATE ON SCHEMA tender TO "{evil}"', database="overloaded")
    assert done.returncode == 0, done.stderr
    done = world["cluster"].sql(world["names"]["p"], f'SET ROLE "{evil}"; '
                                "CREATE FUNCTION tender.open_person_v2(integer, boolean, integer, integer) RETURNS void LANGUAGE plpgsql AS "
                                "$$BEGIN IF pg_catalog.current_setting('transaction_read_only') = 'off' THEN "
                                "INSERT INTO trap.loot VALUES (current_user); END IF; "
                                "PERFORM pg_catalog.set_config('tender.uid', $1::text, true); END$$; "
                                "GRANT EXECUTE ON FUNCTION tender.open_person_v2(integer, boolean, integer, integer) TO PUBLIC",
                                database="overloaded")
    assert done.returncode == 0, done.stderr
    outcome = client(daemon, alice, "pay", world["password"], "overloaded-1")
    loot = world["cluster"].sql(world["names"]["p"], "SELECT count(*) FROM trap.loot", database="overloaded")
    assert loot.stdout.strip() == "0", ("another role's overload ran as tenderd's role", loot.stdout)
    assert outcome.get("code") == "SUCCESS", outcome


def test_another_role_holding_a_persons_lock_only_delays_and_refuses_whole(world):
    # Adversarial review (pgspeed): any role that may connect to the database can take tenderd's advisory lock on a
    # person (docs/scale.md, "Not stopped"). While it holds it, that person's payment waits lock_timeout and is refused
    # (TENDER_E_STORE_BUSY) with nothing of it kept; asked again under its key once the lock is let go, it pays once.
    evil, alice = world["names"]["e"], world["alice"]
    daemon = paying_daemon(world, "squatted", "squatted-0")
    holder = hold_lock(world, "squatted", pwd.getpwnam(alice).pw_uid, seconds=13, role=evil)
    try:
        time.sleep(0.5)
        refused = client(daemon, alice, "pay", world["password"], "squatted-1")
    finally:
        holder.wait(timeout=30)
    assert refused.get("error") == "StoreBusyError", refused
    assert "squatted-1" not in client(daemon, alice, "payments")["keys"]
    assert client(daemon, alice, "pay", world["password"], "squatted-1")["code"] == "SUCCESS"
    assert sorted(client(daemon, alice, "payments")["keys"]) == ["squatted-0", "squatted-1"]


def test_a_queued_write_or_a_commit_that_fails_keeps_nothing_and_the_key_pays_once_after(world):
    # Adversarial review (pgspeed): the ledger's insert is queued and sent with COMMIT. Made to fail there, by a trigger
    # (tenderd's role's, made while the daemon runs: the open's check refuses one) raising on the insert itself or at
    # COMMIT (deferred): the payment is refused, nothing of it is kept, the connection serves the next transaction, and the
    # same key asked again once the trigger is gone pays once.
    role, alice = world["names"]["d"], world["alice"]
    daemon = paying_daemon(world, "refusing", "refusing-0")
    done = world["cluster"].sql(role, "CREATE FUNCTION tender.refuse() RETURNS trigger LANGUAGE plpgsql AS "
                                "$$BEGIN IF NEW.idempotency_key LIKE TG_ARGV[0] THEN RAISE EXCEPTION 'refused'; END IF; RETURN NEW; END$$; "
                                "CREATE TRIGGER now BEFORE INSERT ON tender.ledger FOR EACH ROW EXECUTE FUNCTION tender.refuse('refused-now'); "
                                "CREATE CONSTRAINT TRIGGER later AFTER INSERT ON tender.ledger DEFERRABLE INITIALLY DEFERRED "
                                "FOR EACH ROW EXECUTE FUNCTION tender.refuse('refused-later')", database="refusing")
    assert done.returncode == 0, done.stderr
    for key in ("refused-now", "refused-later"):
        outcome = client(daemon, alice, "pay", world["password"], key)
        assert outcome.get("code") != "SUCCESS" and "refused" in outcome.get("message", ""), outcome
        assert client(daemon, alice, "pay", world["password"], f"{key}-other")["code"] == "SUCCESS"
    listed = client(daemon, alice, "payments")["keys"]
    assert sorted(listed) == ["refused-later-other", "refused-now-other", "refusing-0"], listed
    done = world["cluster"].sql(role, "DROP TRIGGER now ON tender.ledger; DROP TRIGGER later ON tender.ledger; DROP FUNCTION tender.refuse()",
                                database="refusing")
    assert done.returncode == 0, done.stderr
    for key in ("refused-now", "refused-later"):
        assert client(daemon, alice, "pay", world["password"], key)["code"] == "SUCCESS"
    listed = client(daemon, alice, "payments")["keys"]
    assert sorted(listed) == ["refused-later", "refused-later-other", "refused-now", "refused-now-other", "refusing-0"], listed
    kept = world["cluster"].sql(world["names"]["p"], "SELECT count(*), count(DISTINCT idempotency_key), max(sequence) = count(*) "
                                "FROM tender.ledger", database="refusing")
    assert kept.returncode == 0 and kept.stdout.strip().split("|")[1:] == ["5", "t"], kept.stdout


def test_a_server_stopped_while_a_payment_waits_mid_transaction_keeps_nothing_of_it(world):
    # Adversarial review (pgspeed): the server shut down (fast: every backend terminated) while a payment's transaction
    # is on the wire, its statements sent (queued writes, and COMMIT for a transaction of writes only) and waiting for the
    # person's lock, held by another session. The server answers the waiting statement with its FATAL error, before
    # COMMIT ran: the payment is refused, nothing of it kept, and paid once when asked again after the restart.
    alice = world["alice"]
    daemon = paying_daemon(world, "stopped", "stopped-0")
    holder = hold_lock(world, "stopped", pwd.getpwnam(alice).pw_uid, seconds=8)
    from concurrent.futures import ThreadPoolExecutor
    with ThreadPoolExecutor(max_workers=1) as pool:
        time.sleep(0.5)
        paying = pool.submit(client, daemon, alice, "pay", world["password"], "stopped-1")
        time.sleep(3)
        world["cluster"].stop("fast")
        try:
            outcome = paying.result(timeout=60)
        finally:
            world["cluster"].start()
            holder.wait(timeout=30)
    # The shutdown terminates every backend, the holder's too: when the holder's goes first, the payment's may take the
    # lock and commit before its own termination (a payment is two round trips once the lock is free). Then it was
    # acknowledged and must be kept; else it is refused and nothing of it kept.
    if outcome.get("code") == "SUCCESS":
        assert sorted(client(daemon, alice, "payments")["keys"]) == ["stopped-0", "stopped-1"]
    else:
        assert client(daemon, alice, "payments")["keys"] == ["stopped-0"]
    assert client(daemon, alice, "pay", world["password"], "stopped-1")["code"] == "SUCCESS"
    assert sorted(client(daemon, alice, "payments")["keys"]) == ["stopped-0", "stopped-1"]


def test_two_daemons_first_opening_a_database_with_a_repeatable_read_default_both_open_it(world):
    # Adversarial review (pgspeed): under the database owner's default_transaction_isolation = 'repeatable read', the
    # schema's migration took its snapshot with the statement that waits for the migration's lock: the daemon that waited
    # did not see the schema the other had just made ("the schema tender is missing after it was created") and failed
    # its person's first open. The migration begins READ COMMITTED, as every write does.
    from concurrent.futures import ThreadPoolExecutor
    new_database(world, "racing")
    superuser(world, "ALTER DATABASE racing SET default_transaction_isolation = 'repeatable read'", "postgres")
    first = start_daemon(world, "racing1", database="racing")
    second = start_daemon(world, "racing2", database="racing", state=first.state)
    holder = hold_lock(world, "racing", -1, seconds=3)
    try:
        time.sleep(0.5)
        with ThreadPoolExecutor(max_workers=2) as pool:
            outcomes = list(pool.map(lambda daemon: client(daemon, world["alice"], "payments"), (first, second)))
    finally:
        holder.wait(timeout=30)
    assert all("keys" in outcome for outcome in outcomes), outcomes


def test_an_overload_with_a_default_made_after_the_call_was_prepared_runs_nothing_and_keeps_one_chain(world):
    # Adversarial review (adv-pg, the opening call prepared once per connection): a role tenderd's role gave CREATE in
    # the schema while a daemon runs makes, AFTER the daemon's connection prepared the call, an overload taking the
    # call's four types exactly plus a fifth with a default (tender.open_person_v2(bigint, boolean, integer, integer,
    # text DEFAULT '')), and one taking a VARIADIC tail. Neither may ever run as tenderd's role (a prepared plan re-made
    # on the next invalidation, or a new connection, resolves the name again); at worst the call is ambiguous and the
    # payment refused whole. Dropped again, the key pays once and the chain verifies.
    evil, role, alice = world["names"]["e"], world["names"]["d"], world["alice"]
    daemon = paying_daemon(world, "defaulted", "defaulted-0")
    assert client(daemon, alice, "pay", world["password"], "defaulted-1")["code"] == "SUCCESS"  # the call prepared and reused
    superuser(world, f'CREATE SCHEMA trap AUTHORIZATION "{evil}"; CREATE TABLE trap.loot (who text); '
              f'ALTER TABLE trap.loot OWNER TO "{evil}"; GRANT INSERT ON trap.loot TO PUBLIC; GRANT USAGE ON SCHEMA trap TO PUBLIC',
              "defaulted")
    done = world["cluster"].sql(role, f'GRANT USAGE, CREATE ON SCHEMA tender TO "{evil}"', database="defaulted")
    assert done.returncode == 0, done.stderr
    body = ("$$BEGIN IF pg_catalog.current_setting('transaction_read_only') = 'off' THEN "
            "INSERT INTO trap.loot VALUES (current_user); END IF; "
            "PERFORM pg_catalog.set_config('tender.uid', $1::text, true); END$$")
    overloads = ("tender.open_person_v2(bigint, boolean, integer, integer, text)",
                 "tender.open_person_v2(bigint, boolean, integer, integer, VARIADIC text[])")
    done = world["cluster"].sql(world["names"]["p"], f'SET ROLE "{evil}"; '
                                "CREATE FUNCTION tender.open_person_v2(bigint, boolean, integer, integer, text DEFAULT '') "
                                f"RETURNS void LANGUAGE plpgsql AS {body}; "
                                "CREATE FUNCTION tender.open_person_v2(bigint, boolean, integer, integer, VARIADIC text[]) "
                                f"RETURNS void LANGUAGE plpgsql AS {body}; "
                                + "".join(f"GRANT EXECUTE ON FUNCTION {o} TO PUBLIC; " for o in overloads),
                                database="defaulted")
    assert done.returncode == 0, done.stderr
    outcomes = [client(daemon, alice, "pay", world["password"], f"defaulted-{n}") for n in (2, 3)]
    # A new connection (the daemon started again) resolves the name afresh.
    daemon.kill(signal.SIGTERM)
    daemon.start()
    outcomes.append(client(daemon, alice, "pay", world["password"], "defaulted-4"))
    loot = world["cluster"].sql(world["names"]["p"], "SELECT count(*) FROM trap.loot", database="defaulted")
    assert loot.stdout.strip() == "0", ("another role's overload ran as tenderd's role", loot.stdout, outcomes)
    for outcome in outcomes:
        assert outcome.get("code") == "SUCCESS" or outcome.get("error"), outcome
    done = world["cluster"].sql(world["names"]["p"], f'SET ROLE "{evil}"; '
                                + "".join(f"DROP FUNCTION {o}; " for o in overloads), database="defaulted")
    assert done.returncode == 0, done.stderr
    done = world["cluster"].sql(role, f'REVOKE CREATE ON SCHEMA tender FROM "{evil}"', database="defaulted")
    assert done.returncode == 0, done.stderr
    daemon.kill(signal.SIGTERM)
    daemon.start()
    for n in (2, 3, 4, 5):
        outcome = client(daemon, alice, "pay", world["password"], f"defaulted-{n}")
        assert outcome.get("code") == "SUCCESS", (n, outcome, outcomes)
    assert_one_chain_that_verifies(world, daemon, alice, "defaulted")
    print("adv-pg overload outcomes:", outcomes)


def test_a_server_restarted_between_quiet_payments_resends_the_first_round_trip_once_and_keeps_one_chain(world):
    # Adversarial review (adv-pg, the first round trip sent ahead while the record is signed): the server restarts while
    # the daemon's connection is idle, so the next quiet payment's first round trip (BEGIN, the opening call prepared on
    # the dead session, the reads) goes out on a broken connection while its record is signed. It must be sent again
    # once on a new session (the call prepared anew there, not named by the old session's name), nothing done twice,
    # and the connection not reused dirty: the payments after it pay once each, and the chain verifies.
    alice = world["alice"]
    daemon = paying_daemon(world, "restarted", "restarted-0")
    assert client(daemon, alice, "pay", world["password"], "restarted-1")["code"] == "SUCCESS"
    outcomes = []
    for round_ in range(2):
        world["cluster"].stop("fast")
        world["cluster"].start()
        outcomes.append(client(daemon, alice, "pay", world["password"], f"restarted-r{round_}"))
        outcomes.append(client(daemon, alice, "pay", world["password"], f"restarted-s{round_}"))
    assert all(o.get("code") == "SUCCESS" for o in outcomes), outcomes
    # Asked again, each key answers its one record.
    for round_ in range(2):
        assert client(daemon, alice, "pay", world["password"], f"restarted-r{round_}")["code"] == "SUCCESS"
    keys = client(daemon, alice, "payments")["keys"]
    assert sorted(keys) == sorted(["restarted-0", "restarted-1", "restarted-r0", "restarted-s0", "restarted-r1", "restarted-s1"]), keys
    assert_one_chain_that_verifies(world, daemon, alice, "restarted")


# --- the function that pays a quiet submitter's signed record in one call (tender.pay_prepared_v4) ---

PAYMENT = ("tender.pay_prepared_v4(bigint, integer, integer, text, bytea, bigint, text, text, text, text, bytea, text, text, text, "
           "text, bigint, text[], bigint[], text[], text, boolean, bigint[], text[], text[], text[], text[])")
PAYMENT_TYPES = PAYMENT[len("tender.pay_prepared_v4("):-1]
LOOT_BODY = ("$$BEGIN IF pg_catalog.current_setting('transaction_read_only') = 'off' THEN "
             "INSERT INTO trap.loot VALUES (current_user); END IF; RETURN 'paid'; END$$")


def payment_calls(world, daemon, database):
    """The calls of the payment function `daemon`'s sessions made (their statistics are written when they end: the daemon is
    stopped, then started again)."""
    daemon.kill(signal.SIGTERM)
    time.sleep(0.5)
    done = world["cluster"].sql(world["names"]["p"], "SELECT coalesce(sum(calls), 0) FROM pg_stat_user_functions "
                                "WHERE schemaname = 'tender' AND funcname = 'pay_prepared_v4'", database=database)
    daemon.start()
    assert done.returncode == 0, done.stderr
    return int(done.stdout.strip())


def test_the_payment_function_pays_brokered_payments_is_tenderds_alone_and_a_grant_of_it_is_refused(world):
    evil, role = world["names"]["e"], world["names"]["d"]
    daemon = paying_daemon(world, "paying", "paying-0")
    superuser(world, "ALTER DATABASE paying SET track_functions = 'pl'", "postgres")
    daemon.kill(signal.SIGTERM)
    daemon.start()
    for key in ("paying-1", "paying-2", "paying-3"):
        assert client(daemon, world["alice"], "pay", world["password"], key)["code"] == "SUCCESS"
    # Brokered payments go through it (a quiet payment is one call of it).
    assert payment_calls(world, daemon, "paying") >= 2
    # tenderd made it: its role's, running with its caller's rights, EXECUTE for its owner alone.
    done = world["cluster"].sql(world["names"]["p"], "SELECT pg_get_userbyid(proowner), prosecdef, "
                                "(SELECT string_agg(CASE WHEN grantee = 0 THEN 'PUBLIC' ELSE pg_get_userbyid(grantee) END, ',') "
                                "FROM aclexplode(coalesce(proacl, acldefault('f', proowner)))) FROM pg_proc "
                                f"WHERE oid = '{PAYMENT}'::regprocedure", database="paying")
    assert done.returncode == 0 and done.stdout.strip() == f"{role}|f|{role}", done.stdout + done.stderr
    # Another role cannot call it (to insert a record of its making at a person's head): no use of the schema, no EXECUTE.
    call = (f'SET ROLE "{evil}"; SELECT tender.pay_prepared_v4(1, 1, 1, \'k\', \'\\x00\', 1, \'h\', \'j\', \'h\', \'i\', \'\\x00\', '
            "NULL, NULL, NULL, 'USD', 1, '{}', '{}', '{}', NULL, false, '{}', '{}', '{}', '{}', '{}')")
    done = world["cluster"].sql(world["names"]["p"], call, database="paying")
    assert done.returncode != 0 and "permission denied for schema tender" in done.stderr, done.stderr
    done = world["cluster"].sql(role, f'GRANT USAGE ON SCHEMA tender TO "{evil}"', database="paying")
    assert done.returncode == 0, done.stderr
    done = world["cluster"].sql(world["names"]["p"], call, database="paying")
    assert done.returncode != 0 and "permission denied for function pay_prepared_v4" in done.stderr, done.stderr
    # A grant of it is refused at the next open, as a grant of the opening function is.
    done = world["cluster"].sql(role, f'REVOKE USAGE ON SCHEMA tender FROM "{evil}"; GRANT EXECUTE ON FUNCTION {PAYMENT} TO PUBLIC',
                                database="paying")
    assert done.returncode == 0, done.stderr
    daemon.kill(signal.SIGTERM)
    daemon.start()
    outcome = client(daemon, world["alice"], "pay", world["password"], "granted")
    assert outcome.get("error") == "StoreError" and "privilege EXECUTE on the function pay_prepared_v4 of the role PUBLIC" in outcome["message"], outcome
    done = world["cluster"].sql(role, f"REVOKE EXECUTE ON FUNCTION {PAYMENT} FROM PUBLIC", database="paying")
    assert done.returncode == 0, done.stderr
    daemon.kill(signal.SIGTERM)
    daemon.start()
    assert client(daemon, world["alice"], "pay", world["password"], "revoked")["code"] == "SUCCESS"
    assert_one_chain_that_verifies(world, daemon, world["alice"], "paying")


def test_a_dropped_payment_function_leaves_payments_paying_and_is_made_again(world):
    role = world["names"]["d"]
    daemon = paying_daemon(world, "paydropped", "paydropped-0")
    assert client(daemon, world["alice"], "pay", world["password"], "paydropped-1")["code"] == "SUCCESS"
    # Dropped under a running daemon: the call finds it missing (nothing kept) and the batch's transaction pays.
    assert world["cluster"].sql(role, f"DROP FUNCTION {PAYMENT}", database="paydropped").returncode == 0
    for key in ("while-dropped", "after-drop"):
        assert client(daemon, world["alice"], "pay", world["password"], key)["code"] == "SUCCESS", key
    daemon.kill(signal.SIGTERM)
    daemon.start()
    assert client(daemon, world["alice"], "pay", world["password"], "second")["code"] == "SUCCESS"
    done = world["cluster"].sql(role, f"SELECT to_regprocedure('{PAYMENT}') IS NOT NULL", database="paydropped")
    assert done.stdout.strip() == "t", done.stdout + done.stderr
    keys = client(daemon, world["alice"], "payments")["keys"]
    assert sorted(keys) == sorted(["paydropped-0", "paydropped-1", "while-dropped", "after-drop", "second"]), keys
    assert_one_chain_that_verifies(world, daemon, world["alice"], "paydropped")


def test_another_role_can_neither_replace_shadow_nor_overload_the_payment_function(world):
    # Adversary (pg36): a role of the database's owner's, its search path set to a schema of theirs, tries to run its code in
    # place of tender.pay_prepared_v4 (one that inserts a record without the lock, or at another person's head, forks a
    # chain): CREATE OR REPLACE, ALTER, DROP; a shadow taking looser types on its search path; and, once tenderd's role gives
    # it CREATE in the schema while a daemon runs, overloads in the schema itself (looser types; the exact types plus a
    # defaulted or VARIADIC tail) made after the call was prepared. None of theirs ever runs as tenderd's role: at worst the
    # call is ambiguous and payments are refused whole; dropped, every key pays once and the chain verifies.
    evil, role, alice = world["names"]["e"], world["names"]["d"], world["alice"]
    superuser(world, f'CREATE DATABASE payshadow OWNER "{evil}"', "postgres")
    superuser(world, f'GRANT CONNECT, CREATE ON DATABASE payshadow TO "{role}"', "postgres")
    daemon = start_daemon(world, "payshadow", database="payshadow")
    assert client(daemon, alice, "setup") == {"ok": True}
    for key in ("payshadow-0", "payshadow-1"):
        assert client(daemon, alice, "pay", world["password"], key)["code"] == "SUCCESS"
    loose = PAYMENT_TYPES.replace("bigint", "numeric").replace("integer", "numeric")
    superuser(world, f'CREATE SCHEMA trap AUTHORIZATION "{evil}"; CREATE TABLE trap.loot (who text); '
              f'ALTER TABLE trap.loot OWNER TO "{evil}"; GRANT INSERT ON trap.loot TO PUBLIC; GRANT USAGE ON SCHEMA trap TO PUBLIC; '
              f"CREATE FUNCTION trap.pay_prepared_v4({loose}) RETURNS text LANGUAGE plpgsql AS {LOOT_BODY}; "
              f'ALTER FUNCTION trap.pay_prepared_v4({loose}) OWNER TO "{evil}"; '
              "ALTER DATABASE payshadow SET search_path = trap, tender, pg_catalog", "payshadow")
    superuser(world, f'GRANT USAGE ON SCHEMA tender TO "{evil}"', "payshadow")
    for attempt, refusal in (
        (f"CREATE OR REPLACE FUNCTION {PAYMENT} RETURNS text LANGUAGE sql AS $$SELECT 'paid'$$", "permission denied for schema tender"),
        (f'ALTER FUNCTION {PAYMENT} OWNER TO "{evil}"', "must be owner of function"),
        (f"ALTER FUNCTION {PAYMENT} SET search_path = trap", "must be owner of function"),
        (f"DROP FUNCTION {PAYMENT}", "must be owner of function"),
    ):
        done = world["cluster"].sql(world["names"]["p"], f'SET ROLE "{evil}"; {attempt}', database="payshadow")
        assert done.returncode != 0 and refusal in done.stderr, (attempt, done.stderr)
    daemon.kill(signal.SIGTERM)
    daemon.start()
    outcomes = [client(daemon, alice, "pay", world["password"], "payshadow-2")]
    # Overloads in tenderd's schema, made while the daemon runs, after its call was prepared.
    done = world["cluster"].sql(role, f'GRANT CREATE ON SCHEMA tender TO "{evil}"', database="payshadow")
    assert done.returncode == 0, done.stderr
    overloads = (f"tender.pay_prepared_v4({loose})", f"tender.pay_prepared_v4({PAYMENT_TYPES}, text)",
                 f"tender.pay_prepared_v4({PAYMENT_TYPES}, VARIADIC text[])")
    done = world["cluster"].sql(world["names"]["p"], f'SET ROLE "{evil}"; '
                                f"CREATE FUNCTION tender.pay_prepared_v4({loose}) RETURNS text LANGUAGE plpgsql AS {LOOT_BODY}; "
                                f"CREATE FUNCTION tender.pay_prepared_v4({PAYMENT_TYPES}, extra text DEFAULT '') RETURNS text "
                                f"LANGUAGE plpgsql AS {LOOT_BODY}; "
                                f"CREATE FUNCTION tender.pay_prepared_v4({PAYMENT_TYPES}, VARIADIC extra text[]) RETURNS text "
                                f"LANGUAGE plpgsql AS {LOOT_BODY}; "
                                + "".join(f"GRANT EXECUTE ON FUNCTION {o} TO PUBLIC; " for o in overloads), database="payshadow")
    assert done.returncode == 0, done.stderr
    outcomes += [client(daemon, alice, "pay", world["password"], f"payshadow-{n}") for n in (3, 4)]
    loot = world["cluster"].sql(world["names"]["p"], "SELECT count(*) FROM trap.loot", database="payshadow")
    assert loot.stdout.strip() == "0", ("another role's function ran as tenderd's role", loot.stdout, outcomes)
    for outcome in outcomes:
        assert outcome.get("code") == "SUCCESS" or outcome.get("error"), outcome
    done = world["cluster"].sql(world["names"]["p"], f'SET ROLE "{evil}"; ' + "".join(f"DROP FUNCTION {o}; " for o in overloads),
                                database="payshadow")
    assert done.returncode == 0, done.stderr
    superuser(world, f'REVOKE CREATE, USAGE ON SCHEMA tender FROM "{evil}"', "payshadow")
    daemon.kill(signal.SIGTERM)
    daemon.start()
    for n in (2, 3, 4, 5):
        assert client(daemon, alice, "pay", world["password"], f"payshadow-{n}")["code"] == "SUCCESS", n
    keys = client(daemon, alice, "payments")["keys"]
    assert sorted(keys) == sorted(f"payshadow-{n}" for n in range(6)), keys
    assert_one_chain_that_verifies(world, daemon, alice, "payshadow")
    print("pg36 payment function overload outcomes:", outcomes)
