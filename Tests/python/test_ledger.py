# SPDX-License-Identifier: Apache-2.0
"""Tests of the signed, hash-chained ledger through the Python binding
(include/tender.h: tender_engine_ledger, _verify, _checkpoint, _public_key,
_rotate_key and the JWS of tender_session_handle).

Interoperability is tested, not claimed: every record's JWS is checked with
joserfc and with the openssl command, independently of Tender's own code;
hashes (previousHash = base64url SHA-256 of the previous record's payload)
and key thumbprints are recomputed here, and python_verify() is an
independent verifier of the chain of trust (root key, then signed
rotations). Tampering is done with Python's sqlite3 module on
HOME/tender.sqlite3 (its single `ledger` table and `signing_keys`), with the
engine closed.

The `tender` command-line tool is located through $TENDER_CLI, else
<repo>/build/bin/tender; tests that need it are skipped when it is absent
(an explicit $TENDER_CLI that does not exist is an error).

Run from the repository root:

    TENDER_LIBRARY=$PWD/build/lib/libtender.so.1 python3 -m pytest -q Tests/python
"""

import base64
import contextlib
import copy
import hashlib
import json
import os
import pickle
import random
import re
import select
import shutil
import signal
import sqlite3
import stat
import subprocess
import sys
import time

import pytest

import libtender as tender
from libtender import ResponseCode

from conftest import DIRECTORY, NO_AUTH, make_engine

_HERE = os.path.dirname(os.path.abspath(__file__))
_REPO = os.path.dirname(os.path.dirname(_HERE))
GENESIS = "A" * 43  # base64url of 32 zero bytes: the previousHash of record 1
# Importing the test directory signs its balances as the first ledger entry (type "balances"): the
# payments of an engine from the `engine` fixture start at sequence 2.
FIRST = 2


# ------------------------------------------------------------------ helpers


def b64e(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64d(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def jws_parts(token):
    """(header dict, payload bytes, signature bytes) of a compact JWS."""
    header, payload, signature = token.split(".")
    return json.loads(b64d(header)), b64d(payload), b64d(signature)


def payload_hash(payload):
    """base64url SHA-256 of a record's payload bytes (its record JSON)."""
    return b64e(hashlib.sha256(payload).digest())


def link_hash(token):
    """The hash the next ledger entry links to (its previousHash), recomputed
    here from the entry's compact JWS: base64url SHA-256 of its payload bytes,
    i.e. the base64url-decoded middle part, which is the record JSON byte for
    byte (not of the JWS text). This is the one place in these tests that
    pins the definition; test_chain_link_definition checks it against the
    library."""
    return payload_hash(jws_parts(token)[1])


class ForgeryError(RuntimeError):
    """A ledger checked by python_verify is not well formed (not an
    AssertionError, so it is never mistaken for the library's verdict)."""


def python_verify(tokens, jwks, root=None):
    """An independent verifier: checks sequence numbers, hash links (SHA-256
    of the previous payload) and every signature (with joserfc and the given
    JWKs by kid). Returns the payloads, or raises ForgeryError naming the
    first bad entry.

    Without `root`, any of `jwks` may sign any entry (is the ledger well
    formed under these keys?). With `root` (a kid of `jwks`), trust follows
    the chain as tender.h defines it: entry 1 is signed by the root, each
    later entry by the key signing at that point, and a key_rotation entry
    (signed by the outgoing key) hands signing to its newKey from the next
    entry on."""
    previous, payloads = GENESIS, []
    jwks = dict(jwks)
    signing = root
    for number, token in enumerate(tokens, start=1):
        header = jws_parts(token)[0]
        kid = header.get("kid")
        if signing is not None and kid != signing:
            raise ForgeryError(f"entry {number}: signed by {kid}, but {signing} was signing then")
        if kid not in jwks:
            raise ForgeryError(f"entry {number}: no JWK for kid {kid}")
        try:
            _, payload = joserfc_verify(token, jwks[kid])
        except Exception as exc:  # noqa: BLE001
            raise ForgeryError(f"entry {number}: {exc!r}") from exc
        record = json.loads(payload)
        if record.get("sequence") != number or record.get("previousHash") != previous:
            raise ForgeryError(f"entry {number}: sequence or link does not match")
        if signing is not None and record.get("type") == "key_rotation":
            new = dict(record["newKey"])
            if thumbprint(new) != record["newKid"]:
                raise ForgeryError(f"entry {number}: the new key's kid is not its thumbprint")
            jwks[record["newKid"]] = dict(new, kid=record["newKid"])
            signing = record["newKid"]
        previous = payload_hash(payload)
        payloads.append(record)
    return payloads


def thumbprint(jwk):
    """RFC 7638 thumbprint of an OKP key, computed here from its required members."""
    canonical = json.dumps({"crv": jwk["crv"], "kty": jwk["kty"], "x": jwk["x"]},
                           separators=(",", ":"), sort_keys=True)
    return b64e(hashlib.sha256(canonical.encode("utf-8")).digest())


def intent(key, amount="1.00", payee="tim-cook", **extra):
    doc = {"intent": "send_payment", "payee": {"id": payee},
           "currencyAmount": {"amount": amount, "currency": "USD"}, "idempotencyKey": key}
    doc.update(extra)
    return doc


def pay(engine, key, amount="1.00", **extra):
    """Pays through the whole dialog; returns the Record."""
    with engine.session(intent(key, amount, **extra)) as session:
        resolution = session.resolve()
        assert resolution["complete"], resolution
        code, _ = session.confirm()
        assert code is ResponseCode.READY
        code, record = session.handle()
        assert code is ResponseCode.SUCCESS
        assert isinstance(record, tender.Record)
        return record


def balance_minor(engine, account_id="checking"):
    for acc in engine.directory()["accounts"]:
        if acc["id"] == account_id:
            units, _, cents = acc["balance"]["amount"].partition(".")
            return int(units) * 100 + int(cents or 0)
    raise AssertionError(account_id)


def verify_fresh(home, checkpoint=None, trusted_key=None):
    """verify() on a newly opened engine (after the store was edited)."""
    with tender.Engine(home, authentication=NO_AUTH) as engine:
        return engine.verify(checkpoint, trusted_key=trusted_key)


def tampered_message(home, checkpoint=None, trusted_key=None):
    with pytest.raises(tender.LedgerTamperedError) as info:
        verify_fresh(home, checkpoint, trusted_key)
    err = info.value
    assert err.code == 402 and err.name == "TENDER_E_LEDGER_TAMPERED"
    assert isinstance(err, tender.TenderError)
    return err.message


@contextlib.contextmanager
def store(home):
    """A sqlite3 connection on HOME/tender.sqlite3, committed and closed on exit."""
    db = sqlite3.connect(os.path.join(os.fspath(home), "tender.sqlite3"))
    try:
        yield db
        db.commit()
    finally:
        db.close()


def read_ledger(db):
    """Every row of the ledger table, in order, as a dict of all its columns
    (at least sequence, type, jws and hash)."""
    cursor = db.execute("SELECT * FROM ledger ORDER BY sequence")
    names = [d[0] for d in cursor.description]
    return [dict(zip(names, row)) for row in cursor.fetchall()]


def insert_row(db, row):
    names = list(row)
    db.execute(f"INSERT INTO ledger ({', '.join(names)}) VALUES ({', '.join('?' * len(names))})",
               [row[n] for n in names])


def rewrite_ledger(db, rows):
    """Replaces the whole ledger table by `rows` (dicts of columns), numbered
    1..n so sequences stay contiguous."""
    db.execute("DELETE FROM ledger")
    for number, row in enumerate(rows, start=1):
        insert_row(db, dict(row, sequence=number))


def duplicate(row):
    """A copy of a ledger row that the table's own constraints accept (a
    unique idempotency-key column, where the store has one, gets a new value;
    it is not signed)."""
    row = dict(row)
    if row.get("idempotency_key"):
        row["idempotency_key"] += "#copy"
    return row


def resign(row, token):
    """The row with a new JWS, and its hash column (the link the next
    appended entry takes) updated to match."""
    return dict(row, jws=token, hash=link_hash(token))


def paid_in_store(db, key):
    """Whether the store holds a payment with this idempotency key (payments
    are rows of the single ledger table)."""
    return db.execute("SELECT 1 FROM ledger WHERE type = 'payment' AND idempotency_key = ?",
                      (key,)).fetchone() is not None


LEDGER_COLUMNS = ["sequence", "type", "jws", "hash", "idempotency_key", "fingerprint", "account_id",
                  "payee_contact_id", "payee_handle_id", "currency", "amount_minor", "effects", "subject", "status",
                  "seal"]


def sign_with(private_key, header, payload_bytes):
    """A compact JWS signed here with a `cryptography` Ed25519 private key."""
    head = b64e(json.dumps(header, separators=(",", ":")).encode())
    body = b64e(payload_bytes)
    signature = private_key.sign(f"{head}.{body}".encode("ascii"))
    return f"{head}.{body}.{b64e(signature)}"


def foreign_key():
    """A new Ed25519 key that Tender never saw: (private key, JWK with kid)."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    key = Ed25519PrivateKey.generate()
    raw = key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    jwk = {"kty": "OKP", "crv": "Ed25519", "x": b64e(raw)}
    jwk["kid"] = thumbprint(jwk)
    return key, jwk


def joserfc_verify(token, jwk):
    """Verifies with joserfc; returns (header, payload bytes)."""
    from joserfc import jws
    from joserfc.jwk import OKPKey

    obj = jws.deserialize_compact(token, OKPKey.import_key(jwk), algorithms=["Ed25519"])
    return obj.headers(), obj.payload


def _cli_path():
    explicit = os.environ.get("TENDER_CLI", "")
    if explicit:
        if not (os.path.isfile(explicit) and os.access(explicit, os.X_OK)):
            pytest.fail(f"TENDER_CLI={explicit} is not an executable file")
        return explicit
    fallback = os.path.join(_REPO, "build", "bin", "tender")
    return fallback if os.path.isfile(fallback) and os.access(fallback, os.X_OK) else None


def _cli_runner():
    """cli(*args) -> CompletedProcess for the tender command-line tool, or None."""
    path = _cli_path()
    if path is None:
        return None

    def run(*args):
        return subprocess.run([path, *map(os.fspath, args)], capture_output=True, text=True, timeout=60)

    return run


@pytest.fixture
def cli():
    """The tender command-line tool (the test is skipped without it)."""
    run = _cli_runner()
    if run is None:
        pytest.skip("the tender command-line tool was not found: set TENDER_CLI "
                    f"(default {os.path.join(_REPO, 'build', 'bin', 'tender')})")
    return run


def _child_env():
    env = dict(os.environ)
    # the same binding as the one under test (installed or from the checkout)
    env["PYTHONPATH"] = os.path.dirname(os.path.dirname(os.path.abspath(tender.__file__)))
    return env


@pytest.fixture
def five(engine, home):
    """An engine with the directory's signed balances (sequence 1) and 5 payments of
    $1.00 ... $5.00 (sequences 2-6) and a checkpoint taken after them, then closed.
    Returns (home, records, checkpoint)."""
    records = [pay(engine, f"five-{i}", f"{i}.00") for i in range(1, 6)]
    checkpoint = engine.checkpoint()
    assert engine.verify(checkpoint)["records"] == 6
    engine.close()
    return home, records, checkpoint


# ------------------------------------------------------------ binding shape


def test_record_is_a_dict_with_its_jws(engine):
    record = pay(engine, "shape-1", note="Café ☕")
    assert isinstance(record, dict)
    assert record["type"] == "payment" and record["sequence"] == FIRST
    assert record["previousHash"] == link_hash(engine.ledger()[0]["jws"])
    assert record.header == {"alg": "Ed25519", "kid": engine.public_key("jwk")["kid"]}
    assert record.kid == engine.public_key("jwk")["kid"]
    # the JWS payload is the record, byte for byte
    header, payload, _ = jws_parts(record.jws)
    assert json.loads(payload.decode("utf-8")) == record
    # equal to the plain dict of payments(); the JWS is not part of equality
    assert engine.payments() == [record]
    assert type(engine.payments()[0]) is dict
    again = record.copy()
    assert isinstance(again, tender.Record) and again.jws == record.jws
    back = pickle.loads(pickle.dumps(record))
    assert back == record and back.jws == record.jws
    assert "jws=" in repr(record)
    # handling again returns the same record and the same JWS
    with engine.session(intent("shape-1", note="Café ☕")) as session:
        session.resolve()
        session.confirm()
        code, same = session.handle()
    assert code is ResponseCode.SUCCESS and same == record and same.jws == record.jws


def test_failed_handle_has_no_record(engine):
    with engine.session(intent("too-much", "900.00")) as session:
        session.resolve()
        assert session.confirm()[0] is ResponseCode.READY
        pay(engine, "drain", "200.00")  # funds leave between confirm and handle
        assert session.handle() == (ResponseCode.FAILURE_INSUFFICIENT_FUNDS, None)


def test_new_result_codes():
    assert tender.result_name(400) == "TENDER_E_CRYPTO"
    assert tender.result_name(401) == "TENDER_E_KEY_FILE"
    assert tender.result_name(402) == "TENDER_E_LEDGER_TAMPERED"
    assert tender.errors.error_class(400) is tender.CryptoError
    assert tender.errors.error_class(401) is tender.KeyFileError
    assert tender.errors.error_class(402) is tender.LedgerTamperedError
    assert tender.ResultCode.LEDGER_TAMPERED == 402


def test_public_key_formats(engine):
    pem = engine.public_key()
    assert pem == engine.public_key("pem") == engine.public_key(tender.KeyFormat.PEM)
    assert pem.startswith("-----BEGIN PUBLIC KEY-----\n")
    jwk = engine.public_key("jwk")
    assert jwk == engine.public_key(tender.KeyFormat.JWK) == engine.public_key("JWK")
    assert set(jwk) == {"kty", "crv", "x", "kid"}
    assert jwk["kty"] == "OKP" and jwk["crv"] == "Ed25519"
    assert jwk["kid"] == thumbprint(jwk)
    # PEM and JWK are the same key
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat, load_pem_public_key
    raw = load_pem_public_key(pem.encode()).public_bytes(Encoding.Raw, PublicFormat.Raw)
    assert raw == b64d(jwk["x"]) and len(raw) == 32
    from joserfc.jwk import OKPKey
    assert OKPKey.import_key(jwk).thumbprint() == jwk["kid"]
    with pytest.raises(ValueError):
        engine.public_key("der")
    with pytest.raises(tender.InvalidArgumentError):
        engine.public_key(7)
    with pytest.raises(TypeError):
        engine.public_key(None)


def test_empty_ledger(home):
    engine = tender.Engine(home, authentication=NO_AUTH)
    assert engine.ledger() == []
    report = engine.verify()
    assert report == {"valid": True, "records": 0, "headHash": GENESIS, "keys": []}
    checkpoint = engine.checkpoint()
    header, payload, _ = jws_parts(checkpoint)
    assert json.loads(payload)["count"] == 0
    assert engine.verify(checkpoint)["records"] == 0
    engine.close()


def test_closed_engine_ledger_calls(home):
    engine = tender.Engine(home, authentication=NO_AUTH)
    engine.close()
    for call in (engine.ledger, engine.verify, engine.checkpoint, engine.public_key, engine.rotate_key):
        with pytest.raises(tender.ClosedError):
            call()


def test_verify_checkpoint_argument(engine):
    pay(engine, "cp-1")
    checkpoint = engine.checkpoint()
    assert engine.verify(checkpoint + "\n")["records"] == 2  # whitespace is ignored
    assert engine.verify(checkpoint.encode())["records"] == 2
    with pytest.raises(tender.LedgerTamperedError) as info:
        engine.verify("not a checkpoint")
    assert info.value.message.startswith("checkpoint:")
    with pytest.raises(tender.InvalidUTF8Error):
        engine.verify(b"\xff\xfe")
    with pytest.raises(TypeError):
        engine.verify(42)


# ---------------------------------------------------------- interoperability


def test_every_record_verifies_with_joserfc(engine):
    records = [pay(engine, f"jose-{i}", f"{i}.25", **({"note": "Café ☕ 🍰"} if i == 2 else {}))
               for i in range(1, 6)]
    jwk = engine.public_key("jwk")
    whole = engine.ledger()
    assert [e["sequence"] for e in whole] == [1, 2, 3, 4, 5, 6]
    assert [e["type"] for e in whole] == ["balances"] + ["payment"] * 5
    balances, ledger = whole[0], whole[1:]
    assert balances["record"]["accounts"] == [{"account": "checking", "currency": "USD", "balanceMinor": 100000}]
    previous = link_hash(balances["jws"])
    for entry, record in zip(ledger, records):
        assert entry["jws"] == record.jws
        assert entry["record"] == record
        header, payload = joserfc_verify(record.jws, jwk)
        assert header == {"alg": "Ed25519", "kid": jwk["kid"]}
        assert json.loads(payload.decode("utf-8")) == record
        assert record["sequence"] == entry["sequence"]
        assert record["previousHash"] == previous  # the chain, recomputed here
        previous = link_hash(record.jws)
    assert records[1]["note"] == "Café ☕ 🍰"
    # the whole ledger, verified without Tender
    assert python_verify([e["jws"] for e in whole], {jwk["kid"]: jwk}) == [balances["record"]] + records
    report = engine.verify()
    assert report == {"valid": True, "records": 6, "headHash": previous, "keys": [jwk["kid"]]}

    # the checkpoint is a JWS too, over the count and the head hash
    header, payload = joserfc_verify(engine.checkpoint(), jwk)
    checkpoint = json.loads(payload)
    assert header["kid"] == jwk["kid"]
    assert checkpoint["type"] == "checkpoint"
    assert checkpoint["count"] == 6 and checkpoint["headHash"] == previous

    # joserfc rejects a changed payload and a foreign key
    from joserfc.errors import BadSignatureError
    head, body, sig = records[0].jws.split(".")
    changed = json.loads(b64d(body))
    changed["currencyAmount"]["amount"] = "9.25"
    forged = f"{head}.{b64e(json.dumps(changed, separators=(',', ':')).encode())}.{sig}"
    with pytest.raises(BadSignatureError):
        joserfc_verify(forged, jwk)
    with pytest.raises(BadSignatureError):
        joserfc_verify(records[0].jws, foreign_key()[1])


def _raw_payments(engine):
    """The exact bytes tender_engine_payments() writes (the binding parses
    them; this reads them unparsed through the binding's private ctypes
    handle, to compare bytes)."""
    from ctypes import byref, c_size_t, c_void_p
    ptr, length = c_void_p(), c_size_t()
    with engine._use() as handle:
        assert tender._clib.tender_engine_payments(handle, byref(ptr), byref(length)) == 0
    return tender._take_text(ptr, length).encode("utf-8")


def test_chain_link_definition(engine, home):
    """previousHash is pinned here (and in link_hash) as base64url SHA-256 of
    the previous record's payload bytes: the base64url-decoded middle part of
    its JWS, which is the record JSON the API returns, byte for byte. Record
    1 (the directory's signed balances) links to 32 zero bytes. The head hashes
    of verify() and of checkpoints are the hash of the last payload."""
    first, second = pay(engine, "link-1"), pay(engine, "link-2", note="Café ☕")
    assert GENESIS == b64e(bytes(32)) and len(GENESIS) == 43
    balances = engine.ledger()[0]
    assert balances["record"]["previousHash"] == GENESIS and first["previousHash"] == link_hash(balances["jws"])
    first_payload = jws_parts(first.jws)[1]
    assert second["previousHash"] == b64e(hashlib.sha256(first_payload).digest()) == link_hash(first.jws), (
        "the chain link is not SHA-256 of the previous payload; update link_hash()")
    # not the hash of the JWS text (the earlier definition)
    assert second["previousHash"] != b64e(hashlib.sha256(first.jws.encode("ascii")).digest())
    # the hashed bytes are the record JSON the API returns, byte for byte
    raw = _raw_payments(engine)
    for record in (first, second):
        payload = jws_parts(record.jws)[1]
        assert payload in raw, (payload, raw)
        assert json.loads(payload) == record
    assert "Café ☕".encode("utf-8") in jws_parts(second.jws)[1]  # UTF-8, not \u escapes, in the hashed bytes
    head = link_hash(second.jws)
    assert engine.verify()["headHash"] == head
    assert json.loads(jws_parts(engine.checkpoint())[1])["headHash"] == head
    # the store's hash column holds the same link hashes
    with store(home) as db:
        assert [r["hash"] for r in read_ledger(db)] == [link_hash(balances["jws"]), link_hash(first.jws), head]


def test_store_schema_has_one_ledger_table(engine, home):
    """The tamper and crash tests edit HOME/tender.sqlite3: payments are rows
    of the single ledger table (no payments table)."""
    pay(engine, "schema-1")
    with store(home) as db:
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert "ledger" in tables and "payments" not in tables
        assert "signing_keys" in tables
        assert [r[1] for r in db.execute("PRAGMA table_info(ledger)")] == LEDGER_COLUMNS
        (balances, row) = read_ledger(db)
        assert balances["type"] == "balances" and balances["idempotency_key"] is None
        assert row["type"] == "payment" and row["idempotency_key"] == "schema-1"
        assert row["amount_minor"] == 100 and row["currency"] == "USD"
        assert paid_in_store(db, "schema-1") and not paid_in_store(db, "schema-2")


@pytest.mark.skipif(shutil.which("openssl") is None, reason="the openssl command is not installed")
def test_every_record_verifies_with_openssl(engine, tmp_path):
    records = [pay(engine, f"ossl-{i}", f"{i}.00") for i in range(1, 4)]
    pem_file = tmp_path / "pub.pem"
    pem_file.write_text(engine.public_key("pem"))
    out = subprocess.run(["openssl", "pkey", "-pubin", "-in", pem_file, "-noout", "-text"],
                         capture_output=True, text=True)
    assert out.returncode == 0 and "ED25519" in out.stdout.upper(), out

    def openssl_verify(signing_input, signature):
        (tmp_path / "input.bin").write_bytes(signing_input)
        (tmp_path / "sig.bin").write_bytes(signature)
        return subprocess.run(
            ["openssl", "pkeyutl", "-verify", "-pubin", "-inkey", pem_file, "-rawin",
             "-in", tmp_path / "input.bin", "-sigfile", tmp_path / "sig.bin"],
            capture_output=True, text=True, timeout=60)

    for record in records + [engine.checkpoint()]:
        token = record.jws if isinstance(record, dict) else record
        head, body, sig = token.split(".")
        signing_input = f"{head}.{body}".encode("ascii")
        signature = b64d(sig)
        assert len(signature) == 64
        ok = openssl_verify(signing_input, signature)
        assert ok.returncode == 0, ok
        assert "Signature Verified Successfully" in ok.stdout
        # one flipped byte, in the signed input or in the signature, fails
        flipped = bytearray(signing_input)
        flipped[len(flipped) // 2] ^= 0x01
        bad = openssl_verify(bytes(flipped), signature)
        assert bad.returncode != 0 and "Signature Verified Successfully" not in bad.stdout, bad
        flipped_sig = bytearray(signature)
        flipped_sig[10] ^= 0x80
        bad = openssl_verify(signing_input, bytes(flipped_sig))
        assert bad.returncode != 0 and "Signature Verified Successfully" not in bad.stdout, bad


def test_cli_agrees_with_the_library(five, cli, tmp_path):
    home, records, checkpoint = five
    with tender.Engine(home, authentication=NO_AUTH) as engine:
        jwk = engine.public_key("jwk")
        pem = engine.public_key("pem")
        report = engine.verify()
    shown = cli("key", "show", "--home", home, "--jwk")
    assert shown.returncode == 0, shown.stderr
    assert json.loads(shown.stdout) == jwk
    shown = cli("key", "show", "--home", home)
    assert shown.returncode == 0 and shown.stdout == pem, shown
    verified = cli("verify", "--home", home)
    assert verified.returncode == 0, verified.stderr
    assert "ledger valid: 6 records" in verified.stdout
    verified = cli("verify", "--home", home, "--json")
    assert verified.returncode == 0 and json.loads(verified.stdout) == report
    (tmp_path / "cp.jws").write_text(checkpoint + "\n")
    (tmp_path / "key.jwk").write_text(json.dumps(jwk))
    verified = cli("verify", "--home", home, "--checkpoint", tmp_path / "cp.jws", "--public-key", tmp_path / "key.jwk")
    assert verified.returncode == 0, verified.stderr
    # a checkpoint from the CLI is accepted by the library
    made = cli("checkpoint", "--home", home)
    assert made.returncode == 0, made.stderr
    assert verify_fresh(home, made.stdout)["records"] == 6

    # after tampering: exit status 1, naming the record
    with store(home) as db:
        jws = db.execute("SELECT jws FROM ledger WHERE sequence = 4").fetchone()[0]
        head, body, sig = jws.split(".")
        payload = b64d(body).replace(b'"amount":"3.00"', b'"amount":"8.00"')
        db.execute("UPDATE ledger SET jws = ? WHERE sequence = 4", (f"{head}.{b64e(payload)}.{sig}",))
    failed = cli("verify", "--home", home)
    assert failed.returncode == 1, failed
    assert "record 4" in failed.stderr
    failed = cli("verify", "--home", home, "--json")
    assert failed.returncode == 1 and json.loads(failed.stdout)["valid"] is False


# ---------------------------------------------------------- tamper detection


def _edit_payload_byte(db, rows):
    head, body, sig = rows[3]["jws"].split(".")
    payload = bytearray(b64d(body))
    at = payload.index(b'"amount":"3.00"') + len(b'"amount":"')
    payload[at] = ord("9")  # one byte: 3.00 -> 9.00
    db.execute("UPDATE ledger SET jws = ? WHERE sequence = 4", (f"{head}.{b64e(bytes(payload))}.{sig}",))


def _delete_and_renumber(db, rows):
    rewrite_ledger(db, [r for r in rows if r["sequence"] != 3])


def _delete_leaving_a_gap(db, rows):
    db.execute("DELETE FROM ledger WHERE sequence = 3")


def _swap_2_and_4(db, rows):
    two, four = rows[1]["jws"], rows[3]["jws"]
    db.execute("UPDATE ledger SET jws = ? WHERE sequence = 2", (four,))
    db.execute("UPDATE ledger SET jws = ? WHERE sequence = 4", (two,))


def _insert_copy_after_2(db, rows):
    rewrite_ledger(db, rows[:2] + [duplicate(rows[1])] + rows[2:])


def _append_copy(db, rows):
    insert_row(db, dict(duplicate(rows[-1]), sequence=7))


def _resign_1_with_a_foreign_key(db, rows):
    key, jwk = foreign_key()
    payload = jws_parts(rows[0]["jws"])[1]  # same payload: the links stay intact
    db.execute("UPDATE ledger SET jws = ? WHERE sequence = 1",
               (sign_with(key, {"alg": "Ed25519", "kid": jwk["kid"]}, payload),))


def _resign_2_with_a_foreign_key(db, rows):
    key, jwk = foreign_key()
    payload = jws_parts(rows[1]["jws"])[1]
    db.execute("UPDATE ledger SET jws = ? WHERE sequence = 2",
               (sign_with(key, {"alg": "Ed25519", "kid": jwk["kid"]}, payload),))


def _resign_2_with_a_foreign_key_claiming_the_real_kid(db, rows):
    key, _ = foreign_key()
    header, payload, _ = jws_parts(rows[1]["jws"])
    db.execute("UPDATE ledger SET jws = ? WHERE sequence = 2", (sign_with(key, header, payload),))


def _garbage_jws(db, rows):
    db.execute("UPDATE ledger SET jws = 'not.a-jws' WHERE sequence = 4")


@pytest.mark.parametrize("tamper, record, why", [
    (_edit_payload_byte, 4, "the signature does not verify"),
    (_delete_and_renumber, 3, "its signed sequence number is not 3"),
    (_delete_leaving_a_gap, 3, "stored at position 4"),
    (_swap_2_and_4, 2, "its signed sequence number is not 2"),
    (_insert_copy_after_2, 3, "its signed sequence number is not 3"),
    (_append_copy, 7, "its signed sequence number is not 7"),
    (_resign_1_with_a_foreign_key, 1, "signed by an untrusted key "),
    (_resign_2_with_a_foreign_key, 2, "was the signing key then"),
    (_resign_2_with_a_foreign_key_claiming_the_real_kid, 2, "the signature does not verify"),
    (_garbage_jws, 4, "not a compact JWS"),
], ids=lambda v: v.__name__.strip("_") if callable(v) else None)
def test_tampering_is_found(five, tamper, record, why):
    home, records, checkpoint = five
    with store(home) as db:
        tamper(db, read_ledger(db))
    message = tampered_message(home)
    assert message.startswith(f"record {record}: "), message
    assert why in message, message
    # the checkpoint does not hide it either
    message = tampered_message(home, checkpoint)
    assert message.startswith(f"record {record}: "), message


def test_truncating_the_tail_needs_a_checkpoint(five):
    home, records, checkpoint = five
    removed = sum(r["ledger"]["amountMinor"] for r in records[3:])
    with store(home) as db:
        db.execute("DELETE FROM ledger WHERE sequence > 4")
    # The balances re-derived from the shorter ledger disagree with the store.
    assert "disagrees with the signed ledger for: checking" in tampered_message(home)
    with store(home) as db:
        db.execute("UPDATE accounts SET balance_minor = balance_minor + ? WHERE id = 'checking'", (removed,))
    # Balances put back, a shorter ledger is a valid ledger: removing entries
    # at the end leaves every signature and link intact. Only a checkpoint
    # kept elsewhere can tell.
    report = verify_fresh(home)
    assert report["records"] == 4
    assert report["headHash"] == link_hash(records[2].jws)
    message = tampered_message(home, checkpoint)
    assert "checkpoint covers 6" in message and "truncated" in message, message


def test_ledger_with_an_entry_that_is_not_a_jws(five):
    home, records, checkpoint = five
    with store(home) as db:
        _garbage_jws(db, read_ledger(db))
    with tender.Engine(home, authentication=NO_AUTH) as engine:
        with pytest.raises(tender.LedgerTamperedError):
            engine.ledger()
        with pytest.raises(tender.LedgerTamperedError):  # tender.h: a stored record is not a JWS
            engine.payments()
        with pytest.raises(tender.LedgerTamperedError) as info:
            engine.verify()
        assert info.value.message.startswith("record 4: "), info.value.message


# ----------------------------------------------------------------- rotation


def test_key_rotation(engine, home):
    before = [pay(engine, f"rot-{i}") for i in range(3)]
    old = engine.public_key("jwk")
    old_file = os.path.join(home, "keys", f"{old['kid']}.pem")
    assert os.path.exists(old_file)
    checkpoint = engine.checkpoint()

    new_kid = engine.rotate_key()
    assert new_kid != old["kid"]
    new = engine.public_key("jwk")
    assert new["kid"] == new_kid == thumbprint(new)
    assert not os.path.exists(old_file), "the retired private key must be destroyed"
    new_file = os.path.join(home, "keys", f"{new_kid}.pem")
    assert stat.S_IMODE(os.stat(new_file).st_mode) == 0o600
    assert sorted(os.listdir(os.path.join(home, "keys"))) == [f"{new_kid}.pem"]

    after = [pay(engine, f"rot-{i}") for i in range(3, 5)]
    report = engine.verify(checkpoint)
    assert report["records"] == 7 and report["keys"] == [old["kid"], new_kid]

    ledger = engine.ledger()
    assert [e["type"] for e in ledger] == ["balances"] + ["payment"] * 3 + ["key_rotation"] + ["payment"] * 2
    rotation = ledger[4]
    assert rotation["record"]["newKid"] == new_kid
    assert rotation["record"]["newKey"] == {"kty": "OKP", "crv": "Ed25519", "x": new["x"]}
    assert rotation["record"]["sequence"] == 5
    assert rotation["record"]["previousHash"] == link_hash(before[-1].jws)
    # the hand-over is signed by the old key, what follows by the new one
    assert [jws_parts(e["jws"])[0]["kid"] for e in ledger] == [old["kid"]] * 5 + [new_kid] * 2
    assert [r.kid for r in after] == [new_kid] * 2

    # each entry verifies with joserfc under its own key only
    from joserfc.errors import BadSignatureError
    jwks = {old["kid"]: old, new_kid: new}
    for entry in ledger:
        kid = jws_parts(entry["jws"])[0]["kid"]
        header, payload = joserfc_verify(entry["jws"], jwks[kid])
        assert json.loads(payload) == entry["record"]
        other = jwks[new_kid if kid == old["kid"] else old["kid"]]
        with pytest.raises(BadSignatureError):
            joserfc_verify(entry["jws"], other)
    assert python_verify([e["jws"] for e in ledger], jwks) == [e["record"] for e in ledger]

    # a fresh engine (another process would do the same) signs with the new key
    with tender.Engine(home, authentication=NO_AUTH) as second:
        assert pay(second, "rot-5").kid == new_kid
        assert second.verify()["records"] == 8


class Rotated:
    """What _rotated_ledger made: the private keys (`cryptography` objects),
    JWKs and PEMs of the old and new keys."""

    def __init__(self, **fields):
        self.__dict__.update(fields)


def _rotated_ledger(engine, home):
    """3 payments, a rotation, 2 payments (after the directory's balances, entry 1:
    entries 2-4 and the rotation 5 signed by the old key, 6-7 by the new one); the engine is closed."""
    from cryptography.hazmat.primitives.serialization import load_pem_private_key
    before = len(engine.ledger())
    for i in range(3):
        pay(engine, f"r-{i}")
    old, old_pem = engine.public_key("jwk"), engine.public_key("pem")
    with open(os.path.join(home, "keys", f"{old['kid']}.pem"), "rb") as f:
        old_key = load_pem_private_key(f.read(), None)  # e.g. a backup, made before the rotation
    engine.rotate_key()
    new, new_pem = engine.public_key("jwk"), engine.public_key("pem")
    with open(os.path.join(home, "keys", f"{new['kid']}.pem"), "rb") as f:
        new_key = load_pem_private_key(f.read(), None)
    for i in range(3, 5):
        pay(engine, f"r-{i}")
    assert engine.verify()["records"] == before + 6
    engine.close()
    return Rotated(old_key=old_key, old=old, old_pem=old_pem, new_key=new_key, new=new, new_pem=new_pem)


def test_every_key_from_the_cli_verifies_the_rotated_ledger(engine, home, cli):
    """No API lists retired public keys; `tender key show --all` prints every
    key that ever signed, one JWK per line. Those alone verify the ledger."""
    r = _rotated_ledger(engine, home)
    listed = cli("key", "show", "--all", "--home", home)
    assert listed.returncode == 0, listed.stderr
    jwks = {j["kid"]: j for j in map(json.loads, listed.stdout.splitlines())}
    assert jwks == {r.old["kid"]: r.old, r.new["kid"]: r.new}
    with tender.Engine(home, authentication=NO_AUTH) as engine:
        ledger = engine.ledger()
    tokens = [e["jws"] for e in ledger]
    assert python_verify(tokens, jwks) == [e["record"] for e in ledger]
    assert python_verify(tokens, jwks, root=r.old["kid"]) == [e["record"] for e in ledger]
    assert cli("verify", "--home", home).returncode == 0


def _sign_record(private_key, kid, record):
    return sign_with(private_key, {"alg": "Ed25519", "kid": kid},
                     json.dumps(record, separators=(",", ":"), ensure_ascii=False).encode("utf-8"))


def test_a_retired_key_cannot_sign_after_its_rotation(engine, home):
    r = _rotated_ledger(engine, home)
    with store(home) as db:
        rows = read_ledger(db)
        record = json.loads(jws_parts(rows[6]["jws"])[1])
        record["currencyAmount"]["amount"] = "0.01"
        rows[6] = resign(rows[6], _sign_record(r.old_key, r.old["kid"], record))
        rewrite_ledger(db, rows)
    tokens = [row["jws"] for row in rows]
    # well-formed: signed, numbered and linked; only the key is wrong for entry 7
    python_verify(tokens, {r.old["kid"]: r.old, r.new["kid"]: r.new})
    with pytest.raises(ForgeryError, match="entry 7: "):  # and the chain of trust refuses it
        python_verify(tokens, {r.old["kid"]: r.old}, root=r.old["kid"])
    expected = f"record 7: signed by key {r.old['kid']}, but {r.new['kid']} was the signing key then"
    assert tampered_message(home) == expected
    assert tampered_message(home, trusted_key=r.old_pem) == expected


@pytest.mark.parametrize("first_forged", [1, 3], ids=["whole-history", "record-3-only"])
def test_a_new_key_cannot_sign_before_its_rotation(engine, home, first_forged):
    """The new key re-signs (and re-links) records from `first_forged` on,
    including the rotation that introduced it."""
    r = _rotated_ledger(engine, home)
    with store(home) as db:
        rows = read_ledger(db)
        previous = rows[first_forged - 2]["hash"] if first_forged > 1 else GENESIS
        for index in range(first_forged - 1, len(rows)):
            record = json.loads(jws_parts(rows[index]["jws"])[1])
            record["previousHash"] = previous
            if index == first_forged - 1 and "currencyAmount" in record:  # entry 1 is the directory's balances
                record["currencyAmount"]["amount"] = "0.01"
            token = _sign_record(r.new_key, r.new["kid"], record)
            previous = link_hash(token)
            rows[index] = resign(rows[index], token)
        rewrite_ledger(db, rows)
    tokens = [row["jws"] for row in rows]
    python_verify(tokens, {r.old["kid"]: r.old, r.new["kid"]: r.new})  # well-formed
    with pytest.raises(ForgeryError, match=f"entry {first_forged}: "):
        python_verify(tokens, {r.old["kid"]: r.old}, root=r.old["kid"])
    if first_forged == 1:
        expected = f"record 1: signed by an untrusted key {r.new['kid']}"
    else:
        expected = f"record {first_forged}: signed by key {r.new['kid']}, but {r.old['kid']} was the signing key then"
    assert tampered_message(home) == expected
    assert tampered_message(home, trusted_key=r.old) == expected


# Both tests below were strict xfails while libtender chose the unpinned root
# by wall-clock time (signing_keys ORDER BY created_at_ms, kid); it now takes
# the first key recorded (rowid order), whatever the clock said.


def test_a_rotation_right_after_the_first_key_keeps_the_ledger_valid(tmp_path):
    """A fresh engine whose first call is rotate_key(): the first key is
    created and rotated out in one call, often within one millisecond. No
    store is edited here; each genuine ledger must verify."""
    for attempt in range(100):
        with tender.Engine(tmp_path / f"home-{attempt}", authentication=NO_AUTH) as engine:
            old = engine.public_key("jwk")["kid"] if attempt % 2 else None  # half: key made first
            new = engine.rotate_key()
            report = engine.verify()
            assert report["records"] == 1 and new not in report["keys"]
            assert old is None or report["keys"] == [old]


def test_the_default_root_does_not_depend_on_the_wall_clock(engine, home):
    """The wall clock steps back (NTP, a VM restore) between the first key's
    creation and a rotation: simulated by giving the new key's row an earlier
    created_at_ms, which is what such a clock would have written."""
    pay(engine, "clock-1")
    old = engine.public_key("jwk")
    new_kid = engine.rotate_key()
    pay(engine, "clock-2")
    engine.close()
    with store(home) as db:
        (created,) = db.execute("SELECT created_at_ms FROM signing_keys WHERE kid = ?", (old["kid"],)).fetchone()
        db.execute("UPDATE signing_keys SET created_at_ms = ? WHERE kid = ?", (created - 60_000, new_kid))
    assert verify_fresh(home, trusted_key=old)["records"] == 4  # the ledger itself is genuine
    assert verify_fresh(home)["records"] == 4


# ---------------------------------------------------------- pinned root key


def test_pinning_the_original_key_verifies_across_a_rotation(engine, home, tmp_path):
    pay(engine, "pin-0")
    checkpoint = engine.checkpoint()  # signed by the key that is retired below
    r = _rotated_ledger(engine, home)
    expected_keys = [r.old["kid"], r.new["kid"]]
    without_kid = {k: v for k, v in r.old.items() if k != "kid"}
    for pinned in (r.old_pem, r.old_pem.encode("ascii"), r.old, without_kid, json.dumps(r.old),
                   json.dumps(r.old).encode("utf-8")):
        report = verify_fresh(home, trusted_key=pinned)
        assert report["valid"] is True and report["records"] == 8, pinned
        assert report["keys"] == expected_keys
        assert verify_fresh(home, checkpoint, trusted_key=pinned)["records"] == 8
    assert verify_fresh(home) == verify_fresh(home, trusted_key=r.old_pem)
    cli = _cli_runner()
    if cli is not None:
        (tmp_path / "old.pem").write_text(r.old_pem)
        (tmp_path / "old.jwk").write_text(json.dumps(r.old))
        for path in ("old.pem", "old.jwk"):
            pinned = cli("verify", "--home", home, "--public-key", tmp_path / path)
            assert pinned.returncode == 0, pinned


def test_pinning_the_new_key_as_root_fails_at_record_1(engine, home, tmp_path):
    r = _rotated_ledger(engine, home)
    expected = f"record 1: signed by an untrusted key {r.old['kid']}"
    for pinned in (r.new_pem, r.new, json.dumps(r.new)):
        assert tampered_message(home, trusted_key=pinned) == expected
    assert tampered_message(home, trusted_key=foreign_key()[1]) == expected
    cli = _cli_runner()
    if cli is not None:
        (tmp_path / "new.pem").write_text(r.new_pem)
        pinned = cli("verify", "--home", home, "--public-key", tmp_path / "new.pem")
        assert pinned.returncode == 1 and "record 1" in pinned.stderr, pinned


def test_pinned_key_and_checkpoint_of_an_empty_ledger(home):
    engine = tender.Engine(home, authentication=NO_AUTH)
    pem = engine.public_key("pem")  # creates the key; the ledger stays empty
    checkpoint = engine.checkpoint()
    foreign = foreign_key()[1]
    assert engine.verify(checkpoint, trusted_key=pem)["records"] == 0
    # the balances the directory sets are signed, by the genuine key only
    engine.import_directory(DIRECTORY)
    with pytest.raises(tender.LedgerTamperedError, match="record 1: signed by an untrusted key"):
        engine.verify(trusted_key=foreign)
    assert engine.verify(checkpoint, trusted_key=pem)["records"] == 1
    with pytest.raises(tender.LedgerTamperedError) as info:
        engine.verify(checkpoint, trusted_key=foreign)
    assert info.value.message.startswith("record 1: "), info.value.message
    engine.close()


def _non_ed25519_pem(kind):
    from cryptography.hazmat.primitives.asymmetric import ec, ed448, rsa, x25519
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
    key = {"rsa": lambda: rsa.generate_private_key(65537, 2048),
           "x25519": x25519.X25519PrivateKey.generate,
           "ed448": ed448.Ed448PrivateKey.generate,
           "p256": lambda: ec.generate_private_key(ec.SECP256R1())}[kind]()
    return key.public_key().public_bytes(Encoding.PEM, PublicFormat.SubjectPublicKeyInfo).decode()


@pytest.mark.parametrize("key", [
    pytest.param(lambda jwk: _non_ed25519_pem("rsa"), id="rsa-pem"),
    pytest.param(lambda jwk: _non_ed25519_pem("p256"), id="p256-pem"),
    pytest.param(lambda jwk: _non_ed25519_pem("x25519"), id="x25519-pem"),
    pytest.param(lambda jwk: _non_ed25519_pem("ed448"), id="ed448-pem"),
    pytest.param(lambda jwk: "-----BEGIN PUBLIC KEY-----\ngarbage\n-----END PUBLIC KEY-----\n", id="pem-garbage"),
    pytest.param(lambda jwk: {"kty": "RSA", "n": "sXch", "e": "AQAB"}, id="rsa-jwk"),
    pytest.param(lambda jwk: dict(jwk, crv="X25519"), id="x25519-jwk"),
    pytest.param(lambda jwk: dict(jwk, x=jwk["x"][:-2]), id="short-x-jwk"),
    pytest.param(lambda jwk: {k: v for k, v in jwk.items() if k != "x"}, id="jwk-without-x"),
    pytest.param(lambda jwk: "[]", id="json-array"),
    # "garbage" and "" were strict xfails while libtender answered
    # TENDER_E_INVALID_JSON, which tender.h does not list for verify.
    pytest.param(lambda jwk: "garbage", id="garbage"),
    pytest.param(lambda jwk: "", id="empty"),
])
def test_a_trusted_key_that_is_not_an_ed25519_public_key(engine, key):
    pay(engine, "bad-key-1")
    jwk = engine.public_key("jwk")
    with pytest.raises(tender.InvalidArgumentError) as info:
        engine.verify(trusted_key=key(jwk))
    assert info.value.code == 104 and info.value.name == "TENDER_E_INVALID_ARGUMENT"


def test_trusted_key_argument_types(engine):
    pay(engine, "key-arg-1")
    with pytest.raises(tender.InvalidUTF8Error):
        engine.verify(trusted_key=b"\xff\xfe")
    with pytest.raises(tender.TooLargeError):
        engine.verify(trusted_key="x" * (tender.MAX_INPUT_BYTES + 1))
    for wrong in (42, 1.5, object()):
        with pytest.raises(TypeError):
            engine.verify(trusted_key=wrong)
    assert engine.verify(None, None)["records"] == 2


def _register_key(db, jwk, created_at_ms):
    db.execute("INSERT INTO signing_keys (kid, public_key, created_at_ms, active) VALUES (?, ?, ?, 0)",
               (jwk["kid"], b64d(jwk["x"]), created_at_ms))


def _resign_from(db, key, jwk, first):
    """Re-signs (and re-links) every record from `first` on with `key`,
    changing record `first`'s amount to 0.01 (when it is a payment). Returns the new rows."""
    rows = read_ledger(db)
    previous = rows[first - 2]["hash"] if first > 1 else GENESIS
    for index in range(first - 1, len(rows)):
        payload = json.loads(jws_parts(rows[index]["jws"])[1])
        payload["previousHash"] = previous
        if index == first - 1 and "currencyAmount" in payload:
            payload["currencyAmount"]["amount"] = "0.01"
        token = _sign_record(key, jwk["kid"], payload)
        previous = link_hash(token)
        rows[index] = resign(rows[index], token)
    rewrite_ledger(db, rows)
    # a forger holding a key re-signs the signed balances too (kept beside the accounts before schema 9)
    for account, anchor in db.execute("SELECT id, balance_anchor FROM accounts WHERE balance_anchor IS NOT NULL").fetchall():
        db.execute("UPDATE accounts SET balance_anchor = ? WHERE id = ?",
                   (_sign_record(key, jwk["kid"], json.loads(jws_parts(anchor)[1])), account))
    return rows


@pytest.mark.parametrize("first", [1, 2])
def test_a_registered_key_that_is_not_the_first_is_not_trusted(five, first):
    """A forged key added to signing_keys after the genuine one, with the
    history re-signed by it from record `first` on, is not trusted: trust
    starts from the first recorded key and follows the chain."""
    home, records, checkpoint = five
    with tender.Engine(home, authentication=NO_AUTH) as engine:
        genuine = engine.public_key("jwk")
    key, jwk = foreign_key()
    with store(home) as db:
        created = db.execute("SELECT created_at_ms FROM signing_keys").fetchone()[0]
        _register_key(db, jwk, created + 1)
        rows = _resign_from(db, key, jwk, first)
    python_verify([r["jws"] for r in rows], {genuine["kid"]: genuine, jwk["kid"]: jwk})  # well-formed
    if first == 1:
        expected = f"record 1: signed by an untrusted key {jwk['kid']}"
    else:
        expected = f"record 2: signed by key {jwk['kid']}, but {genuine['kid']} was the signing key then"
    assert tampered_message(home) == expected
    assert tampered_message(home, trusted_key=genuine) == expected


def test_an_earlier_timestamp_does_not_make_a_registered_key_the_root(five):
    """A key of one's own added to signing_keys with a creation time before
    the genuine key's does not become the unpinned root (the first key
    recorded is, not the earliest timestamp): the genuine ledger still
    verifies, and history re-signed with that key does not."""
    home, records, checkpoint = five
    with tender.Engine(home, authentication=NO_AUTH) as engine:
        genuine = engine.public_key("jwk")
    key, jwk = foreign_key()
    with store(home) as db:
        created = db.execute("SELECT created_at_ms FROM signing_keys").fetchone()[0]
        _register_key(db, jwk, created - 60_000)
    assert verify_fresh(home, checkpoint)["records"] == 6
    assert verify_fresh(home)["keys"] == [genuine["kid"]]
    with store(home) as db:
        _resign_from(db, key, jwk, 1)
    expected = f"record 1: signed by an untrusted key {jwk['kid']}"
    assert tampered_message(home) == expected
    assert tampered_message(home, trusted_key=genuine) == expected


def test_a_forged_first_recorded_key_passes_only_an_unpinned_verify(five, tmp_path):
    """What we observe: verify() without a pinned key trusts the first key
    the store recorded (the first row of signing_keys). Someone who can
    write the store can make a key of their own that first key (here by
    deleting the genuine row) and re-sign the whole history with it: once
    the genuine key file is also out of keys/ (else every open refuses the
    home as a replaced store), the unpinned verify() accepts the forgery (as
    tender.h says: pinning protects against this). It is found by pinning the genuine key and by a
    checkpoint kept elsewhere."""
    home, records, checkpoint = five
    with tender.Engine(home, authentication=NO_AUTH) as engine:
        genuine, genuine_pem = engine.public_key("jwk"), engine.public_key("pem")
    key, jwk = foreign_key()
    with store(home) as db:
        created = db.execute("SELECT created_at_ms FROM signing_keys").fetchone()[0]
        _register_key(db, jwk, created + 1)
        db.execute("DELETE FROM signing_keys WHERE kid = ?", (genuine["kid"],))
    # keys/ still holds the genuine key, which the store no longer records: every open refuses the home
    with pytest.raises(tender.HomeError, match="never recorded"):
        verify_fresh(home)
    # the forger (the same user) moves it out of keys/ too
    keys = os.path.join(home, "keys")
    os.rename(os.path.join(keys, f"{genuine['kid']}.pem"), tmp_path / "genuine-key.pem")
    # the key table alone changed: the genuine ledger no longer verifies
    # without a pin (its root is now the forged key), but does with one
    assert tampered_message(home) == f"record 1: signed by an untrusted key {genuine['kid']}"
    assert verify_fresh(home, checkpoint, trusted_key=genuine_pem)["records"] == 6

    with store(home) as db:
        rows = _resign_from(db, key, jwk, 1)
    python_verify([r["jws"] for r in rows], {jwk["kid"]: jwk}, root=jwk["kid"])
    report = verify_fresh(home)  # the forgery passes the unpinned verify
    assert report["records"] == 6 and report["keys"] == [jwk["kid"]]
    assert report["headHash"] == link_hash(rows[-1]["jws"])
    # ... and nothing else
    pinned = f"record 1: signed by an untrusted key {jwk['kid']}"
    assert tampered_message(home, trusted_key=genuine_pem) == pinned
    assert tampered_message(home, trusted_key=genuine) == pinned
    assert tampered_message(home, checkpoint, trusted_key=genuine) == pinned
    # the genuine checkpoint's key is not in the forged chain of trust
    assert tampered_message(home, checkpoint) == "checkpoint: signed by a key that never signed this ledger"
    cli = _cli_runner()
    if cli is not None:
        assert cli("verify", "--home", home).returncode == 0
        (tmp_path / "genuine.pem").write_text(genuine_pem)
        pinned_cli = cli("verify", "--home", home, "--public-key", tmp_path / "genuine.pem")
        assert pinned_cli.returncode == 1 and "record 1" in pinned_cli.stderr, pinned_cli


# -------------------------------------------------------- key file safety


def test_key_file_permissions(home, directory_doc):
    old_umask = os.umask(0)  # the modes must not depend on the umask
    try:
        engine = make_engine(home, directory_doc)
        kid = engine.public_key("jwk")["kid"]
    finally:
        os.umask(old_umask)
    keys = os.path.join(home, "keys")
    key_file = os.path.join(keys, f"{kid}.pem")
    assert stat.S_IMODE(os.stat(home).st_mode) == 0o700
    assert stat.S_IMODE(os.stat(keys).st_mode) == 0o700
    assert stat.S_IMODE(os.stat(key_file).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(os.path.join(home, "tender.sqlite3")).st_mode) == 0o600
    with open(key_file) as f:
        assert f.read().startswith("-----BEGIN PRIVATE KEY-----")  # PKCS#8
    paid = pay(engine, "perm-1")
    engine.close()

    for mode in (0o644, 0o640, 0o604):
        os.chmod(key_file, mode)
        with tender.Engine(home, authentication=NO_AUTH) as unsafe:
            with pytest.raises(tender.KeyFileError) as info:
                unsafe.checkpoint()
            assert info.value.code == 401 and info.value.name == "TENDER_E_KEY_FILE"
            assert "chmod 600" in info.value.message, info.value.message
            with pytest.raises(tender.KeyFileError):
                unsafe.public_key()
            # paying needs the key: refused, and nothing is paid
            before = balance_minor(unsafe)
            with unsafe.session(intent("perm-2")) as session:
                session.resolve()
                assert session.confirm()[0] is ResponseCode.READY
                with pytest.raises(tender.KeyFileError):
                    session.handle()
            assert balance_minor(unsafe) == before
            assert unsafe.payments() == [paid]
            # verifying needs only the public keys
            assert unsafe.verify()["records"] == 2

    os.chmod(key_file, 0o600)
    with tender.Engine(home, authentication=NO_AUTH) as fixed:
        fixed.checkpoint()
        pay(fixed, "perm-2")

    os.rename(key_file, key_file + ".away")
    with tender.Engine(home, authentication=NO_AUTH) as missing:
        with pytest.raises(tender.KeyFileError) as info:
            missing.checkpoint()
        assert kid in info.value.message


# ------------------------------------------------- across processes, crashes


def _readline(proc, timeout):
    """One line of a child's stdout, waiting at most `timeout` seconds."""
    ready, _, _ = select.select([proc.stdout], [], [], timeout)
    if not ready:
        raise AssertionError("a child process did not answer in time")
    return proc.stdout.readline()


def test_idempotency_across_processes(home, directory_doc, tmp_path):
    processes, keys, amount = 6, 10, "7.00"
    make_engine(home, directory_doc).close()  # no signing key yet: the children race to make it
    go = tmp_path / "go"
    children = [
        subprocess.Popen([sys.executable, os.path.join(_HERE, "concurrent_payer.py"), os.fspath(home),
                          str(seed), os.fspath(go), str(keys), amount],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_child_env())
        for seed in range(processes)
    ]
    try:
        for child in children:
            line = _readline(child, 60)
            assert line == "ready\n", (line, child.stderr.read() if child.poll() is not None else "")
        go.touch()
        outputs = []
        for child in children:
            # the same buffered reader as the "ready" line (not communicate());
            # read to the end first, so a full pipe cannot block the child
            out, err = child.stdout.read(), child.stderr.read()
            child.wait(timeout=120)
            assert child.returncode == 0, err
            outputs.append(json.loads(out))
    finally:
        for child in children:
            if child.poll() is None:
                child.kill()
                child.wait()

    assert len({tuple(o["order"]) for o in outputs}) == processes  # really different orders
    with tender.Engine(home, authentication=NO_AUTH) as engine:
        payments = engine.payments()
        assert sorted(p["idempotencyKey"] for p in payments) == sorted(f"same-{i}" for i in range(keys))
        assert balance_minor(engine) == 100000 - keys * 700
        report = engine.verify()
        assert report["records"] == keys + 1 and len(report["keys"]) == 1  # and the directory's balances
        by_key = {e["record"]["idempotencyKey"]: e for e in engine.ledger() if e["type"] == "payment"}
    assert len(os.listdir(os.path.join(home, "keys"))) == 1
    for key in by_key:
        seen = [o["results"][key] for o in outputs]
        assert all(s["code"] == "SUCCESS" for s in seen)
        assert all(s["record"] == by_key[key]["record"] for s in seen), key
        assert {s["jws"] for s in seen} == {by_key[key]["jws"]}, key


def test_crash_while_paying(home, directory_doc):
    """SIGKILL a paying process at random moments; every acknowledged payment
    must be in the ledger exactly once, and nothing paid twice."""
    doc = copy.deepcopy(directory_doc)
    doc["accounts"][0]["balance"]["amount"] = "1000000.00"
    make_engine(home, doc).close()
    rng = random.Random(0x7E4DE2)
    acked = []  # acknowledged key indexes, in order
    rounds, started, retried_paid = 30, time.monotonic(), 0
    script = os.path.join(_HERE, "crash_submitter.py")
    for round_number in range(rounds):
        first = len(acked)  # the first unacknowledged key: a retry when the last round was cut short
        with store(home) as db:
            retried_paid += paid_in_store(db, f"k-{first}")
        child = subprocess.Popen([sys.executable, script, os.fspath(home), str(first)],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_child_env())
        try:
            line = _readline(child, 60)
            assert line == "ready\n", (line, child.stderr.read())
            time.sleep(rng.uniform(0.020, 0.300))
            child.send_signal(signal.SIGKILL)
            child.wait(timeout=60)
            # through the same buffered reader as the "ready" line: it may
            # already hold the first acks (communicate() would skip them)
            out, err = child.stdout.read(), child.stderr.read()
        finally:
            if child.poll() is None:
                child.kill()
                child.wait()
        assert child.returncode == -signal.SIGKILL, (round_number, child.returncode, err)
        for line in out.splitlines():
            match = re.fullmatch(r"ack k-(\d+)", line)
            assert match, (round_number, line)
            index = int(match.group(1))
            assert index == len(acked), (round_number, index, len(acked))
            acked.append(index)
    elapsed = time.monotonic() - started
    assert acked, "no payment was acknowledged in any round"

    with store(home) as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    with tender.Engine(home, authentication=NO_AUTH) as engine:
        keys = [p["idempotencyKey"] for p in engine.payments()]
        assert len(keys) == len(set(keys)), "a key was paid twice"
        # acknowledged keys are all there; at most the last round's in-flight key is extra
        expected = [f"k-{i}" for i in acked]
        assert keys in (expected, expected + [f"k-{len(acked)}"]), (keys[-3:], expected[-3:])
        assert 100000000 - balance_minor(engine) == len(keys) * 100
        report = engine.verify()
        assert report["records"] == len(keys) + 1  # and the directory's balances
        ledger = engine.ledger()[1:]
        assert [e["record"]["idempotencyKey"] for e in ledger] == keys
    print(f"\ncrash test: {rounds} rounds in {elapsed:.1f}s, {len(acked)} acknowledged, "
          f"{len(keys)} paid, {retried_paid} retries of a key paid before its ack")


# Issue 18.4: the columns kept beside each record are checked against its signed payload.
COLUMN_EDITS = [
    ("amount_minor", "UPDATE ledger SET amount_minor = 900 WHERE sequence = 2"),
    ("idempotency_key", "UPDATE ledger SET idempotency_key = 'other-key' WHERE sequence = 2"),
    ("fingerprint", "UPDATE ledger SET fingerprint = 'x' WHERE sequence = 2"),
    ("fingerprint", "UPDATE ledger SET fingerprint = zeroblob(32) WHERE sequence = 2"),
    ("effects", "UPDATE ledger SET effects = '{\"movements\":[],\"onCompletion\":[]}' WHERE sequence = 2"),
    ("payee_contact_id", "UPDATE ledger SET payee_contact_id = 'john-appleseed' WHERE sequence = 2"),
    ("currency", "UPDATE ledger SET currency = 'EUR' WHERE sequence = 2"),
    ("hash", "UPDATE ledger SET hash = 'AAAA' WHERE sequence = 3"),
    ("status", "UPDATE ledger SET status = 'completed' WHERE sequence = 2"),
    ("type", "UPDATE ledger SET type = 'key_rotation' WHERE sequence = 1"),
]


@pytest.mark.parametrize("column, edit", COLUMN_EDITS, ids=[c for c, _ in COLUMN_EDITS])
def test_verify_checks_every_column_against_the_signed_payload(engine, home, cli, column, edit):
    for n in range(3):
        pay(engine, f"col-{n}", amount="3.00")
    checkpoint = engine.checkpoint()
    pinned = engine.public_key()
    engine.close()
    assert verify_fresh(home)["records"] == 4
    with store(home) as db:
        db.execute(edit)
    for args in ((None, None), (checkpoint, None), (None, pinned)):
        message = tampered_message(home, *args)
        assert f"the stored column {column} disagrees with its signed payload" in message, message
    done = cli("verify", "--home", home)
    assert done.returncode == 1 and f"column {column}" in done.stderr, done.stderr


def test_records_carry_the_columns_signed(engine):
    """Format 2 (docs/records.md): the ledger member signs what the record does not say otherwise; the key,
    the account debited and the payee are the record's own members, written once."""
    record = pay(engine, "signed-columns", amount="4.00")
    assert record["v"] == 2 and list(record["ledger"]) == ["fingerprint", "currency", "amountMinor", "effects"]
    assert record["ledger"]["amountMinor"] == 400 and record["ledger"]["currency"] == "USD"
    assert record["idempotencyKey"] == "signed-columns" and record["payee"]["id"] == "tim-cook"
    assert record["ledger"]["effects"]["movements"][0]["account"] == "checking"


def test_verify_rederives_balances_and_names_the_account_that_disagrees(engine, home, cli):
    """Issue 18.4: someone raises a balance in SQLite; verify used to say valid."""
    for n in range(2):
        pay(engine, f"bal-{n}", amount="7.00")
    assert engine.verify()["records"] == 3
    engine.close()
    assert verify_fresh(home)["records"] == 3
    with store(home) as db:
        db.execute("UPDATE accounts SET balance_minor = balance_minor + 1000000 WHERE id = 'checking'")
    message = tampered_message(home)
    assert "the stored balance disagrees with the signed ledger for: checking" in message, message
    done = cli("verify", "--home", home)
    assert done.returncode == 1 and "checking" in done.stderr, done.stderr
    with store(home) as db:
        db.execute("UPDATE accounts SET balance_minor = balance_minor - 1000000 WHERE id = 'checking'")
    assert verify_fresh(home)["records"] == 3
    # the signed balance itself (the ledger's first entry) cannot be edited or dropped either
    with store(home) as db:
        db.execute("DELETE FROM ledger WHERE sequence = 1")
    assert tampered_message(home).startswith("record 1: ")
