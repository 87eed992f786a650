# SPDX-License-Identifier: Apache-2.0
"""Record format 2 (docs/records.md) on a real format-1 ledger.

Tests/fixtures/format1-home is a home whose ledger was written by Tender at
bf08003, before format 2 (tender demo, then a request_payment with a note full
of escapes, a custom round_up_savings payment through examples/intents/handler.py,
and the request's completion): balances, testing_mode, five payment records of
five kinds, a payment_status. Its private key is a test key.

These tests chain format-2 records onto it with the library, verify the mixed
ledger with the library and with Tests/python/independent_verifier.py (written
from docs/records.md alone, no libtender), replay a format-1 payment, and attack
the new format: tampered columns and payloads of either format, and records a
holder of the key could sign (a fingerprint of other or non-canonical
parameters, a "v": 2 record with format-1 members, an unknown "v", a format-1
record after a format-2 one).
"""

import base64
import glob
import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
import sys

import pytest

from conftest import NO_AUTH, tender

iv = pytest.importorskip("independent_verifier", reason="the independent verifier needs the cryptography package")

FIXTURE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "fixtures", "format1-home")


def b64e(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64d(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def payload_of(token):
    return b64d(token.split(".")[1])


@pytest.fixture
def old_home(tmp_path):
    """A copy of the format-1 fixture home (0700, its files 0600)."""
    home = tmp_path / "home"
    shutil.copytree(FIXTURE, home)
    os.chmod(home, 0o700)
    for path in glob.glob(os.path.join(home, "**"), recursive=True):
        os.chmod(path, 0o700 if os.path.isdir(path) else 0o600)
    return home


def private_pem(home):
    (path,) = glob.glob(os.path.join(home, "keys", "*.pem"))
    with open(path, "rb") as f:
        return f.read()


def root_key(home):
    return iv.root_key_of_pem(private_pem(home))


def kid(home):
    (path,) = glob.glob(os.path.join(home, "keys", "*.pem"))
    return os.path.basename(path)[:-4]


def tokens(home):
    with tender.Engine(home, authentication=NO_AUTH) as engine:
        return [entry["jws"] for entry in engine.ledger()]


def run(engine, intent, key):
    """The whole dialog for `intent` under `key`; returns (code, record)."""
    with engine.session(dict(intent, idempotencyKey=key)) as session:
        resolution = session.resolve()
        assert resolution["complete"], resolution
        code, _ = session.confirm()
        assert code is tender.ResponseCode.READY, code
        return session.handle()


SEND = {"intent": "send_payment", "payee": {"id": "tim-cook"}, "currencyAmount": {"amount": "7.25", "currency": "USD"},
        "note": 'tab\there "quoted" \\ caf\u00e9 \u007f end'}
TRANSFER = {"intent": "transfer_money", "fromAccount": {"id": "checking"}, "toAccount": {"id": "savings"},
            "transactionAmount": {"amount": {"amount": "3.00", "currency": "USD"}}}
PAY_BILL = {"intent": "pay_bill", "billPayee": {"id": "electric-main"},
            "transactionAmount": {"amount": {"amount": "25.00", "currency": "USD"}}, "transactionNote": "part"}
REQUEST = {"intent": "request_payment", "payer": {"id": "tim-cook"}, "currencyAmount": {"amount": "4.00", "currency": "USD"}}


@pytest.fixture
def mixed(old_home):
    """The fixture's 8 format-1-era entries, then four format-2 payments of four kinds and a status change."""
    with tender.Engine(old_home, authentication=NO_AUTH) as engine:
        assert engine.verify()["records"] == 8
        for number, intent in enumerate([SEND, TRANSFER, PAY_BILL, REQUEST]):
            code, record = run(engine, intent, f"format-2-{number}")
            assert code is tender.ResponseCode.SUCCESS and record["v"] == 2, record
        engine.set_payment_status("format-2-3", "completed")
        assert engine.verify()["records"] == 13
    return old_home


def records_by_format(home):
    with tender.Engine(home, authentication=NO_AUTH) as engine:
        payments = engine.payments()
    return [r for r in payments if "v" not in r], [r for r in payments if r.get("v") == 2]


# ------------------------------------------------------------- the fixture


def test_the_fixture_is_format_1_and_the_documented_rule_rebuilds_its_fingerprints(old_home):
    """docs/records.md's canonical parameters, computed here from each format-1 record written at bf08003
    (five intent kinds, a note with escapes), are byte for byte the text that record kept as its fingerprint."""
    payloads = iv.verify(tokens(old_home), root_key(old_home))
    payments = [p for p in payloads if p.get("type") == "payment"]
    assert [p.get("intent") for p in payments] == [
        "send_payment", "pay_bill", "transfer_money", "request_payment", "round_up_savings"]
    for payment in payments:
        assert not payment.has("v")
        assert iv.canonical_parameters(payment) == payment.get("ledger").get("fingerprint")


# ------------------------------------------------------- the mixed ledger


def test_a_format_1_ledger_keeps_verifying_after_format_2_records(mixed):
    old, new = records_by_format(mixed)
    assert len(old) == 5 and len(new) == 4
    for record in new:
        assert set(record["ledger"]) == {"fingerprint", "currency", "amountMinor", "effects"}
        assert len(record["ledger"]["fingerprint"]) == 43
    with tender.Engine(mixed, authentication=NO_AUTH) as engine:
        report = engine.verify()
    assert report["valid"] and report["records"] == 13


def test_the_independent_verifier_checks_the_mixed_ledger(mixed):
    payloads = iv.verify(tokens(mixed), root_key(mixed))
    assert len(payloads) == 13
    formats = [iv.record_format(p) for p in payloads if p.get("type") == "payment"]
    assert formats == [1] * 5 + [2] * 4
    for payload in payloads[8:12]:
        assert iv.fingerprint(payload) == payload.get("ledger").get("fingerprint")


def test_the_python_record_says_its_format(mixed):
    with tender.Engine(mixed, authentication=NO_AUTH) as engine:
        code, record = run(engine, SEND, "format-2-0")
    assert code is tender.ResponseCode.SUCCESS and record.record_format == 2
    assert tender.Record({"type": "payment"}).record_format == 1


def test_a_format_2_record_is_smaller(mixed):
    old, new = records_by_format(mixed)
    old_send = next(r for r in old if r["intent"] == "send_payment")
    new_send = next(r for r in new if r["intent"] == "send_payment")
    compact = lambda r: len(json.dumps(r, separators=(",", ":"), ensure_ascii=False))  # noqa: E731
    assert compact(new_send) < compact(old_send) - 300


# ----------------------------------------------------------------- replays


def test_a_replay_of_a_format_1_payment_answers_its_original_record(mixed):
    old, _ = records_by_format(mixed)
    original = next(r for r in old if r["intent"] == "send_payment")
    with tender.Engine(mixed, authentication=NO_AUTH) as engine:
        before = {e["sequence"]: e["jws"] for e in engine.ledger() if e["type"] == "payment"}
        intent = {"intent": "send_payment", "payee": {"id": "john-baily", "handle": "mobile"},
                  "currencyAmount": {"amount": "50.00", "currency": "USD"}}
        code, record = run(engine, intent, original["idempotencyKey"])
        assert code is tender.ResponseCode.SUCCESS
        assert dict(record) == original and "v" not in record
        assert record.jws == before[original["sequence"]]
        # The same key with other parameters is still a conflict.
        with pytest.raises(tender.IdempotencyConflictError):
            run(engine, dict(intent, currencyAmount={"amount": "51.00", "currency": "USD"}), original["idempotencyKey"])
        # A format-2 payment replays too.
        code, again = run(engine, SEND, "format-2-0")
        assert code is tender.ResponseCode.SUCCESS and again["v"] == 2
        with pytest.raises(tender.IdempotencyConflictError):
            run(engine, dict(SEND, note="other"), "format-2-0")
        assert engine.verify()["records"] == 13


# -------------------------------------------------------------- tampering


def tampered(home):
    with pytest.raises(tender.LedgerTamperedError) as info:
        with tender.Engine(home, authentication=NO_AUTH) as engine:
            engine.verify()
    return info.value.message


def edit(home, sql, *args):
    db = sqlite3.connect(os.path.join(home, "tender.sqlite3"))
    try:
        db.execute(sql, args)
        db.commit()
    finally:
        db.close()


@pytest.mark.parametrize("sequence, sql, named", [
    (3, "UPDATE ledger SET amount_minor = amount_minor + 1 WHERE sequence = 3", "amount_minor"),
    (9, "UPDATE ledger SET amount_minor = amount_minor + 1 WHERE sequence = 9", "amount_minor"),
    (9, "UPDATE ledger SET account_id = 'savings' WHERE sequence = 9", "account_id"),
    (9, "UPDATE ledger SET payee_handle_id = 'john-baily-mobile' WHERE sequence = 9", "payee_handle_id"),
    (9, "UPDATE ledger SET idempotency_key = 'other' WHERE sequence = 9", "idempotency_key"),
    (10, "UPDATE ledger SET fingerprint = (SELECT fingerprint FROM ledger WHERE sequence = 9) WHERE sequence = 10", "fingerprint"),
    (10, "UPDATE ledger SET fingerprint = 'text' WHERE sequence = 10", "fingerprint"),
    (11, "UPDATE ledger SET payee_contact_id = 'tim-cook' WHERE sequence = 11", "payee_contact_id"),
    (11, "UPDATE ledger SET payee_handle_id = 'tim-cook-work' WHERE sequence = 11", "payee_handle_id"),
    (12, "UPDATE ledger SET account_id = 'checking' WHERE sequence = 12", "account_id"),
    (12, "UPDATE ledger SET currency = 'EUR' WHERE sequence = 12", "currency"),
    (9, "UPDATE ledger SET effects = '{}' WHERE sequence = 9", "effects"),
])
def test_an_edited_column_of_either_format_is_named(mixed, sequence, sql, named):
    edit(mixed, sql)
    message = tampered(mixed)
    assert f"record {sequence}" in message and named in message


@pytest.mark.parametrize("sequence", [3, 9])
def test_an_edited_payload_of_either_format_is_named(mixed, sequence):
    db = sqlite3.connect(os.path.join(mixed, "tender.sqlite3"))
    (jws,) = db.execute("SELECT jws FROM ledger WHERE sequence = ?", (sequence,)).fetchone()
    db.close()
    head, body, signature = jws.split(".")
    payload = b64d(body).replace(b'"amount":"', b'"amount":"1')
    edit(mixed, "UPDATE ledger SET jws = ? WHERE sequence = ?", f"{head}.{b64e(payload)}.{signature}", sequence)
    assert f"record {sequence}: the signature does not verify" in tampered(mixed)
    with pytest.raises(iv.Invalid, match=f"record {sequence}: the signature does not verify"):
        iv.verify(tokens_raw(mixed), root_key(mixed))


def tokens_raw(home):
    db = sqlite3.connect(os.path.join(home, "tender.sqlite3"))
    try:
        return [row[0] for row in db.execute("SELECT jws FROM ledger ORDER BY sequence")]
    finally:
        db.close()


# ------------------------------------------- what a holder of the key could sign


def resign_from(home, sequence, edit_payload):
    """Rewrites entry `sequence`'s payload with edit_payload(members) -> members (the verifier's ordered
    objects, iv.Obj), signs it with the home's key, and re-chains every later entry (new previousHash,
    signed again), as someone holding the signing key could. Returns the new tokens."""
    db = sqlite3.connect(os.path.join(home, "tender.sqlite3"))
    rows = db.execute("SELECT sequence, jws FROM ledger ORDER BY sequence").fetchall()
    pem, key_id = private_pem(home), kid(home)
    previous = None
    out = []
    for number, jws in rows:
        payload = payload_of(jws)
        if number >= sequence:
            members = iv.parse(payload)
            if number == sequence:
                members = iv.Obj(edit_payload(members))
            if previous is not None:
                members = replace(members, "previousHash", previous)
            payload = iv.canonical_json(members).encode("utf-8")
            jws = iv.forge(pem, key_id, payload)
            db.execute("UPDATE ledger SET jws = ?, hash = ? WHERE sequence = ?",
                       (jws, b64e(hashlib.sha256(payload).digest()), number))
        previous = b64e(hashlib.sha256(payload).digest())
        out.append(jws)
    db.commit()
    db.close()
    return out


def replace(members, key, value):
    return iv.Obj((k, value if k == key else v) for k, v in members)


def set_ledger(members, key, value):
    ledger = members.get("ledger")
    if ledger.has(key):
        ledger = replace(ledger, key, value)
    else:
        ledger = iv.Obj(list(ledger) + [(key, value)])
    return replace(members, "ledger", ledger)


def fingerprint_of_text(members, text):
    return set_ledger(members, "fingerprint", b64e(hashlib.sha256(text.encode("utf-8")).digest()))


def reserialised(members, **dumps):
    """The record's own canonical parameters, serialised by json.dumps with `dumps` instead of docs/records.md's rule."""
    return json.dumps(json.loads(iv.canonical_parameters(members)), **dumps)


FORGERIES = {
    # The fingerprint of other parameters (the amount changed, the fingerprint kept).
    "other parameters": (9, lambda m: replace(m, "currencyAmount", iv.parse(b'{"amount":"7.26","currency":"USD"}')),
                         "fingerprint is not the SHA-256 of its canonical parameters"),
    # The right parameters serialised another way: with spaces, keys sorted, non-ASCII as \u escapes.
    "spaces": (9, lambda m: fingerprint_of_text(m, reserialised(m, ensure_ascii=False)),
               "fingerprint is not the SHA-256 of its canonical parameters"),
    "sorted keys": (9, lambda m: fingerprint_of_text(m, reserialised(m, ensure_ascii=False, sort_keys=True, separators=(",", ":"))),
                    "fingerprint is not the SHA-256 of its canonical parameters"),
    "ascii escapes": (9, lambda m: fingerprint_of_text(m, reserialised(m, separators=(",", ":"))),
                      "fingerprint is not the SHA-256 of its canonical parameters"),
    "padded": (9, lambda m: set_ledger(m, "fingerprint", m.get("ledger").get("fingerprint") + "="),
               "not the base64url text of a SHA-256 digest"),
    # A "v": 2 record with format-1 members in its ledger member, or a format-1 fingerprint text.
    "format-1 members": (9, lambda m: set_ledger(m, "idempotencyKey", "format-2-0"), "ledger member holds"),
    "format-1 fingerprint": (9, lambda m: set_ledger(m, "fingerprint", iv.canonical_parameters(m)),
                             "not the base64url text of a SHA-256 digest"),
    # Unknown or ill-written versions.
    "v 3": (9, lambda m: replace(m, "v", iv.Number("3")), "unknown record format"),
    "v text": (9, lambda m: replace(m, "v", "2"), "unknown record format"),
    "v 2.0": (9, lambda m: replace(m, "v", iv.Number("2.0")), "unknown record format"),
    "v 1": (9, lambda m: replace(m, "v", iv.Number("1")), "unknown record format"),
    "v null": (9, lambda m: replace(m, "v", None), "unknown record format"),
    "v on a status entry": (13, lambda m: list(m)[:1] + [("v", iv.Number("2"))] + list(m)[1:], "only payment records carry"),
    # Downgrade: the last format-2 payment rewritten as a format-1 one (no "v").
    "downgrade": (12, lambda m: [(k, v) for k, v in m if k != "v"], "format-1 payment record after the format-2 record 9"),
}


@pytest.mark.parametrize("name", sorted(FORGERIES))
def test_a_forged_record_is_refused_by_both_verifiers(mixed, name):
    sequence, change, named = FORGERIES[name]
    forged = resign_from(mixed, sequence, change)
    with pytest.raises(iv.Invalid) as independent:
        iv.verify(forged, root_key(mixed))
    message = tampered(mixed)
    assert f"record {sequence}: " in message and named in message, message
    assert f"record {sequence}: " in str(independent.value) and named in str(independent.value), independent.value


def test_the_unforged_resign_path_verifies(mixed):
    """resign_from itself (rewriting a record unchanged, re-chaining the rest) leaves a ledger both verifiers accept."""
    forged = resign_from(mixed, 9, lambda m: m)
    assert len(iv.verify(forged, root_key(mixed))) == 13
    with tender.Engine(mixed, authentication=NO_AUTH) as engine:
        assert engine.verify()["records"] == 13


def test_the_documented_example_is_right():
    """docs/records.md's example record: its canonical parameters, rebuilt by the independent verifier from the
    record (its elided effects filled in), are the text the page shows, and their SHA-256 the fingerprint it shows."""
    with open(os.path.join(os.path.dirname(FIXTURE), "..", "..", "docs", "records.md"), encoding="utf-8") as f:
        page = f.read()
    example = page.split("```json\n", 1)[1].split("```", 1)[0].replace("[...]", "[]")
    record = iv.parse(example.encode("utf-8"))
    shown = next(line.strip() for line in page.splitlines() if line.startswith('    {"intent":'))
    assert iv.canonical_parameters(record) == shown
    assert iv.fingerprint(record) == record.get("ledger").get("fingerprint")
    iv.check_format_two(record)


# ------------------------------------------------------------- a claim written into the store


def test_settling_a_claim_written_into_the_store_moves_no_balance(mixed):
    # Adversary: someone who can write the SQLite file but not sign adds a `calling` claim whose body is the
    # record they want: a copy of record 9 under a new key whose effects credit checking 1,000,000.00 instead of
    # debiting it. Its fingerprint matches its parameters, so it reads as an unknown outcome; the owner (a
    # process that is not running) holds nothing. The operator settles it as told (`tender status KEY completed`):
    # Tender signed the record and credited checking (verify passed). Tender claims a key only when the host moves
    # the money, so a claim moving a balance kept in the store is refused; it carries no seal either (below).
    payload = json.loads(payload_of(tokens(mixed)[8]))
    assert payload["sequence"] == 9 and payload["v"] == 2
    canonical = iv.canonical_parameters(iv.parse(payload_of(tokens(mixed)[8])))
    for name in ("type", "sequence", "previousHash", "createdAt"):
        payload.pop(name)
    payload["idempotencyKey"] = "forged"
    for movement in payload["ledger"]["effects"]["movements"]:
        for name, value in movement.items():
            if isinstance(value, int):
                movement[name] = 100_000_000
    body = json.dumps(payload, separators=(",", ":"), ensure_ascii=False)[1:-1]
    with tender.Engine(mixed, authentication=NO_AUTH) as engine:
        before = {a["id"]: a["balance"]["amount"] for a in engine.directory()["accounts"]}
    edit(mixed, "INSERT INTO claims (idempotency_key, fingerprint, body, state, code, token, owner, claimed_at_ms) "
         "VALUES ('forged', ?, ?, 'calling', NULL, 'forged-token', 'no-boot/1/0', 0)", canonical, body)
    with tender.Engine(mixed, authentication=NO_AUTH) as engine:
        with pytest.raises(tender.LedgerTamperedError):
            engine.set_payment_status("forged", "completed")
        assert engine.verify()["records"] == 13
        after = {a["id"]: a["balance"]["amount"] for a in engine.directory()["accounts"]}
        assert after == before


#: A process that opens an engine whose payments its host makes, and ends inside the host's send (killed there): the
#: claim on the key is committed, the host was asked, the record was never kept: an unknown outcome.
DYING_HOST = r"""
import os, sys
sys.path.insert(0, sys.argv[2])
from conftest import NO_AUTH, tender
class Dying(tender.Host):
    def lookup(self, what):
        return {what: {"contacts": [{"id": "tim-cook", "displayName": "Tim Cook", "handles": [
                           {"id": "tc-work", "label": "work", "type": "email", "value": "tim@example.com"}]}],
                       "accounts": [{"id": "checking", "nickname": "Checking", "type": "checking",
                                     "balance": {"amount": "500.00", "currency": "USD"}, "default": True}]}.get(what, [])}
    def send(self, payment):
        os._exit(7)
with tender.Engine(sys.argv[1], authentication=NO_AUTH, host=Dying()) as engine:
    with engine.session({"intent": "send_payment", "payee": {"id": "tim-cook"},
                         "currencyAmount": {"amount": "2.50", "currency": "USD"}, "idempotencyKey": sys.argv[3]}) as session:
        assert session.resolve()["complete"]
        session.confirm()
        session.agree(True)
        session.handle()
sys.exit(1)
"""


def unknown_outcome(home, key):
    """Leaves a genuine unknown outcome under `key`: a process killed inside its host's send."""
    done = subprocess.run([sys.executable, "-c", DYING_HOST, str(home), os.path.dirname(os.path.abspath(__file__)), key],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 7, done.stderr
    db = sqlite3.connect(os.path.join(home, "tender.sqlite3"))
    try:
        (row,) = db.execute("SELECT fingerprint, body, token, owner, seal_kid, seal FROM claims WHERE idempotency_key = ?",
                            (key,)).fetchall()
    finally:
        db.close()
    return dict(zip(("fingerprint", "body", "token", "owner", "seal_kid", "seal"), row))


def test_a_claim_that_moves_no_balance_is_refused_unless_its_seal_checks(mixed):
    # Adversary as above, with a claim that moves nothing (a record of a payment the host made, which Tender signs
    # without touching a balance): a copy of record 9 under a new key, its movements removed. Before claims were
    # sealed it was signed as it stood and verify passed. Now it is refused with no seal and with a genuine claim's
    # seal; the genuine claim, edited after it was sealed, too.
    genuine = unknown_outcome(mixed, "genuine")
    assert genuine["seal_kid"] == kid(mixed) and genuine["seal"]
    payload = json.loads(payload_of(tokens(mixed)[8]))
    canonical = iv.canonical_parameters(iv.parse(payload_of(tokens(mixed)[8])))
    for name in ("type", "sequence", "previousHash", "createdAt"):
        payload.pop(name)
    payload["idempotencyKey"] = "forged"
    payload["ledger"]["effects"]["movements"] = []
    body = json.dumps(payload, separators=(",", ":"), ensure_ascii=False)[1:-1]
    edit(mixed, "INSERT INTO claims (idempotency_key, fingerprint, body, state, code, token, owner, claimed_at_ms) "
         "VALUES ('forged', ?, ?, 'calling', NULL, 'forged-token', 'no-boot/1/0', 0)", canonical, body)
    attempts = [
        ("UPDATE claims SET seal_kid = NULL WHERE idempotency_key = 'forged'", (), "forged", "no seal"),
        ("UPDATE claims SET seal_kid = ?, seal = ? WHERE idempotency_key = 'forged'",
         (genuine["seal_kid"], genuine["seal"]), "forged", "does not match its seal"),
        ("UPDATE claims SET body = replace(body, '\"amountMinor\":250', '\"amountMinor\":25') WHERE idempotency_key = 'genuine'",
         (), "genuine", "does not match its seal"),
    ]
    for sql, args, key, words in attempts:
        edit(mixed, sql, *args)
        with tender.Engine(mixed, authentication=NO_AUTH) as engine:
            for status in ("completed", "failed"):
                with pytest.raises(tender.LedgerTamperedError, match=words):
                    engine.set_payment_status(key, status)
            assert engine.verify()["records"] == 13
    with tender.Engine(mixed, authentication=NO_AUTH) as engine:
        assert all(entry.get("idempotencyKey") not in ("forged", "genuine") for entry in
                   (json.loads(payload_of(e["jws"])) for e in engine.ledger()))


def test_a_genuine_unknown_outcome_settles_as_completed_and_as_failed(mixed):
    paid = unknown_outcome(mixed, "host-paid")
    unpaid = unknown_outcome(mixed, "host-unpaid")
    assert paid["seal"] and unpaid["seal"] and paid["seal"] != unpaid["seal"]
    with tender.Engine(mixed, authentication=NO_AUTH) as engine:
        record = engine.set_payment_status("host-paid", "completed")
        assert record["settled"] == "status" and record["v"] == 2 and record["idempotencyKey"] == "host-paid"
        assert not record["ledger"]["effects"].get("movements")
        released = engine.set_payment_status("host-unpaid", "failed")
        assert released["type"] == "claim" and released["status"] == "failed"
        assert engine.verify()["records"] == 14
    assert len(iv.verify(tokens(mixed), root_key(mixed))) == 14
