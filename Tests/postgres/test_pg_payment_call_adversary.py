# SPDX-License-Identifier: Apache-2.0
"""The payment function's second version (tender.pay_prepared_v2, pg38; v3 now) attacked where v2 changed what v1 did: the role check
by row_security_active on the ledger alone. A throwaway cluster, as test_pg_security; run as root (make test-postgres)."""

import os
import pwd
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from test_postgres import pytestmark  # noqa: E402,F401  (the same skips)
from test_postgres import client  # noqa: E402
from test_pg_security import PAYMENT, assert_one_chain_that_verifies, hold_lock, paying_daemon, world  # noqa: E402,F401

# Every table the payment function reads or writes: row-level security must hold tenderd's role on each of them.
TOUCHED = ("accounts", "signing_keys", "ledger", "paid_parties", "claims", "audit")


def owner_sql(world, database, person):
    """sql(statement, person=person): `statement` run as tenderd's role (the tables' owner) in `database`, naming `person` for
    row-level security; its (returncode, stdout, stderr), stripped."""
    def sql(statement, person=person):
        done = world["cluster"].sql(world["names"]["d"], f"SET tender.uid = '{person}'; {statement}", database=database)
        return done.returncode, done.stdout.strip(), done.stderr.strip()
    return sql


def checking_balances(world, database):
    """Every person's `checking` balance, read by the cluster's superuser (every person's rows)."""
    done = world["cluster"].sql(world["names"]["p"], "SELECT string_agg(uid || ':' || balance_minor, ',' ORDER BY uid) FROM "
                                "tender.accounts WHERE id = 'checking'", database=database)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def bob_checking(sql, bob):
    """Another person of the same deployment (bob): a `checking` account of the same id as alice's, 5,000.00 USD."""
    code, out, err = sql("INSERT INTO tender.accounts (id, kind, currency, balance_minor, is_default, position) "
                         "VALUES ('checking', 'checking', 'USD', 500000, 1, 1)", person=bob)
    assert code == 0, err


def bob_beside(sql, bob):
    """bob's `checking` (``bob_checking``) and the same machine's key enrolled for him. The key's id and public key (hex)."""
    code, key, err = sql("SELECT kid || '|' || encode(public_key, 'hex') FROM tender.signing_keys WHERE active = 1 LIMIT 1")
    assert code == 0 and "|" in key, err
    kid, public = key.split("|")
    bob_checking(sql, bob)
    code, out, err = sql("INSERT INTO tender.signing_keys (kid, public_key, created_at_ms, active) "
                         f"VALUES ('{kid}', '\\x{public}'::bytea, 1, 1)", person=bob)
    assert code == 0, err
    return kid, public


def alice_beside_bob(world, database, warm=True):
    """A daemon paying for alice in `database` (warmed when `warm`: its next payment quiet) and bob's `checking` beside
    hers: (the daemon, alice's uid, bob's, the owner's `sql`)."""
    daemon = paying_daemon(world, database, f"{database}-0")
    if warm:
        assert client(daemon, world["alice"], "pay", world["password"], f"{database}-1")["code"] == "SUCCESS"
    uid = pwd.getpwnam(world["alice"]).pw_uid
    sql = owner_sql(world, database, uid)
    bob_checking(sql, uid + 1)
    return daemon, uid, uid + 1, sql


def forged_call(uid, kid, public, key, tail):
    """A call of the payment function by hand for `uid`, at the head its ledger holds, of 1 cent from `checking` under the
    idempotency `key`; `tail`: its paid party, claim and audit arguments."""
    head = "(SELECT sequence FROM tender.ledger ORDER BY sequence DESC LIMIT 1)"
    head_hash = "(SELECT hash FROM tender.ledger ORDER BY sequence DESC LIMIT 1)"
    return (f"SELECT tender.pay_prepared_v4({uid}, {0x54454E44}, {uid}::bigint::bit(32)::integer, '{kid}', '\\x{public}'::bytea, "
            f"{head}, {head_hash}, 'forged.jws.x', 'forged-hash', '{key}', '\\x07'::bytea, 'checking', NULL, NULL, 'USD', 1, "
            f"'{{checking}}', '{{-1}}', '{{USD}}', {tail})")


def test_the_payment_function_refuses_when_row_security_is_off_on_any_table_it_touches(world):
    # Adversary: tenderd's role (the tables' owner: an operator with its password, a migration script of theirs) turns off, or
    # stops forcing, row-level security on one table the function touches, while a daemon runs. The owner then reads and
    # writes every person's rows of that table: the function's `UPDATE tender.accounts ... WHERE id = 'checking'` debits
    # every person's account of that id, its key check finds another person's enrolled key. At 8411146 v2 checked the ledger
    # alone (row_security_active on tender.ledger): with the accounts' security off it paid, and moved bob's money too.
    # Every table it touches must be held by row security; else refused (42501), nothing written, anyone's.
    alice = world["alice"]
    daemon = paying_daemon(world, "payrlsall", "payrlsall-0")
    uid = pwd.getpwnam(alice).pw_uid
    bob = uid + 1

    sql = owner_sql(world, "payrlsall", uid)
    kid, public = bob_beside(sql, bob)

    def state():
        # Read by the cluster's superuser: every person's rows.
        done = world["cluster"].sql(world["names"]["p"], "SELECT (SELECT string_agg(uid || ':' || sequence, ',' ORDER BY uid, sequence) "
                                    "FROM tender.ledger), (SELECT string_agg(uid || ':' || id || ':' || balance_minor, ',' ORDER BY uid, id) "
                                    "FROM tender.accounts), (SELECT count(*) FROM tender.audit), (SELECT count(*) FROM tender.paid_parties)",
                                    database="payrlsall")
        assert done.returncode == 0, done.stderr
        return done.stdout.strip()

    call = forged_call(uid, kid, public, "rlsoff", "'party-rlsoff', false, '{1}', '{rlsoff}', '{authenticated}', '{pay}', '{rlsoff}'")
    before = state()
    for table in TOUCHED:
        for off, on in (("NO FORCE", "FORCE"), ("DISABLE", "ENABLE")):
            code, out, err = sql(f"ALTER TABLE tender.{table} {off} ROW LEVEL SECURITY; {call}")
            restored = sql(f"ALTER TABLE tender.{table} {on} ROW LEVEL SECURITY")
            assert restored[0] == 0, restored
            assert code != 0 and "BYPASSRLS" in err, (table, off, code, out, err)
            assert state() == before, (table, off)
    # All of them held again: the same call pays (the check refuses what it should only), alice's account alone debited.
    code, out, err = sql(call)
    assert (code, out) == (0, "paid"), err
    code, out, err = sql("SELECT balance_minor FROM tender.accounts WHERE id = 'checking'", person=bob)
    assert (code, out) == (0, "500000"), (out, err)
    # The hand-made rows out again: the daemon's own payments go on, on one chain.
    code, out, err = sql("DELETE FROM tender.ledger WHERE idempotency_key = 'rlsoff'; DELETE FROM tender.audit WHERE \"user\" = 'rlsoff'; "
                         "DELETE FROM tender.paid_parties WHERE party = 'party-rlsoff'; "
                         "UPDATE tender.accounts SET balance_minor = balance_minor + 1 WHERE id = 'checking'")
    assert code == 0, err
    assert state() == before
    code, out, err = sql("DELETE FROM tender.accounts; DELETE FROM tender.signing_keys", person=bob)
    assert code == 0, err
    daemon.kill(15)
    daemon.start()
    assert client(daemon, alice, "pay", world["password"], "payrlsall-1")["code"] == "SUCCESS"
    assert_one_chain_that_verifies(world, daemon, alice, "payrlsall")


def test_a_table_whose_row_security_is_turned_off_under_a_running_daemon_moves_no_other_persons_money(world):
    # Adversary: as above, the accounts' forced row security turned off by their owner while the daemon runs, with another
    # person's account of the same id (bob's `checking`). At 8411146 alice's quiet payment (one call of v2) and her batch's
    # transaction (the opening function checked the role alone) each debited bob's `checking` too. Both are refused now
    # (42501: the payment fails, nothing written), and pay again once the security is forced again.
    alice = world["alice"]
    # Warm: the next payment is quiet (one call of the payment function).
    daemon, uid, bob, sql = alice_beside_bob(world, "rlsdaemon")

    def balances():
        return checking_balances(world, "rlsdaemon")

    for path in ("function", "batch"):
        if path == "batch":
            code, out, err = sql(f"DROP FUNCTION {PAYMENT}")
            assert code == 0, err
        before = balances()
        code, out, err = sql("ALTER TABLE tender.accounts NO FORCE ROW LEVEL SECURITY")
        assert code == 0, err
        try:
            outcome = client(daemon, alice, "pay", world["password"], f"rlsdaemon-off-{path}")
        finally:
            code, out, err = sql("ALTER TABLE tender.accounts FORCE ROW LEVEL SECURITY")
            assert code == 0, err
        after = balances()
        assert after == before, (path, outcome, before, after)
        assert outcome.get("code") != "SUCCESS", (path, outcome)
        assert f"rlsdaemon-off-{path}" not in client(daemon, alice, "payments")["keys"], path
    # The reuse budgets' table too (another person's budget would let a payment through without the password): refused.
    code, out, err = sql("ALTER TABLE tender.reuse_grants NO FORCE ROW LEVEL SECURITY")
    assert code == 0, err
    try:
        outcome = client(daemon, alice, "pay", world["password"], "rlsdaemon-off-budgets")
    finally:
        code, out, err = sql("ALTER TABLE tender.reuse_grants FORCE ROW LEVEL SECURITY")
        assert code == 0, err
    assert outcome.get("code") != "SUCCESS", outcome
    # Forced again: alice pays, from her account alone.
    before = balances()
    assert client(daemon, alice, "pay", world["password"], "rlsdaemon-2")["code"] == "SUCCESS"
    after = balances()
    assert after.split(",")[1] == f"{bob}:500000" and after != before, (before, after)
    code, out, err = sql("DELETE FROM tender.accounts", person=bob)
    assert code == 0, err
    assert_one_chain_that_verifies(world, daemon, alice, "rlsdaemon")


def test_a_policy_that_shows_every_persons_rows_is_refused_at_open(world):
    # Adversary: tenderd's role (the tables' owner) adds a policy of its own beside tenderd's, row security still on and
    # forced, so row_security_active still holds: `FOR SELECT USING (true)` on the ledger, meant for a reporting role but
    # given to PUBLIC. tenderd's role then reads every person's rows: alice's head read is bob's (his sequence 50), and at
    # 8411146 her next payment went in at 51, her chain broken (one row, then a gap). The schema's check at open (each
    # daemon start) now refuses a table whose policies are not tenderd's alone; dropped, payments go on, one chain.
    alice = world["alice"]
    daemon = paying_daemon(world, "rlspolicy", "rlspolicy-0")
    uid = pwd.getpwnam(alice).pw_uid
    bob = uid + 1

    sql = owner_sql(world, "rlspolicy", uid)

    code, out, err = sql("INSERT INTO tender.ledger (sequence, type, jws, hash) VALUES (50, 'note', 'bob.jws.x', 'bob-hash')", person=bob)
    assert code == 0, err
    code, out, err = sql("CREATE POLICY reporting ON tender.ledger FOR SELECT USING (true)")
    assert code == 0, err
    daemon.kill(15)
    daemon.start()
    outcome = client(daemon, alice, "pay", world["password"], "rlspolicy-1")
    code, sequences, err = sql("SELECT string_agg(sequence::text, ',' ORDER BY sequence) FROM tender.ledger WHERE uid = "
                               f"{uid}")
    assert outcome.get("code") != "SUCCESS", (outcome, sequences)
    assert "tender.ledger" in outcome.get("message", ""), outcome
    code, out, err = sql("DROP POLICY reporting ON tender.ledger; DELETE FROM tender.ledger", person=bob)
    assert code == 0, err
    daemon.kill(15)
    daemon.start()
    assert client(daemon, alice, "pay", world["password"], "rlspolicy-2")["code"] == "SUCCESS"
    assert sorted(client(daemon, alice, "payments")["keys"]) == ["rlspolicy-0", "rlspolicy-2"]
    assert_one_chain_that_verifies(world, daemon, alice, "rlspolicy")


def test_row_security_turned_off_while_the_call_waits_for_the_persons_lock_is_refused_whole(world):
    # Reviewer (round twelve): v2 checked row security first and then waited for the person's advisory lock, and
    # row_security_active takes no lock on a table. An owner's ALTER TABLE committed during that wait took row security off
    # for every statement after it: bob's `checking` was debited with alice's. v3 checks again before it answers `paid`, when
    # every table it wrote holds its lock until COMMIT: refused (42501), rolled back whole.
    alice = world["alice"]
    paying_daemon(world, "rlswait", "rlswait-0")
    uid = pwd.getpwnam(alice).pw_uid
    bob = uid + 1

    sql = owner_sql(world, "rlswait", uid)

    def balances():
        return checking_balances(world, "rlswait")

    kid, public = bob_beside(sql, bob)
    call = forged_call(uid, kid, public, "rlswait", "NULL, false, '{}', '{}', '{}', '{}', '{}'")
    before = balances()
    holder = hold_lock(world, "rlswait", uid, 4)
    answer = {}
    waiting = threading.Thread(target=lambda: answer.update(call=sql(call)))
    try:
        time.sleep(1.5)  # the holder has the person's lock
        waiting.start()
        time.sleep(1)  # the call has checked row security and waits for the lock
        # The waiting call holds no lock on the accounts, so the owner's change is not held back by it.
        code, out, err = sql("SET lock_timeout = '1s'; ALTER TABLE tender.accounts NO FORCE ROW LEVEL SECURITY")
        assert code == 0, err
        assert waiting.is_alive(), answer
        waiting.join(60)
    finally:
        holder.wait(60)
        restored = sql("ALTER TABLE tender.accounts FORCE ROW LEVEL SECURITY")
        assert restored[0] == 0, restored
    code, out, err = answer["call"]
    assert code != 0 and "BYPASSRLS" in err, (code, out, err)
    assert balances() == before
    assert sql("SELECT count(*) FROM tender.ledger WHERE idempotency_key = 'rlswait'")[:2] == (0, "0")


def test_row_security_turned_off_while_a_batch_waits_for_the_persons_lock_moves_no_other_persons_money(world):
    # The same on the batch's path (the payment function dropped): the opening function checks row security, then waits for
    # the person's lock; an owner's ALTER TABLE committed during that wait took row security off for the batch's statements.
    # The opening function is called again with COMMIT (no lock, no round trip more) and fails the transaction: nothing kept.
    alice = world["alice"]
    daemon, uid, bob, sql = alice_beside_bob(world, "rlsbatch", warm=False)

    def balances():
        return checking_balances(world, "rlsbatch")

    code, out, err = sql(f"DROP FUNCTION {PAYMENT}")
    assert code == 0, err
    before = balances()
    holder = hold_lock(world, "rlsbatch", uid, 4)
    answer = {}
    paying = threading.Thread(target=lambda: answer.update(pay=client(daemon, alice, "pay", world["password"], "rlsbatch-off")))
    try:
        time.sleep(1.5)  # the holder has the person's lock
        paying.start()
        time.sleep(1.5)  # the batch's opening has checked row security and waits for the lock
        code, out, err = sql("SET lock_timeout = '1s'; ALTER TABLE tender.accounts NO FORCE ROW LEVEL SECURITY")
        assert code == 0, err
        paying.join(60)
    finally:
        holder.wait(60)
        restored = sql("ALTER TABLE tender.accounts FORCE ROW LEVEL SECURITY")
        assert restored[0] == 0, restored
    assert answer["pay"].get("code") != "SUCCESS", answer
    assert balances() == before
    assert "rlsbatch-off" not in client(daemon, alice, "payments")["keys"]
