# SPDX-License-Identifier: Apache-2.0
"""The payment function's fourth version (tender.pay_prepared_v4): a payment of one movement is one statement at the
server (the debit, guarded by every check, and the record inserted from its row), where v3 ran six. Counted with the
server's auto_explain (every nested statement's plan), and attacked with each check failing alone: nothing is written and
the answer names the check, as v3's did. A throwaway cluster, as test_pg_security; run as root (make test-postgres)."""

import os
import pwd
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from test_postgres import pytestmark  # noqa: E402,F401  (the same skips)
from test_postgres import client  # noqa: E402
from test_pg_security import PAYMENT, assert_one_chain_that_verifies, paying_daemon, world  # noqa: E402,F401
from test_pg_payment_call_adversary import bob_checking, checking_balances, owner_sql  # noqa: E402

# The function the daemon made and calls (the name in test_pg_security's PAYMENT signature).
FUNCTION = PAYMENT.split("(")[0]


def call_sql(world, uid, kid, public, key, accounts="'{checking}'", deltas="'{-1}'", currencies="'{USD}'", head=None, signer=None):
    """A call of the payment function by hand for `uid` at the head its ledger holds (or `head`), of `deltas` (minor units)
    on `accounts`, under the idempotency `key`, signed by `signer` (default: the enrolled key `kid`)."""
    head = head or "(SELECT sequence FROM tender.ledger ORDER BY sequence DESC LIMIT 1)"
    head_hash = "(SELECT hash FROM tender.ledger ORDER BY sequence DESC LIMIT 1)"
    return (f"SELECT {FUNCTION}({uid}, {0x54454E44}, {uid}::bigint::bit(32)::integer, '{signer or kid}', '\\x{public}'::bytea, "
            f"{head}, {head_hash}, 'forged.jws.x', 'forged-hash', '{key}', '\\x07'::bytea, 'checking', NULL, NULL, 'USD', 1, "
            f"{accounts}::text[], {deltas}::bigint[], {currencies}::text[], NULL, false, '{{}}', '{{}}', '{{}}', '{{}}', '{{}}')")


def explained(world, database, role, uid, statement):
    """Runs `statement` as `role` (SET ROLE from the cluster's superuser, who alone may LOAD auto_explain) naming `uid`, with
    every statement's plan, nested ones too, sent back as a notice: (answer, statements the function ran), the call's own
    plan not counted."""
    done = world["cluster"].sql(world["names"]["p"], "LOAD 'auto_explain'; SET auto_explain.log_min_duration = 0; "
                                "SET auto_explain.log_nested_statements = on; SET auto_explain.log_level = notice; "
                                f"SET ROLE \"{role}\"; SET tender.uid = '{uid}'; {statement}", database=database)
    assert done.returncode == 0, done.stderr
    texts = [line for line in done.stderr.splitlines() if "Query Text:" in line]
    nested = [text for text in texts if FUNCTION.split(".")[1] + "(" not in text]
    return done.stdout.strip(), len(nested)


def test_a_payment_of_one_movement_is_one_statement_and_each_failed_check_writes_nothing(world):
    # What v4 changed: the debit is guarded by the key, head, idempotency and funds checks in its own WHERE, and the record
    # is inserted from the debit's row, so a check that fails matches no row and nothing is written; the reads that name
    # the failed check run after, only then. Adversary: tenderd's role calling it by hand with one check false at a time
    # (another key, an old head, a key paid before, funds short, another currency, another account), and another person's
    # account of the same id beside (bob's `checking`), which no call may touch.
    role, alice = world["names"]["d"], world["alice"]
    daemon = paying_daemon(world, "payv4", "payv4-0")
    uid = pwd.getpwnam(alice).pw_uid
    bob = uid + 1
    sql = owner_sql(world, "payv4", uid)
    bob_checking(sql, bob)
    code, key, err = sql("SELECT kid || '|' || encode(public_key, 'hex') FROM tender.signing_keys WHERE active = 1 LIMIT 1")
    assert code == 0 and "|" in key, err
    kid, public = key.split("|")

    def state():
        done = world["cluster"].sql(world["names"]["p"], "SELECT (SELECT string_agg(uid || ':' || sequence || ':' || "
                                    "coalesce(idempotency_key, ''), ',' ORDER BY uid, sequence) FROM tender.ledger), "
                                    "(SELECT string_agg(uid || ':' || id || ':' || balance_minor, ',' ORDER BY uid, id) FROM tender.accounts)",
                                    database="payv4")
        assert done.returncode == 0, done.stderr
        return done.stdout.strip()

    before = state()
    for answer, forged in (("key", {"signer": "another-kid"}), ("head", {"head": "0"}), ("paid before", {"key": "payv4-0"}),
                           ("checks", {"deltas": "'{-100000000000}'"}), ("checks", {"currencies": "'{EUR}'"}),
                           ("checks", {"accounts": "'{nowhere}'"})):
        arguments = dict({"key": "payv4-forged"}, **forged)
        out, statements = explained(world, "payv4", role, uid, call_sql(world, uid, kid, public, **arguments))
        assert out == answer, (forged, out)
        assert state() == before, forged
    # The honest call: paid in one statement (v3 ran six: the key, the head, the idempotency key, the funds, the debit, the
    # record), alice's checking debited, bob's not.
    balances = checking_balances(world, "payv4")
    out, statements = explained(world, "payv4", role, uid, call_sql(world, uid, kid, public, "payv4-by-hand"))
    assert (out, statements) == ("paid", 1), (out, statements)
    after = dict(pair.split(":") for pair in checking_balances(world, "payv4").split(","))
    assert after == {str(u): str(int(b) - (1 if u == str(uid) else 0)) for u, b in (pair.split(":") for pair in balances.split(","))}
    assert int(after[str(bob)]) == 500000
    # Several movements take v3's reads and writes (checked one by one, then moved): a transfer out and back pays, the
    # balance where it was, one row more.
    out, statements = explained(world, "payv4", role, uid, call_sql(world, uid, kid, public, "payv4-twice", accounts="'{checking,checking}'",
                                                                    deltas="'{-1,1}'", currencies="'{USD,USD}'"))
    assert out == "paid" and statements > 1, (out, statements)
    assert checking_balances(world, "payv4") == ",".join(f"{u}:{b}" for u, b in after.items())
    # The hand-made rows out again: the daemon's own payments go on, on one chain that verifies.
    code, out, err = sql("DELETE FROM tender.ledger WHERE idempotency_key IN ('payv4-by-hand', 'payv4-twice'); "
                         "UPDATE tender.accounts SET balance_minor = balance_minor + 1 WHERE id = 'checking'")
    assert code == 0, err
    assert state() == before
    code, out, err = sql("DELETE FROM tender.accounts", person=bob)
    assert code == 0, err
    daemon.kill(15)
    daemon.start()
    assert client(daemon, alice, "pay", world["password"], "payv4-1")["code"] == "SUCCESS"
    assert_one_chain_that_verifies(world, daemon, alice, "payv4")
