# SPDX-License-Identifier: Apache-2.0
"""What handling answers: the signed :class:`Record` and the
:class:`HandleOutcome`."""

from __future__ import annotations

import base64
import copy
import json
from collections.abc import Mapping
from typing import Any, Dict, Iterable, Optional, Tuple, Union, cast

from .enums import ResponseCode


# ------------------------------------------------------------------- record


class Record(Dict[str, Any]):
    """A payment record as :meth:`Session.handle` returns it: a ``dict`` of the
    record's JSON fields (docs/json.md: ``type``, ``sequence``,
    ``previousHash``, ``id``, ``payee``, ``currencyAmount``, ...) that also
    carries the record's signature.

    Attributes:
        jws: the record's compact JWS (RFC 7515) as the ledger keeps it,
            ``header.payload.signature``; its payload is the record's JSON,
            byte for byte. Verify it with any JOSE library and the JWK from
            :meth:`Engine.public_key`, or with ``openssl pkeyutl`` and the PEM.

    A ``Record`` compares equal to a plain ``dict`` with the same fields (the
    records of :meth:`Engine.payments` are plain dicts); the JWS is not part
    of the comparison.
    """

    __slots__ = ("jws",)

    def __init__(self, fields: Union[Mapping[str, Any], Iterable[Tuple[str, Any]]] = (), jws: Optional[str] = None):
        super().__init__(fields)
        self.jws: Optional[str] = jws

    @property
    def header(self) -> Dict[str, Any]:
        """The decoded JWS header, ``{"alg": "Ed25519", "kid": ...}`` ({} when
        there is no JWS)."""
        if not self.jws:
            return {}
        part = self.jws.split(".", 1)[0]
        result: Dict[str, Any] = json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))
        return result

    @property
    def kid(self) -> Optional[str]:
        """The id (RFC 7638 thumbprint) of the key that signed the record."""
        return self.header.get("kid")

    @property
    def record_format(self) -> int:
        """The record's format (docs/records.md): 2 for a record that says
        ``"v": 2`` (written since format 2: its ``ledger.fingerprint`` is the
        SHA-256 of its canonical parameters), 1 for one without ``v`` (written
        before; its ``ledger.fingerprint`` is the parameters' JSON text).
        :meth:`Engine.verify` accepts both. Raises :class:`ValueError` for any
        other ``v``, which verify refuses too."""
        if "v" not in self:
            return 1
        version = self["v"]
        if type(version) is int and version == 2:
            return 2
        raise ValueError(f"an unknown record format {version!r}")

    def copy(self) -> "Record":
        return Record(self, self.jws)

    def __reduce__(self) -> Any:
        return (Record, (dict(self), self.jws))

    def __repr__(self) -> str:
        return f"Record({dict.__repr__(self)}, jws={self.jws!r})"


class HandleOutcome(Tuple[ResponseCode, Optional[Record]]):
    """What :meth:`Session.handle` returns: the pair ``(code, record)``, so
    ``code, record = session.handle()`` works, plus the search result.

    Attributes:
        code: the :class:`ResponseCode` (``outcome[0]``).
        record: for an intent that moves or asks for money, the payment
            :class:`Record` on success, else None (``outcome[1]``).
        result: for a search (``search_for_bills``, ``search_for_accounts``,
            ``search_for_payments``) on success, its result as a dict:
            ``{"bills": [...]}``, ``{"accounts": [...]}`` or
            ``{"payments": [...]}`` (docs/intents.md); else None.
        response: for a custom intent, the host's answer and its words:
            ``{"code": "success", "values": {...}, "text": "You have $120
            left in vacation."}`` (docs/custom-intents.md); else None.
        say: what to tell the person, in their language: "Sent $50 to John
            Baily.", "Enviaste 50 $ a John Baily.", "That password didn't
            work. Nothing was paid." (docs/outcome.md); None when there is
            nothing to say.

    Compares equal to the plain tuple ``(code, record)``.
    """

    result: Optional[Dict[str, Any]]
    response: Optional[Dict[str, Any]]
    say: Optional[str]

    def __new__(cls, code: "ResponseCode", record: Optional[Record] = None,
                result: Optional[Dict[str, Any]] = None, response: Optional[Dict[str, Any]] = None,
                say: Optional[str] = None) -> "HandleOutcome":
        self = super().__new__(cls, (code, record))  # type: ignore[arg-type]  # typeshed's tuple.__new__ takes no element types
        self.result = result
        self.response = response
        self.say = say
        return self

    @property
    def code(self) -> "ResponseCode":
        return self[0]

    @property
    def record(self) -> Optional[Record]:
        return self[1]

    def __reduce__(self) -> Any:
        return (HandleOutcome, (self[0], self[1], self.result, self.response, self.say))

    def __repr__(self) -> str:
        return f"HandleOutcome(code={self[0]!r}, record={self[1]!r}, result={self.result!r})"
