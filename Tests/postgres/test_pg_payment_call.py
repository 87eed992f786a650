# SPDX-License-Identifier: Apache-2.0
"""The payment function (tender.pay_prepared_v4; v1 at pg36) attacked by a holder of tenderd's own role, the one role that may
call it: forged arguments must write nothing (docs/scale.md, threat model). A throwaway cluster, as test_pg_security."""

import os
import pwd
import sys
import threading
import time

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from test_postgres import pytestmark  # noqa: E402,F401  (the same skips)
from test_postgres import client  # noqa: E402
from test_pg_security import PAYMENT, assert_one_chain_that_verifies, new_database, paying_daemon, start_daemon, superuser, world  # noqa: E402,F401


def pay_with_its_commit_answer_lost(world, daemon, person, database, key):
    """`person` pays under `key` through `daemon` while every COMMIT waits for a synchronous standby that never answers;
    the session whose COMMIT waits (in `database`) is terminated, so the server kept what the COMMIT wrote and its answer is
    lost. The standby setting is reset whatever happens. The client's outcome."""
    outcome = {}
    superuser(world, "ALTER SYSTEM SET synchronous_standby_names = 'nobody'", "postgres")
    superuser(world, "SELECT pg_reload_conf()", "postgres")
    try:
        paying = threading.Thread(target=lambda: outcome.update(client(daemon, person, "pay", world["password"], key)))
        paying.start()
        waiting = ""
        deadline = time.monotonic() + 20
        while not waiting and time.monotonic() < deadline:
            done = world["cluster"].sql(world["names"]["p"], "SELECT pid FROM pg_catalog.pg_stat_activity WHERE datname = "
                                        f"'{database}' AND wait_event = 'SyncRep'", database="postgres")
            waiting = done.stdout.strip()
            time.sleep(0.02)
        assert waiting, "the payment's COMMIT never waited for the standby"
        superuser(world, f"SELECT pg_catalog.pg_terminate_backend({waiting.splitlines()[0]})", "postgres")
    finally:
        superuser(world, "ALTER SYSTEM RESET synchronous_standby_names", "postgres")
        superuser(world, "SELECT pg_reload_conf()", "postgres")
    paying.join(timeout=30)
    return outcome


def test_the_payment_function_given_nulls_or_another_persons_lock_writes_nothing(world):
    # Adversary: tenderd's role calling the function by hand. A NULL compared with `<>` is neither equal nor unequal, so at
    # 8403c45 a NULL head hash passed the head check and a NULL currency the account's (a record inserted at the head
    # without either check); a NULL lock key took no lock, another person's lock key wrote under the wrong lock. Each is
    # refused now, writing nothing; the payments after them pay and the chain verifies.
    role, alice = world["names"]["d"], world["alice"]
    daemon = paying_daemon(world, "paynulls", "paynulls-0")
    uid = pwd.getpwnam(alice).pw_uid

    def sql(statement):
        done = world["cluster"].sql(role, f"SET tender.uid = '{uid}'; {statement}", database="paynulls")
        return done.returncode, done.stdout.strip(), done.stderr.strip()

    def state():
        code, out, err = sql("SELECT (SELECT string_agg(sequence || ':' || coalesce(idempotency_key, ''), ',' ORDER BY sequence) "
                             "FROM tender.ledger), (SELECT string_agg(id || ':' || balance_minor, ',' ORDER BY id) FROM tender.accounts), "
                             "(SELECT count(*) FROM tender.audit WHERE \"user\" = 'forged')")
        assert code == 0, err
        return out

    code, key, err = sql("SELECT kid || '|' || encode(public_key, 'hex') FROM tender.signing_keys WHERE active = 1 LIMIT 1")
    assert code == 0 and "|" in key, err
    kid, public = key.split("|")
    head = "(SELECT sequence FROM tender.ledger ORDER BY sequence DESC LIMIT 1)"
    head_hash = "(SELECT hash FROM tender.ledger ORDER BY sequence DESC LIMIT 1)"
    honest = {"person": str(uid), "space": str(0x54454E44), "lock": f"{uid}::bigint::bit(32)::integer", "kid": f"'{kid}'",
              "key": f"'\\x{public}'::bytea", "head": head, "hash": head_hash, "idem": "'forged'", "currency": "'{USD}'",
              "delta": "'{-1}'", "account": "'{checking}'", "audit_at": "'{1}'", "audit_user": "'{forged}'", "audit_detail": "'{forged}'"}

    def call(**forged):
        a = dict(honest, **forged)
        return sql(f"SELECT tender.pay_prepared_v4({a['person']}, {a['space']}, {a['lock']}, {a['kid']}, {a['key']}, {a['head']}, "
                   f"{a['hash']}, 'forged.jws.x', 'forged-hash', {a['idem']}, '\\x07'::bytea, 'checking', NULL, NULL, 'USD', 1, "
                   f"{a['account']}::text[], {a['delta']}::bigint[], {a['currency']}::text[], NULL, false, {a['audit_at']}, {a['audit_user']}, "
                   f"'{{authenticated}}', '{{pay}}', {a['audit_detail']})")

    before = state()
    other = str(uid + 1)
    for forged in ({"hash": "NULL"}, {"head": "NULL"}, {"currency": "'{NULL}'"}, {"currency": "'{}'"}, {"delta": "'{NULL}'"},
                   {"delta": "'{}'"}, {"idem": "NULL"}, {"kid": "NULL"}, {"key": "NULL"}, {"lock": "NULL"}, {"space": "NULL"},
                   {"lock": other}, {"space": "1"}, {"person": "NULL"},
                   # Audit arrays of unequal lengths (v2): at pay_prepared_v1 an entry's extra user was ignored and the record paid.
                   {"audit_user": "'{forged,extra}'"}, {"audit_detail": "'{}'"}, {"audit_at": "'{1,2}'"}):
        code, out, err = call(**forged)
        assert out != "paid", (forged, out, err)
        assert state() == before, (forged, out, err)
    # The honest call still pays (the checks refuse what they should only).
    code, out, err = call(idem="'honest-by-hand'")
    assert (code, out) == (0, "paid"), err
    code, out, err = sql("DELETE FROM tender.audit WHERE \"user\" = 'forged'")
    assert code == 0, err
    # What the hand-made row is: a forged JWS verify refuses; the daemon's own payments go after it on one chain.
    code, out, err = sql("DELETE FROM tender.ledger WHERE idempotency_key = 'honest-by-hand'; UPDATE tender.accounts SET "
                         "balance_minor = balance_minor + 1 WHERE id = 'checking'")
    assert code == 0, err
    assert state() == before
    daemon.kill(15)
    daemon.start()
    for key in ("paynulls-1", "paynulls-2"):
        assert client(daemon, alice, "pay", world["password"], key)["code"] == "SUCCESS", key
    assert sorted(client(daemon, alice, "payments")["keys"]) == ["paynulls-0", "paynulls-1", "paynulls-2"]
    assert_one_chain_that_verifies(world, daemon, alice, "paynulls")


OTHER_TENDERD = os.environ.get("TENDER_TEST_OTHER_TENDERD")


@pytest.mark.skipif(not OTHER_TENDERD, reason="TENDER_TEST_OTHER_TENDERD names no tenderd of another build (one built at 2467df6, "
                    "before the payment function, says whether the two keep one chain)")
def test_a_tenderd_of_another_build_on_the_same_database_pays_each_key_once_on_one_chain(world):
    # Adversary: a second tenderd of an older (or newer) build on the same database, the same person, the same keys: it pays
    # through its batch's transaction (or a function of another version) while this one pays quiet payments in one call.
    # Each key asked through both at once is paid once (both answer the same record), and the chain verifies through both.
    import shutil
    import test_broker
    alice = world["alice"]
    new_database(world, "mixed")
    ours = start_daemon(world, "mixed-ours", database="mixed")
    assert client(ours, alice, "setup") == {"ok": True}
    other_binary = os.path.join(world["base"], "other-tenderd")
    shutil.copy(OTHER_TENDERD, other_binary)
    os.chmod(other_binary, 0o755)
    ours_binary, test_broker.TENDERD = test_broker.TENDERD, other_binary
    try:
        theirs = start_daemon(world, "mixed-theirs", database="mixed", state=ours.state)
    finally:
        test_broker.TENDERD = ours_binary
    outcomes = {}

    def pay(daemon, key, slot):
        outcomes[slot] = client(daemon, alice, "pay", world["password"], key)

    for round_ in range(4):
        threads = []
        for n in range(3):
            key = f"mixed-{round_}-{n}"
            threads += [threading.Thread(target=pay, args=(ours, key, (key, 0))), threading.Thread(target=pay, args=(theirs, key, (key, 1)))]
        # A quiet payment through ours alone too (its one call), between the overlapping ones.
        threads.append(threading.Thread(target=pay, args=(ours, f"mixed-quiet-{round_}", (f"mixed-quiet-{round_}", 0))))
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    for (key, side), outcome in outcomes.items():
        assert outcome.get("code") == "SUCCESS", (key, side, outcome)
        if side == 0 and (key, 1) in outcomes:
            assert outcome["jws"] == outcomes[(key, 1)]["jws"], key
    expected = sorted({key for key, _ in outcomes})
    for daemon in (ours, theirs):
        assert sorted(client(daemon, alice, "payments")["keys"]) == expected
        assert_one_chain_that_verifies(world, daemon, alice, "mixed")


def test_a_call_kept_whose_commit_answer_is_lost_is_paid_once_and_audited_once(world):
    # Adversary: the server loses the answer to the call's COMMIT after it kept the transaction (its session terminated while
    # COMMIT waits for a synchronous standby: committed locally, answered never). The batch's transaction decides on a new
    # session, under the lock: the record kept is this one, paid. The audit entry that let the payment through went in the
    # call: at 8403c45 the batch's transaction wrote it again (two entries for one authentication).
    role, alice = world["names"]["d"], world["alice"]
    daemon = paying_daemon(world, "lostcommit", "lostcommit-0")
    uid = pwd.getpwnam(alice).pw_uid

    def audited():
        done = world["cluster"].sql(role, f"SET tender.uid = '{uid}'; SELECT count(*) FROM tender.audit WHERE event IN "
                                    "('notRequired', 'reused', 'authenticated')", database="lostcommit")
        assert done.returncode == 0, done.stderr
        return int(done.stdout.strip())

    assert client(daemon, alice, "pay", world["password"], "lostcommit-1")["code"] == "SUCCESS"
    before = audited()
    assert before >= 2
    outcome = pay_with_its_commit_answer_lost(world, daemon, alice, "lostcommit", "lostcommit-2")
    assert outcome.get("code") == "SUCCESS", outcome
    keys = client(daemon, alice, "payments")["keys"]
    assert sorted(keys) == ["lostcommit-0", "lostcommit-1", "lostcommit-2"], keys
    assert audited() == before + 1
    assert_one_chain_that_verifies(world, daemon, alice, "lostcommit")


def test_the_payment_function_refuses_a_ledger_row_security_does_not_hold(world):
    # Adversary: tenderd's role (the tables' owner) turns the ledger's forced row security off, then calls the function: the
    # owner would then read every person's rows (another person's head, key or paid key taken for this one's). v2 checks that
    # row-level security holds the caller on the ledger (row_security_active: not a superuser, no BYPASSRLS, the policies on and
    # forced) and refuses with 42501, writing nothing; pay_prepared_v1 checked the role alone and paid. Forced again, it pays.
    role, alice = world["names"]["d"], world["alice"]
    daemon = paying_daemon(world, "paynoforce", "paynoforce-0")
    uid = pwd.getpwnam(alice).pw_uid

    def sql(statement):
        done = world["cluster"].sql(role, f"SET tender.uid = '{uid}'; {statement}", database="paynoforce")
        return done.returncode, done.stdout.strip(), done.stderr.strip()

    code, key, err = sql("SELECT kid || '|' || encode(public_key, 'hex') FROM tender.signing_keys WHERE active = 1 LIMIT 1")
    assert code == 0 and "|" in key, err
    kid, public = key.split("|")
    head = "(SELECT sequence FROM tender.ledger ORDER BY sequence DESC LIMIT 1)"
    head_hash = "(SELECT hash FROM tender.ledger ORDER BY sequence DESC LIMIT 1)"
    call = (f"SELECT tender.pay_prepared_v4({uid}, {0x54454E44}, {uid}::bigint::bit(32)::integer, '{kid}', '\\x{public}'::bytea, {head}, "
            f"{head_hash}, 'forged.jws.x', 'forged-hash', 'noforce', '\\x07'::bytea, 'checking', NULL, NULL, 'USD', 1, '{{checking}}', "
            "'{-1}', '{USD}', NULL, false, '{}', '{}', '{}', '{}', '{}')")
    count = "SELECT count(*) FROM tender.ledger WHERE idempotency_key = 'noforce'"
    code, out, err = sql(f"ALTER TABLE tender.ledger NO FORCE ROW LEVEL SECURITY; {call}")
    assert code != 0 and "BYPASSRLS" in err, (code, out, err)
    code, out, err = sql(f"ALTER TABLE tender.ledger FORCE ROW LEVEL SECURITY; {count}")
    assert (code, out) == (0, "0"), err
    # The role itself given BYPASSRLS, then made a superuser (the check v1 made with a query of pg_roles, held by v2's too).
    for attribute in ("BYPASSRLS", "SUPERUSER"):
        superuser(world, f'ALTER ROLE "{role}" {attribute}', "postgres")
        try:
            code, out, err = sql(call)
        finally:
            superuser(world, f'ALTER ROLE "{role}" NO{attribute}', "postgres")
        assert code != 0 and "BYPASSRLS" in err, (attribute, code, out, err)
        code, out, err = sql(count)
        assert (code, out) == (0, "0"), err
    code, out, err = sql(call)
    assert (code, out) == (0, "paid"), err
    # The hand-made row out again: the daemon's own payments go on, on one chain.
    code, out, err = sql("DELETE FROM tender.ledger WHERE idempotency_key = 'noforce'; UPDATE tender.accounts SET "
                         "balance_minor = balance_minor + 1 WHERE id = 'checking'")
    assert code == 0, err
    daemon.kill(15)
    daemon.start()
    assert client(daemon, alice, "pay", world["password"], "paynoforce-1")["code"] == "SUCCESS"
    assert_one_chain_that_verifies(world, daemon, alice, "paynoforce")


def test_a_batch_whose_commit_answer_is_lost_writes_its_audit_entries_once(world):
    # Adversary (noticed at pg37): the server loses the answer to a batch transaction's COMMIT after it kept it (its session
    # terminated while COMMIT waits for a synchronous standby). The batch wrote the audit entries waiting for the store's
    # next write (the authentication that let the payment through); at 16df147 they stayed waiting, and the next write (the
    # same key asked again) wrote them a second time. Now the store reads under the lock whether the lost transaction kept
    # them, and forgets them when it did. Payments go through the batch here: the payment function is dropped first.
    role, alice = world["names"]["d"], world["alice"]
    daemon = paying_daemon(world, "lostbatch", "lostbatch-0")
    uid = pwd.getpwnam(alice).pw_uid
    assert world["cluster"].sql(role, f"DROP FUNCTION {PAYMENT}", database="lostbatch").returncode == 0
    assert client(daemon, alice, "pay", world["password"], "lostbatch-1")["code"] == "SUCCESS"

    def audit_rows():
        done = world["cluster"].sql(role, f"SET tender.uid = '{uid}'; SELECT at_ms || '|' || \"user\" || '|' || event || '|' || intent "
                                    "|| '|' || detail FROM tender.audit ORDER BY id", database="lostbatch")
        assert done.returncode == 0, done.stderr
        return done.stdout.strip().splitlines()

    before = audit_rows()
    assert len(before) == len(set(before)), before
    outcome = pay_with_its_commit_answer_lost(world, daemon, alice, "lostbatch", "lostbatch-2")
    # Kept, its answer lost: the payment is answered as unknown (or paid); asked again, its record, and one row under the key.
    assert outcome.get("code") == "SUCCESS" or outcome.get("error"), outcome
    again = client(daemon, alice, "pay", world["password"], "lostbatch-2")
    assert again.get("code") == "SUCCESS", again
    keys = client(daemon, alice, "payments")["keys"]
    assert sorted(keys) == ["lostbatch-0", "lostbatch-1", "lostbatch-2"], keys
    # Every audit entry once, also after the store's last write (tenderd stopping writes what waits): the lost transaction's
    # entry (kept) is not written again. The key asked again is answered from the ledger, without an entry of its own.
    daemon.kill(15)
    daemon.start()
    assert client(daemon, alice, "pay", world["password"], "lostbatch-3")["code"] == "SUCCESS"
    after = audit_rows()
    duplicates = [row for row in set(after) if after.count(row) > 1]
    assert not duplicates, (outcome, duplicates)
    assert len(after) == len(before) + 2, (outcome, before, after)
    print("batch's lost COMMIT answered:", outcome)
    assert_one_chain_that_verifies(world, daemon, alice, "lostbatch")
