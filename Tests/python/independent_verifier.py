# SPDX-License-Identifier: Apache-2.0
"""An independent verifier of a Tender ledger, written from docs/records.md
alone: the Python standard library and the ``cryptography`` package, no
libtender. It checks every signature (Ed25519), every sequence number and
hash link, key rotations, the record formats (1 and 2, no format 1 after 2),
and every format-2 record's fingerprint against its canonical parameters.

``verify(tokens, root_public_key)`` returns the parsed payloads or raises
``Invalid`` naming the first bad entry (1-based, as tender verify does).
"""

from __future__ import annotations

import base64
import hashlib
import json
from typing import Any, Dict, List, Optional, Tuple

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

GENESIS = "A" * 43
BUILT_IN_INTENTS = {"send_payment", "request_payment", "pay_bill", "search_for_bills", "transfer_money",
                    "search_for_accounts", "search_for_payments"}
RECORD_MEMBERS = {"type", "v", "sequence", "previousHash", "id", "intent", "status", "paymentMethod",
                  "idempotencyKey", "ledger", "settled", "createdAt"}
FORMAT_2_LEDGER = {"fingerprint", "currency", "amountMinor", "effects"}


class Invalid(Exception):
    """The ledger does not verify; the message names the first bad entry."""


class Number(str):
    """A JSON number kept as the text the record wrote (docs/records.md: numbers are copied as written)."""


class Obj(list):  # type: ignore[type-arg]
    """A JSON object as its (name, value) members, in order."""

    def get(self, key: str, default: Any = None) -> Any:
        for name, value in self:
            if name == key:
                return value
        return default

    def has(self, key: str) -> bool:
        return any(name == key for name, _ in self)


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64url_decode(text: str) -> bytes:
    if "=" in text or len(text) % 4 == 1:
        raise ValueError("not unpadded base64url")
    data = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    if b64url(data) != text:
        raise ValueError("not the canonical base64url text of its bytes")
    return data


def _pairs(pairs: List[Tuple[str, Any]]) -> Obj:
    names = [name for name, _ in pairs]
    if len(set(names)) != len(names):
        raise ValueError("a duplicate member name")
    return Obj(pairs)


def _constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def parse(payload: bytes) -> Obj:
    """A payload as ordered members, numbers as their text; duplicate names are refused."""
    value = json.loads(payload.decode("utf-8"), object_pairs_hook=_pairs, parse_int=Number, parse_float=Number,
                       parse_constant=_constant)
    if not isinstance(value, Obj):
        raise ValueError("not a JSON object")
    return value


def _string(text: str) -> str:
    out = ['"']
    for char in text:
        code = ord(char)
        if char == '"' or char == "\\":
            out.append("\\" + char)
        elif char == "\n":
            out.append("\\n")
        elif char == "\r":
            out.append("\\r")
        elif char == "\t":
            out.append("\\t")
        elif code < 0x20 or code == 0x7F:
            out.append("\\u%04x" % code)
        else:
            out.append(char)
    out.append('"')
    return "".join(out)


def canonical_json(value: Any) -> str:
    """docs/records.md's serialisation: compact, members in order, numbers as written, strings escaped minimally."""
    if isinstance(value, Obj):
        return "{" + ",".join(_string(name) + ":" + canonical_json(member) for name, member in value) + "}"
    if isinstance(value, list):
        return "[" + ",".join(canonical_json(element) for element in value) + "]"
    if isinstance(value, Number):
        return str(value)
    if isinstance(value, str):
        return _string(value)
    if value is True:
        return "true"
    if value is False:
        return "false"
    if value is None:
        return "null"
    raise ValueError(f"not a JSON value: {value!r}")


def canonical_parameters(record: Obj) -> str:
    """The canonical parameters of a payment record, as docs/records.md defines them."""
    intent = record.get("intent")
    if not isinstance(intent, str) or isinstance(intent, Number):
        raise ValueError("no intent")
    account = record.get("account")
    account_id = ""
    if account is not None:
        if not isinstance(account, Obj) or not isinstance(account.get("id"), str):
            raise ValueError("an account without an id")
        account_id = account.get("id")
    members: List[Tuple[str, Any]] = [("intent", intent)]
    if intent == "pay_bill":
        payee = record.get("billPayee")
        if not isinstance(payee, Obj) or not isinstance(payee.get("id"), str) or not record.has("currencyAmount"):
            raise ValueError("a bill payment without its bill payee or amount")
        bill = None
        if record.has("billDetailsWhenPaid"):
            details = record.get("billDetailsWhenPaid")
            if not isinstance(details, Obj) or not isinstance(details.get("id"), str):
                raise ValueError("bill details without an id")
            bill = details.get("id")
        members += [("billPayee", payee.get("id")), ("bill", bill), ("currencyAmount", record.get("currencyAmount")),
                    ("transactionScheduledDate", record.get("transactionScheduledDate")),
                    ("transactionNote", record.get("transactionNote")), ("account", account_id)]
    elif intent in BUILT_IN_INTENTS:
        members += [(name, value) for name, value in record if name not in RECORD_MEMBERS]
    else:
        members += [(name, value) for name, value in record
                    if name not in RECORD_MEMBERS and name not in ("response", "account")]
        members.append(("account", account_id))
    return canonical_json(Obj(members))


def fingerprint(record: Obj) -> str:
    return b64url(hashlib.sha256(canonical_parameters(record).encode("utf-8")).digest())


def record_format(payload: Obj) -> int:
    if not payload.has("v"):
        return 1
    v = payload.get("v")
    if isinstance(v, Number) and str(v) == "2":
        return 2
    raise ValueError(f"an unknown record format {canonical_json(v)[:20]}")


def check_format_two(record: Obj) -> None:
    ledger = record.get("ledger")
    if not isinstance(ledger, Obj) or {name for name, _ in ledger} != FORMAT_2_LEDGER or len(ledger) != 4:
        raise ValueError("a format-2 record whose ledger member holds other members than fingerprint, currency, amountMinor, effects")
    key = record.get("idempotencyKey")
    if not isinstance(key, str) or isinstance(key, Number):
        raise ValueError("a format-2 record without its idempotency key")
    signed = ledger.get("fingerprint")
    try:
        if not isinstance(signed, str) or isinstance(signed, Number) or len(b64url_decode(signed)) != 32:
            raise ValueError()
    except ValueError:
        raise ValueError("a format-2 record whose fingerprint is not the base64url text of a SHA-256 digest") from None
    if fingerprint(record) != signed:
        raise ValueError("its fingerprint is not the SHA-256 of its canonical parameters")


def thumbprint(x: str) -> str:
    """RFC 7638 thumbprint of an Ed25519 OKP key with public bytes `x` (base64url)."""
    canonical = '{"crv":"Ed25519","kty":"OKP","x":"%s"}' % x
    return b64url(hashlib.sha256(canonical.encode("ascii")).digest())


def verify(tokens: List[str], root_public_key: bytes) -> List[Obj]:
    """Verifies the ledger `tokens` (compact JWS, oldest first) whose first entry the raw 32-byte
    Ed25519 `root_public_key` signs. Returns the payloads; raises Invalid naming the first bad entry."""
    signing_kid: Optional[str] = None
    signing_key = Ed25519PublicKey.from_public_bytes(root_public_key)
    root_kid = thumbprint(b64url(root_public_key))
    previous = GENESIS
    format_two_since: Optional[int] = None
    payloads: List[Obj] = []
    for number, token in enumerate(tokens, start=1):
        try:
            parts = token.split(".")
            if len(parts) != 3:
                raise ValueError("not a compact JWS")
            header = json.loads(b64url_decode(parts[0]))
            payload_bytes = b64url_decode(parts[1])
            signature = b64url_decode(parts[2])
            if header.get("alg") != "Ed25519":
                raise ValueError("not an Ed25519 JWS")
            kid = header.get("kid")
            expected = signing_kid or root_kid
            if kid != expected:
                raise ValueError(f"signed by {kid}, but {expected} was the signing key then")
            try:
                signing_key.verify(signature, (parts[0] + "." + parts[1]).encode("ascii"))
            except InvalidSignature:
                raise ValueError("the signature does not verify") from None
            signing_kid = kid
            payload = parse(payload_bytes)
            if payload.get("sequence") != Number(str(number)) or not isinstance(payload.get("sequence"), Number):
                raise ValueError("its sequence number is not its position")
            if payload.get("previousHash") != previous:
                raise ValueError("it does not link to the entry before it")
            kind = payload.get("type")
            version = record_format(payload)
            if kind == "payment":
                if version == 1 and format_two_since is not None:
                    raise ValueError(f"a format-1 payment record after the format-2 record {format_two_since}")
                if version == 2:
                    check_format_two(payload)
                    format_two_since = format_two_since or number
            elif version != 1:
                raise ValueError("only payment records carry a record format")
            if kind == "key_rotation":
                new_key = payload.get("newKey")
                x = new_key.get("x") if isinstance(new_key, Obj) else None
                if not isinstance(x, str) or new_key.get("crv") != "Ed25519" or thumbprint(x) != payload.get("newKid"):
                    raise ValueError("a malformed key rotation")
                signing_kid = payload.get("newKid")
                signing_key = Ed25519PublicKey.from_public_bytes(b64url_decode(x))
            previous = b64url(hashlib.sha256(payload_bytes).digest())
            payloads.append(payload)
        except (ValueError, UnicodeDecodeError, UnicodeEncodeError, TypeError) as error:
            raise Invalid(f"record {number}: {error}") from None
    return payloads


def root_key_of_pem(pem: bytes) -> bytes:
    """The raw public key of a PEM private key file (a home's keys/*.pem), for tests that re-sign."""
    from cryptography.hazmat.primitives import serialization

    key = serialization.load_pem_private_key(pem, password=None)
    return key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)  # type: ignore[union-attr]


def forge(private_pem: bytes, kid: str, payload: bytes) -> str:
    """A compact JWS of `payload` signed with a home's private key: what a holder of the key could write."""
    from cryptography.hazmat.primitives import serialization

    key = serialization.load_pem_private_key(private_pem, password=None)
    header = b64url(json.dumps({"alg": "Ed25519", "kid": kid}, separators=(",", ":")).encode())
    body = b64url(payload)
    signature = key.sign((header + "." + body).encode("ascii"))  # type: ignore[union-attr,call-arg]
    return header + "." + body + "." + b64url(signature)

