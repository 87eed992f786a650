# SPDX-License-Identifier: Apache-2.0
"""The payment function's fourth version (tender.pay_prepared_v4: the debit guarded in its own WHERE by the key, head,
idempotency and funds checks, the record inserted from its row, in one statement) attacked as an adversary would: two
daemons racing one person, forged calls by tenderd's role, a key removed and a policy added while payments run. A
throwaway cluster, as test_pg_security; run as root (make test-postgres)."""

import os
import pwd
import subprocess
import sys
import threading
import time


HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from test_postgres import pytestmark  # noqa: E402,F401  (the same skips)
from test_postgres import client  # noqa: E402
from test_pg_security import PAYMENT, assert_one_chain_that_verifies, paying_daemon, start_daemon, world  # noqa: E402,F401
from test_pg_payment_call_adversary import alice_beside_bob, bob_beside, checking_balances, owner_sql  # noqa: E402
from test_pg_payment_call_v4 import call_sql  # noqa: E402
from pg_cluster import PGBIN  # noqa: E402

FUNCTION = PAYMENT.split("(")[0]


def superuser_sql(world, database, statement):
    """`statement` run by the cluster's superuser (every person's rows) in `database`: its stdout, stripped."""
    done = world["cluster"].sql(world["names"]["p"], statement, database=database)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def superuser_session(world, database, statement):
    """A psql session of the cluster's superuser running `statement` in the background: the process, to wait for."""
    entry = pwd.getpwnam(world["names"]["p"])
    return subprocess.Popen(["setpriv", f"--reuid={entry.pw_uid}", f"--regid={entry.pw_gid}", "--clear-groups", "--",
                             os.path.join(PGBIN, "psql"), "-h", world["cluster"].socket, "-d", database, "-X", "-q", "-A", "-t",
                             "-v", "ON_ERROR_STOP=1", "-c", statement],
                            cwd="/", stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def wait_for_a_payment_waiting_on_a_row(world, database, seconds=20):
    """Until one of tenderd's backends in `database` waits for a row's lock (a transaction's or tuple's) in its payment."""
    deadline = time.time() + seconds
    while time.time() < deadline:
        waiting = superuser_sql(world, database, "SELECT count(*) FROM pg_stat_activity WHERE usename = "
                                f"'{world['names']['d']}' AND wait_event_type = 'Lock' AND wait_event IN ('transactionid', 'tuple')")
        if waiting != "0":
            return
        time.sleep(0.05)
    raise AssertionError("no payment came to wait for the account's row")


def ledger_of(world, database, uid):
    """alice's ledger rows, read by the superuser: [(sequence, idempotency key or '')], in order."""
    out = superuser_sql(world, database, "SELECT sequence || ':' || coalesce(idempotency_key, '') FROM tender.ledger "
                        f"WHERE uid = {uid} ORDER BY sequence")
    return [(int(line.split(":", 1)[0]), line.split(":", 1)[1]) for line in out.splitlines() if line]


def test_two_daemons_racing_one_person_pay_each_key_once_on_one_chain_with_exact_balances(world):
    # Adversary: two machines (two tenderd processes, each its own state) paying for one person at once, each a quiet
    # submitter (payments one after another, so each daemon signs ahead at the head it last saw and calls v4): half the
    # keys asked of both (overlapping), half of one only (distinct). v4's checks run in the statement after the lock
    # (a snapshot taken after the lock's last holder committed): each daemon's stale head is 'head', a key the other paid
    # is 'paid before', and the batch decides. One row a key, sequences 1..N, the balance moved by exactly the rows kept,
    # and v4 really paid some of them (its calls counted by the server).
    alice, password = world["alice"], world["password"]
    database = "v4race"
    first = paying_daemon(world, database, "v4race-0")
    superuser_sql(world, "postgres", f"ALTER DATABASE {database} SET track_functions = 'pl'")
    second = start_daemon(world, "v4race-b", database=database, state=first.state)  # the same key: both sign
    first.kill(15)
    first.start()  # both sessions now count the functions they call
    uid = pwd.getpwnam(alice).pw_uid
    before_balance = int(superuser_sql(world, database, f"SELECT balance_minor FROM tender.accounts WHERE uid = {uid} AND id = 'checking'"))
    before_rows = ledger_of(world, database, uid)
    shared = [f"v4race-both-{i}" for i in range(12)]
    outcomes = {}

    def machine(index, daemon):
        keys = [key for pair in zip(shared, [f"v4race-only{index}-{i}" for i in range(12)]) for key in pair]
        for key in keys:
            outcomes[(index, key)] = client(daemon, alice, "pay", password, key)

    threads = [threading.Thread(target=machine, args=(i, d)) for i, d in enumerate((first, second))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for key in shared:
        a, b = outcomes[(0, key)], outcomes[(1, key)]
        assert a["code"] == b["code"] == "SUCCESS", (key, a, b)
        assert a["jws"] == b["jws"], key  # one record, answered to both
    for (index, key), outcome in outcomes.items():
        assert outcome["code"] == "SUCCESS", (index, key, outcome)
    rows = ledger_of(world, database, uid)
    keys = [key for _, key in rows if key]
    assert len(keys) == len(set(keys)), keys  # one row a key
    assert [s for s, _ in rows] == list(range(1, len(rows) + 1)), rows  # one line, no fork, no gap
    paid_here = [key for key in keys if key.startswith("v4race-") and key != "v4race-0"]
    assert sorted(paid_here) == sorted(set(shared) | {f"v4race-only{i}-{j}" for i in (0, 1) for j in range(12)})
    amounts = superuser_sql(world, database, "SELECT coalesce(sum(amount_minor), 0) FROM tender.ledger WHERE uid = "
                            f"{uid} AND sequence > {before_rows[-1][0]} AND type = 'payment'")
    after_balance = int(superuser_sql(world, database, f"SELECT balance_minor FROM tender.accounts WHERE uid = {uid} AND id = 'checking'"))
    assert before_balance - after_balance == int(amounts) and int(amounts) > 0, (before_balance, after_balance, amounts)
    for _ in range(60):  # the daemons' sessions report their counts within a few seconds
        calls = superuser_sql(world, database, "SELECT coalesce(sum(calls), 0) FROM pg_stat_user_functions WHERE funcname = 'pay_prepared_v4'")
        if int(calls) > 0:
            break
        time.sleep(0.25)
    print(f"v4 called {calls} times for {len(paid_here)} payments of two racing daemons")
    assert int(calls) > 0, "the race never reached the payment function"
    assert_one_chain_that_verifies(world, first, alice, database)
    assert_one_chain_that_verifies(world, second, alice, database)
    second.kill(15)


def test_forged_calls_by_tenderds_role_write_nothing_and_name_nothing_of_another_person(world):
    # Adversary: tenderd's role calling v4 by hand with arguments no daemon sends: bob's account id that alice lacks, bob's
    # idempotency key (answered 'paid before' would tell alice's caller bob paid under it), bob's head, a debit that
    # overflows, the most negative debit, a NULL in an array, arrays of unequal lengths, a person whose lock is another's.
    # Each answer is a refusal (or an error) that names nothing of bob's, and nothing moves, anyone's.
    alice = world["alice"]
    database = "v4forged"
    paying_daemon(world, database, "v4forged-0")
    uid = pwd.getpwnam(alice).pw_uid
    bob = uid + 1
    sql = owner_sql(world, database, uid)
    kid, public = bob_beside(sql, bob)
    code, out, err = sql("INSERT INTO tender.accounts (id, kind, currency, balance_minor, is_default, position) "
                         "VALUES ('bobs-only', 'checking', 'USD', 900, 0, 2); "
                         "INSERT INTO tender.ledger (sequence, type, jws, hash, idempotency_key) VALUES (100, 'note', 'bob.jws.x', 'bob-hash', "
                         "'bobs-key'), (101, 'note', 'bob2.jws.x', 'bob-hash-2', NULL)", person=bob)
    assert code == 0, err

    def state():
        return superuser_sql(world, database, "SELECT (SELECT string_agg(uid || ':' || sequence || ':' || coalesce(idempotency_key, ''), ',' "
                             "ORDER BY uid, sequence) FROM tender.ledger), (SELECT string_agg(uid || ':' || id || ':' || balance_minor, ',' "
                             "ORDER BY uid, id) FROM tender.accounts), (SELECT count(*) FROM tender.audit)")

    before = state()
    for expected, forged in (
        ({"checks"}, {"accounts": "'{bobs-only}'"}),
        ({"paid before_not"}, {"key": "bobs-key"}),
        ({"head"}, {"head": "101"}),
        ({"arguments"}, {"deltas": "'{NULL}'::bigint[]"}),
        ({"arguments"}, {"accounts": "'{checking,checking}'"}),
        ({"arguments"}, {"currencies": "'{}'"}),
        ({"error"}, {"deltas": "'{9223372036854775807}'"}),
        ({"error", "checks"}, {"deltas": "'{-9223372036854775808}'"}),
    ):
        arguments = dict({"key": "v4forged-x"}, **forged)
        code, out, err = sql(call_sql(world, uid, kid, public, **arguments))
        answer = out if code == 0 else "error"
        if expected == {"paid before_not"}:
            # bob's key: alice's rows alone are read, so it is not 'paid before' (which would tell of bob's payment): alice's
            # own payment under the same key string pays, from her account; undone by hand.
            assert (code, answer) == (0, "paid"), (forged, answer, err)
            superuser_sql(world, database, f"DELETE FROM tender.ledger WHERE uid = {uid} AND idempotency_key = 'bobs-key'; "
                          f"UPDATE tender.accounts SET balance_minor = balance_minor + 1 WHERE uid = {uid} AND id = 'checking'")
        else:
            assert answer in expected, (forged, code, out, err)
        assert state() == before, forged
    # A person whose lock is another's (bob named, alice's lock): refused before anything is read.
    code, out, err = sql(call_sql(world, uid, kid, public, "v4forged-y").replace(f"SELECT {FUNCTION}({uid},", f"SELECT {FUNCTION}({bob},", 1))
    assert (code, out) == (0, "arguments"), (code, out, err)
    assert state() == before
    code, out, err = sql("DELETE FROM tender.ledger; DELETE FROM tender.accounts; DELETE FROM tender.signing_keys", person=bob)
    assert code == 0, err


def removing_while_held(world, database, row, act, removal):
    """A superuser's session holds the row `row` selects (FOR UPDATE, 3 s); `act` runs on a thread meanwhile and, once a
    statement waits on a row, `removal` runs with a second to get its locks. Returns the removal's result and whether it
    committed while `act` still waited."""
    holder = superuser_session(world, database, f"BEGIN; {row} FOR UPDATE; SELECT pg_sleep(3); COMMIT")
    time.sleep(0.5)
    acting = threading.Thread(target=act)
    acting.start()
    try:
        wait_for_a_payment_waiting_on_a_row(world, database)
        done = world["cluster"].sql(world["names"]["p"], f"SET lock_timeout = '1s'; {removal}", database=database)
        removed_while_waiting = done.returncode == 0 and acting.is_alive()
    finally:
        holder.communicate(timeout=30)
        acting.join(timeout=60)
    return done, removed_while_waiting


def removing_the_key_while_a_payment_waits_for_its_account(world, database, batch):
    """The attack of the test below, through the payment function or (`batch`) the batch's transaction."""
    alice, password = world["alice"], world["password"]
    daemon = paying_daemon(world, database, f"{database}-0")
    assert client(daemon, alice, "pay", password, f"{database}-1")["code"] == "SUCCESS"  # warm: the next one is quiet
    if batch:
        code, out, err = owner_sql(world, database, pwd.getpwnam(alice).pw_uid)(f"DROP FUNCTION {PAYMENT}")
        assert code == 0, err
    uid = pwd.getpwnam(alice).pw_uid
    outcome = {}
    removal, removed_while_waiting = removing_while_held(
        world, database, f"SELECT 1 FROM tender.accounts WHERE uid = {uid} AND id = 'checking'",
        lambda: outcome.update(client(daemon, alice, "pay", password, f"{database}-2")),
        f"DELETE FROM tender.signing_keys WHERE uid = {uid}")
    kept = [key for _, key in ledger_of(world, database, uid)]
    if removed_while_waiting:
        assert outcome.get("code") != "SUCCESS" and f"{database}-2" not in kept, (outcome, kept)
    else:
        # The removal waited for the payment (the key's row locked by it): paid before the key was removed; removed now,
        # the machine signs nothing more.
        assert outcome.get("code") == "SUCCESS" and f"{database}-2" in kept, (removal.stderr, outcome, kept)
        superuser_sql(world, database, f"DELETE FROM tender.signing_keys WHERE uid = {uid}")
        after = client(daemon, alice, "pay", password, f"{database}-3")
        assert after.get("code") != "SUCCESS", after
        assert f"{database}-3" not in [key for _, key in ledger_of(world, database, uid)]


def test_a_key_removed_while_a_payment_waits_for_its_account_signs_nothing_after_the_removal(world):
    # Adversary (timing): the database's administrator removes a machine's key (DELETE FROM signing_keys, as
    # test_pg_keys' removal by hand) while that machine's quiet payment is in flight. v4 reads the key in its statement's
    # snapshot (an InitPlan evaluated once) and then waits for the account's row; EvalPlanQual, when the row is free,
    # rechecks the account's row alone, not the key. Here a session of the superuser holds alice's account row (FOR UPDATE,
    # 3 s) to hold the payment at that point; the removal commits meanwhile; the payment then commits a record signed by a
    # key the database no longer holds, answered SUCCESS, after the administrator was told the key was gone.
    # Held when either the removal waits for the payment (the key's row locked by it) or the payment is refused.
    removing_the_key_while_a_payment_waits_for_its_account(world, "v4keyrm", batch=False)


def test_a_key_removed_while_a_batch_waits_for_its_account_signs_nothing_after_the_removal(world):
    # The same through the batch's transaction (the payment function dropped): its keys read took no lock, and at 1d1e54e
    # the batch paid with the removed key (SUCCESS, the record kept after the removal). Its read ends with the store's
    # keysReadLock now (FOR SHARE on PostgreSQL): the removal waits for the payment's COMMIT.
    removing_the_key_while_a_payment_waits_for_its_account(world, "v4keyrmbatch", batch=True)


def test_a_key_removed_while_its_enrollment_of_another_waits_for_a_row_signs_nothing_after_the_removal(world):
    # The same attack on a signing path outside the payment and the batch: the store's own keys read (activeSigner), which
    # every signed entry but the batch's makes (key_added/key_revoked, key_rotation, status, checkpoint, claim seals, a
    # settled claim). Machine A's `tenderd --enroll-key` reads the keys, signs a key_added entry with A's key, then sets the
    # pending key's row enrolled; a session of the superuser holds that row (FOR UPDATE, 3 s) to hold the enrollment there
    # while A's key row is removed by hand. At 05c7fdf the keys read took no lock: the removal committed at once and the
    # enrollment then kept an entry signed by the removed key (exit 0). activeSigner's read ends with the store's
    # keysReadLock now (FOR SHARE on PostgreSQL): the removal waits for the enrollment's COMMIT, or the enrollment is refused.
    from test_postgres import TENDERD  # noqa: E402
    from pg_cluster import run_as  # noqa: E402
    alice, password, database = world["alice"], world["password"], "v4keyrmenroll"
    a = paying_daemon(world, database, f"{database}-0")
    uid = pwd.getpwnam(alice).pw_uid
    a_key = superuser_sql(world, database, f"SELECT kid FROM tender.signing_keys WHERE uid = {uid} AND active = 1")
    assert a_key and "\n" not in a_key, a_key
    # A second machine (a state directory of its own) asked to pay registers its key, pending.
    b = start_daemon(world, f"{database}-b", database=database)
    refused = client(b, alice, "pay", password, f"{database}-b")
    assert refused.get("error") == "KeyFileError", refused
    pending = superuser_sql(world, database, f"SELECT kid FROM tender.signing_keys WHERE uid = {uid} AND active = 2")
    assert pending and "\n" not in pending, pending
    outcome = {}

    def enroll():
        done = run_as(world["names"]["d"], [TENDERD, "--state", a.state, "--store", world["cluster"].uri(database), "--uid", str(uid),
                                            "--enroll-key", pending])
        outcome.update(code=done.returncode, out=done.stdout, err=done.stderr)
    removal, removed_while_waiting = removing_while_held(
        world, database, f"SELECT 1 FROM tender.signing_keys WHERE uid = {uid} AND kid = '{pending}'", enroll,
        f"DELETE FROM tender.signing_keys WHERE uid = {uid} AND kid = '{a_key}'")
    added = superuser_sql(world, database, f"SELECT count(*) FROM tender.ledger WHERE uid = {uid} AND type = 'key_added'")
    if removed_while_waiting:
        assert outcome.get("code") != 0 and added == "0", (outcome, added)
    else:
        # The removal waited for the enrollment (A's key row held by its keys read): enrolled before A's key was removed;
        # removed now, A signs nothing more.
        assert outcome.get("code") == 0 and added == "1", (removal.stderr, outcome, added)
        superuser_sql(world, database, f"DELETE FROM tender.signing_keys WHERE uid = {uid} AND kid = '{a_key}'")
        after = client(a, alice, "pay", password, f"{database}-1")
        assert after.get("code") != "SUCCESS", after
        assert f"{database}-1" not in [key for _, key in ledger_of(world, database, uid)]


def test_a_policy_added_under_a_running_daemon_moves_no_other_persons_money_and_forks_no_chain(world):
    # Adversary: tenderd's role (the tables' owner: an operator with its password, a migration script of theirs) adds a
    # policy beside tenderd's while the daemon runs: row security stays on and forced, so row_security_active holds and
    # v4's two checks pass. The daemon's check of foreign policies runs at open only (test_pg_payment_call_adversary's
    # test_a_policy_that_shows_every_persons_rows_is_refused_at_open restarts the daemon). Then:
    # - `CREATE POLICY reporting ON tender.accounts USING (true)`: v4's debit `WHERE a.id = 'checking'` matches bob's
    #   `checking` too; LIMIT 1 limits the record, not the UPDATE (a data-modifying CTE runs to completion): bob is debited
    #   for alice's payment.
    # - `CREATE POLICY reporting ON tender.ledger FOR SELECT USING (true)`: alice's head is read as bob's (his 50).
    # Held when bob's balance does not move and alice's chain stays 1..N (refused, or paid from her rows alone).
    alice, password = world["alice"], world["password"]
    database = "v4policy"
    daemon, uid, bob, sql = alice_beside_bob(world, database)
    found = []
    for table, policy, key in (("accounts", "USING (true)", "v4policy-accounts"),
                               ("ledger", "FOR SELECT USING (true)", "v4policy-ledger")):
        if table == "ledger":
            code, out, err = sql("INSERT INTO tender.ledger (sequence, type, jws, hash) VALUES (50, 'note', 'bob.jws.x', 'bob-hash')",
                                 person=bob)
            assert code == 0, err
        before = checking_balances(world, database)
        code, out, err = sql(f"CREATE POLICY reporting ON tender.{table} {policy}")
        assert code == 0, err
        try:
            outcome = client(daemon, alice, "pay", password, key)
        finally:
            code, out, err = sql(f"DROP POLICY reporting ON tender.{table}")
            assert code == 0, err
        after = checking_balances(world, database)
        rows = ledger_of(world, database, uid)
        if dict(pair.split(":") for pair in after.split(","))[str(bob)] != "500000":
            found.append((table, "bob debited", outcome.get("code"), before, after))
        if [s for s, _ in rows] != list(range(1, len(rows) + 1)):
            found.append((table, "alice's chain broken", outcome.get("code"), [s for s, _ in rows]))
        superuser_sql(world, database, f"UPDATE tender.accounts SET balance_minor = 500000 WHERE uid = {bob}")
    assert found == [], found
    code, out, err = sql("DELETE FROM tender.accounts; DELETE FROM tender.ledger", person=bob)
    assert code == 0, err


def test_racing_calls_by_hand_see_the_head_the_lock_holder_committed_and_never_fail_on_a_constraint(world):
    # Adversary (READ COMMITTED's snapshots): three sessions of tenderd's role call v4 at once for one person, each at the
    # head its own statement read before the function took the lock (so every caller but the lock's first holder brings a
    # stale head), with overlapping and distinct idempotency keys. Were the debit's statement to read the head or the keys
    # in a snapshot taken before the lock was granted, a stale head would pass its check and the insert fail on
    # ledger_pkey (or a key paid by the holder fail on its unique index): an error where the answer is 'head' or 'paid
    # before'. Held: no call errs, each answer is paid / head / paid before, one row a key, 1..N, the balance moved by the
    # rows kept exactly.
    alice = world["alice"]
    database = "v4direct"
    paying_daemon(world, database, "v4direct-0")
    uid = pwd.getpwnam(alice).pw_uid
    sql = owner_sql(world, database, uid)
    code, key, err = sql("SELECT kid || '|' || encode(public_key, 'hex') FROM tender.signing_keys WHERE active = 1 LIMIT 1")
    assert code == 0 and "|" in key, err
    kid, public = key.split("|")
    balance = f"SELECT balance_minor FROM tender.accounts WHERE uid = {uid} AND id = 'checking'"
    before = int(superuser_sql(world, database, balance))
    rows_before = len(ledger_of(world, database, uid))
    entry = pwd.getpwnam(world["names"]["d"])
    workers = []
    for worker in range(3):
        keys = [k for i in range(30) for k in (f"v4direct-shared-{i}", f"v4direct-w{worker}-{i}")]
        path = os.path.join(world["base"], f"v4direct-{worker}.sql")
        with open(path, "w") as f:
            f.write(f"SET tender.uid = '{uid}';\n" + "".join(call_sql(world, uid, kid, public, k) + ";\n" for k in keys))
        os.chmod(path, 0o644)
        workers.append(subprocess.Popen(["setpriv", f"--reuid={entry.pw_uid}", f"--regid={entry.pw_gid}", "--clear-groups", "--",
                                         os.path.join(PGBIN, "psql"), "-h", world["cluster"].socket, "-d", database, "-X", "-q", "-A",
                                         "-t", "-f", path], cwd="/", stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
    answers, errors = [], []
    for process in workers:
        out, err = process.communicate(timeout=120)
        answers += [line for line in out.splitlines() if line]
        errors += [line for line in err.splitlines() if "ERROR" in line]
    assert errors == [], errors[:5]
    assert set(answers) <= {"paid", "head", "paid before"} and len(answers) == 180, (set(answers), len(answers))
    rows = ledger_of(world, database, uid)
    keys = [k for _, k in rows if k]
    assert len(keys) == len(set(keys)), keys
    assert [s for s, _ in rows] == list(range(1, len(rows) + 1)), rows
    kept = len(rows) - rows_before
    assert answers.count("paid") == kept > 0, (answers.count("paid"), kept)
    assert before - int(superuser_sql(world, database, balance)) == kept, (before, kept)
    print(f"by hand: {answers.count('paid')} paid, {answers.count('head')} head, {answers.count('paid before')} paid before")


def start_previous_daemon(world, monkeypatch, name, **options):
    """A tenderd of the previous build (TENDERD_PREVIOUS, built from `git archive d8fe62f` or pg39: schema 3), copied where
    tenderd's user can run it and started as `start_daemon` starts this build's, with `options`; the test is skipped
    without it."""
    previous = os.environ.get("TENDERD_PREVIOUS")
    if not previous or not os.path.exists(previous):
        import pytest
        pytest.skip("TENDERD_PREVIOUS (a tenderd of the previous build) not given")
    import shutil
    import test_broker
    copy = os.path.join(world["base"], f"tenderd-previous-{name}")
    shutil.copy(previous, copy)
    os.chmod(copy, 0o755)
    monkeypatch.setattr(test_broker, "TENDERD", copy)
    try:
        return start_daemon(world, name, **options)
    finally:
        monkeypatch.undo()


def test_a_daemon_of_the_previous_build_beside_this_ones_is_refused_whole_and_moves_no_money(world, monkeypatch):
    # Adversary: a rolling upgrade, the previous build's tenderd (d8fe62f or pg39: schema 3) beside this build's on one
    # database, the same state (key), one person paying from both. Until schema 4 both paid (v3 and v4 raced under the
    # person's lock, one chain). Schema 4 adds tenderd's restrictive policy (person_only), which the previous build's check at
    # open takes for a foreign policy: that daemon is refused whole (nothing paid, no money moved), this build's pays on,
    # one chain. Stop every older daemon before upgrading (docs/scale.md). TENDERD_PREVIOUS names that build's tenderd
    # (built from `git archive d8fe62f` or pg39); skipped without it.
    alice, password = world["alice"], world["password"]
    database = "v4mixed"
    new = paying_daemon(world, database, "v4mixed-0")
    old = start_previous_daemon(world, monkeypatch, "v4mixed-old", database=database, state=new.state)
    uid = pwd.getpwnam(alice).pw_uid
    balance = f"SELECT balance_minor FROM tender.accounts WHERE uid = {uid} AND id = 'checking'"
    before = int(superuser_sql(world, database, balance))
    rows_before = ledger_of(world, database, uid)
    refused = client(old, alice, "pay", password, "v4mixed-old-1")
    assert refused.get("code") != "SUCCESS" and "person_only" in str(refused), refused
    assert ledger_of(world, database, uid) == rows_before and int(superuser_sql(world, database, balance)) == before
    assert client(new, alice, "pay", password, "v4mixed-1")["code"] == "SUCCESS"
    assert [k for _, k in ledger_of(world, database, uid) if k] == ["v4mixed-0", "v4mixed-1"]
    assert_one_chain_that_verifies(world, new, alice, database)
    old.kill(15)


def test_bypassrls_given_while_a_payment_waits_for_its_account_is_refused_whole(world):
    # Adversary (timing): the cluster's superuser gives tenderd's role BYPASSRLS while a quiet payment waits for alice's
    # account row (held FOR UPDATE 2 s by a session of the superuser, as above). No table lock stands in its way (ALTER
    # ROLE takes none), and the statements after the wait (paid party, claim, audit) are planned without row security.
    # Held when the check before `paid` refuses the call whole: nothing of it kept, bob's account untouched.
    alice, password = world["alice"], world["password"]
    database = "v4bypass"
    daemon, uid, bob, _ = alice_beside_bob(world, database)
    role = world["names"]["d"]
    holder = superuser_session(world, database, f"BEGIN; SELECT 1 FROM tender.accounts WHERE uid = {uid} AND id = 'checking' FOR UPDATE; "
                               "SELECT pg_sleep(2); COMMIT")
    time.sleep(0.5)
    outcome = {}
    paying = threading.Thread(target=lambda: outcome.update(client(daemon, alice, "pay", password, "v4bypass-2")))
    paying.start()
    try:
        wait_for_a_payment_waiting_on_a_row(world, database)
        superuser_sql(world, "postgres", f'ALTER ROLE "{role}" BYPASSRLS')
    finally:
        holder.communicate(timeout=30)
        paying.join(timeout=60)
        superuser_sql(world, "postgres", f'ALTER ROLE "{role}" NOBYPASSRLS')
    kept = [key for _, key in ledger_of(world, database, uid)]
    assert outcome.get("code") != "SUCCESS" and "v4bypass-2" not in kept, (outcome, kept)
    assert dict(pair.split(":") for pair in checking_balances(world, database).split(","))[str(bob)] == "500000"
    assert client(daemon, alice, "pay", password, "v4bypass-3")["code"] == "SUCCESS"
    superuser_sql(world, database, f"DELETE FROM tender.accounts WHERE uid = {bob}")
    assert_one_chain_that_verifies(world, daemon, alice, database)



def test_a_policy_added_under_a_running_daemon_moves_no_other_persons_money_through_the_batch(world):
    # As the test above, through the batch's transaction (the payment function dropped, as
    # test_a_table_whose_row_security_is_turned_off_under_a_running_daemon_moves_no_other_persons_money does; a payment
    # the function answers anything but `paid`, a submitter not quiet, a build before the function take the same path).
    # Open at adv-pg39 (bob debited): the batch's statements name no person. Closed by tenderd's restrictive policy
    # (person_only, schema 4), ANDed with every permissive one: the added policy widens nothing.
    alice, password = world["alice"], world["password"]
    database = "v4policybatch"
    daemon, uid, bob, sql = alice_beside_bob(world, database, warm=False)
    code, out, err = sql(f"DROP FUNCTION {PAYMENT}")
    assert code == 0, err
    code, out, err = sql("CREATE POLICY reporting ON tender.accounts USING (true)")
    assert code == 0, err
    try:
        outcome = client(daemon, alice, "pay", password, "v4policybatch-1")
    finally:
        code, out, err = sql("DROP POLICY reporting ON tender.accounts")
        assert code == 0, err
    balances = checking_balances(world, database)
    assert dict(pair.split(":") for pair in balances.split(","))[str(bob)] == "500000", (outcome, balances)


def test_a_policy_added_under_a_running_daemon_shows_alice_none_of_bobs_payments(world):
    # Adversary: as above, `CREATE POLICY reporting ON tender.ledger FOR SELECT USING (true)` by tenderd's role (meant for a
    # reporting role, given to PUBLIC) while the daemon runs, and bob's ledger beside alice's: here a copy of alice's own
    # signed record (a valid JWS) as bob's. alice's `payments` (a read transaction through the broker) lists bob's record
    # too, at 1d1e54e and after: {'keys': ['v4policyread-0', 'v4policyread-0']}. A real bob's record would show his payee
    # and amount to alice. Held would be her own record alone, or a refusal: held since schema 4 (person_only, restrictive).
    alice = world["alice"]
    database = "v4policyread"
    daemon = paying_daemon(world, database, "v4policyread-0")
    uid = pwd.getpwnam(alice).pw_uid
    bob = uid + 1
    sql = owner_sql(world, database, uid)
    superuser_sql(world, database, "INSERT INTO tender.ledger (uid, sequence, type, jws, hash, idempotency_key, fingerprint, amount_minor, "
                  f"currency) SELECT {bob}, sequence, type, jws, hash, idempotency_key, fingerprint, amount_minor, currency "
                  f"FROM tender.ledger WHERE uid = {uid} AND idempotency_key = 'v4policyread-0'")
    code, out, err = sql("CREATE POLICY reporting ON tender.ledger FOR SELECT USING (true)")
    assert code == 0, err
    try:
        listed = client(daemon, alice, "payments")
    finally:
        code, out, err = sql("DROP POLICY reporting ON tender.ledger")
        assert code == 0, err
    assert listed.get("keys", ["v4policyread-0"]) == ["v4policyread-0"], listed


def person_only_policies(sql):
    """How many tables of the schema hold tenderd's restrictive policy (person_only), as tenderd's role reads the catalog."""
    code, out, err = sql("SELECT count(*) FROM pg_policy WHERE polname = 'person_only' AND NOT polpermissive AND polrelid IN "
                         "(SELECT oid FROM pg_class WHERE relnamespace = 'tender'::regnamespace)")
    assert code == 0, err
    return int(out)


def dropping_person_only(world, database):
    """The statements that drop tenderd's restrictive policy from every table holding it: an earlier build's database."""
    return "; ".join(f"DROP POLICY person_only ON tender.{table}" for table in superuser_sql(
        world, database, "SELECT string_agg(c.relname, ' ') FROM pg_policy p JOIN pg_class c ON c.oid = p.polrelid "
        "WHERE p.polname = 'person_only'").split())


def test_a_database_without_tenderds_restrictive_policy_is_refused_at_open_and_an_older_one_gains_it(world):
    # The confinement is verified at open. Adversary: tenderd's role (the tables' owner) drops person_only on one table
    # (then a permissive policy added while a daemon runs would show and take every person's rows of it): refused at the
    # next open, naming the table and the policy. A policy of its own for another role (`TO pg_monitor`) is refused too (not
    # taken for tenderd's). A database of an earlier build (schema 3: the permissive policy alone on every table) gains
    # person_only on all 17 tables at its next open (schema 4), and payments go on, one chain.
    alice, password = world["alice"], world["password"]
    database = "v4restrictive"
    daemon = paying_daemon(world, database, "v4restrictive-0")
    uid = pwd.getpwnam(alice).pw_uid
    sql = owner_sql(world, database, uid)
    assert person_only_policies(sql) == 17  # the 16 tables of persons' rows and reuse_grants
    code, out, err = sql("DROP POLICY person_only ON tender.accounts")
    assert code == 0, err
    daemon.kill(15)
    daemon.start()
    outcome = client(daemon, alice, "pay", password, "v4restrictive-1")
    assert outcome.get("code") != "SUCCESS", outcome
    assert "tender.accounts" in outcome.get("message", "") and "person_only" in outcome.get("message", ""), outcome
    code, out, err = sql("CREATE POLICY person_only ON tender.accounts AS RESTRICTIVE USING (uid = current_setting('tender.uid')::bigint) "
                         "WITH CHECK (uid = current_setting('tender.uid')::bigint); "
                         "CREATE POLICY reporting ON tender.ledger TO pg_monitor USING (true)")
    assert code == 0, err
    daemon.kill(15)
    daemon.start()
    outcome = client(daemon, alice, "pay", password, "v4restrictive-2")
    assert outcome.get("code") != "SUCCESS", outcome
    assert "tender.ledger" in outcome.get("message", "") and "reporting" in outcome.get("message", ""), outcome
    # An earlier build's database: the permissive policy alone, version 3.
    drops = dropping_person_only(world, database)
    code, out, err = sql(f"DROP POLICY reporting ON tender.ledger; {drops}; "
                         "DELETE FROM tender.tender_schema; INSERT INTO tender.tender_schema (version) VALUES (3)")
    assert code == 0, err
    assert person_only_policies(sql) == 0
    daemon.kill(15)
    daemon.start()
    assert client(daemon, alice, "pay", password, "v4restrictive-3")["code"] == "SUCCESS"
    assert person_only_policies(sql) == 17
    assert superuser_sql(world, database, "SELECT max(version) FROM tender.tender_schema") == "4"
    assert sorted(client(daemon, alice, "payments")["keys"]) == ["v4restrictive-0", "v4restrictive-3"]
    assert_one_chain_that_verifies(world, daemon, alice, database)


def test_a_database_made_by_the_previous_build_gains_the_restrictive_policy_at_its_next_open(world, monkeypatch):
    # A real older database: made and paid into by the previous build's tenderd (TENDERD_PREVIOUS, built at d8fe62f or pg39:
    # schema 3, the permissive policy alone), then opened by this build's: person_only on all 17 tables, schema 4, payments
    # go on, one chain. Skipped without TENDERD_PREVIOUS.
    from test_pg_security import new_database
    alice, password = world["alice"], world["password"]
    database = "v4upgrade"
    new_database(world, database)
    old = start_previous_daemon(world, monkeypatch, "v4upgrade-old", database=database)
    assert client(old, alice, "setup") == {"ok": True}
    assert client(old, alice, "pay", password, "v4upgrade-0")["code"] == "SUCCESS"
    uid = pwd.getpwnam(alice).pw_uid
    sql = owner_sql(world, database, uid)
    assert person_only_policies(sql) == 0
    assert superuser_sql(world, database, "SELECT max(version) FROM tender.tender_schema") == "3"
    old.kill(15)
    new = start_daemon(world, "v4upgrade-new", database=database, state=old.state)
    assert client(new, alice, "pay", password, "v4upgrade-1")["code"] == "SUCCESS"
    assert person_only_policies(sql) == 17
    assert superuser_sql(world, database, "SELECT max(version) FROM tender.tender_schema") == "4"
    assert sorted(client(new, alice, "payments")["keys"]) == ["v4upgrade-0", "v4upgrade-1"]
    assert_one_chain_that_verifies(world, new, alice, database)


def test_an_older_database_without_its_budgets_table_opens_and_its_budgets_still_fail_closed(world):
    # A schema-3 database whose tender.reuse_grants was dropped (by tenderd's role, the tables' owner): the v3 build served
    # it, every reuse budget failing closed (the password asked each time, test_pg_security's renamed table). At 05c7fdf
    # the upgrade to schema 4 ran CREATE POLICY person_only ON reuse_grants regardless: it failed, the whole upgrade was
    # rolled back, and every open was refused with PostgreSQL's bare "relation does not exist". The upgrade now skips an
    # absent reuse_grants (as it found it: not made again, so budgets still fail closed), and the open's policy check reads
    # the tables there are.
    from test_pg_security import new_database
    reuse = {"restrictedIntents": ["send_payment"], "reuseSeconds": 120, "reuseCount": 2}
    alice, password, database = world["alice"], world["password"], "v4nogrants"
    new_database(world, database)
    daemon = start_daemon(world, database, database=database, authentication=reuse)
    assert client(daemon, alice, "setup") == {"ok": True}
    assert client(daemon, alice, "pay", password, f"{database}-0")["code"] == "SUCCESS"
    uid = pwd.getpwnam(alice).pw_uid
    sql = owner_sql(world, database, uid)
    drops = dropping_person_only(world, database)
    code, out, err = sql(f"{drops}; DROP TABLE tender.reuse_grants; "
                         "DELETE FROM tender.tender_schema; INSERT INTO tender.tender_schema (version) VALUES (3)")
    assert code == 0, err
    assert person_only_policies(sql) == 0
    for opening in range(2):  # the upgrade, then an open of the upgraded database
        daemon.kill(15)
        daemon.start()
        outcome = client(daemon, alice, "pay", password, f"{database}-{opening + 1}")
        assert outcome.get("code") == "SUCCESS", outcome
        assert person_only_policies(sql) == 16
        assert superuser_sql(world, database, "SELECT max(version) FROM tender.tender_schema") == "4"
        assert superuser_sql(world, database, "SELECT to_regclass('tender.reuse_grants') IS NULL") == "t"
        # No budget: no password, no payment.
        outcome = client(daemon, alice, "pay", "-", f"{database}-reused-{opening}")
        assert outcome.get("code") != "SUCCESS", outcome
    assert sorted(client(daemon, alice, "payments")["keys"]) == [f"{database}-{n}" for n in range(3)]
    assert_one_chain_that_verifies(world, daemon, alice, database)
