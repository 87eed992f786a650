# SPDX-License-Identifier: Apache-2.0
"""The signed ledger calls of an engine: payments, status changes, the
ledger, verification, checkpoints, keys and the audit log."""

from __future__ import annotations

import json
from ctypes import byref, c_size_t, c_void_p
from typing import Any, Dict, List, Optional, Union

from ._engine_base import _EngineBase
from collections.abc import Mapping

from ._native import result_name
from .errors import InternalError, ResultCode
from ._native import _clib, _encode, _encode_text, _free_all, _raise, _take_json, _take_text
from .enums import KeyFormat
from .records import Record


class _LedgerCalls(_EngineBase):
    """The signed ledger calls of an engine: payments, status changes, the (mixed into :class:`~libtender.Engine`)."""

    def payments(self) -> List[Dict[str, Any]]:
        """Every payment record in the store, oldest first.

        Raises :class:`StoreError`, :class:`StoreBusyError`,
        :class:`LedgerTamperedError` (a stored record is not a JWS);
        :class:`ClosedError` after :meth:`close`. Thread-safe.
        """
        ptr, length = c_void_p(), c_size_t()
        with self._use() as handle:
            code = _clib.tender_engine_payments(handle, byref(ptr), byref(length))
            if code:
                _raise(code)
        result: List[Dict[str, Any]] = _take_json(ptr, length)
        return result

    def set_payment_status(self, idempotency_key: Union[str, bytes], status: str) -> "Record":
        """Records a later status change of the payment made under
        ``idempotency_key`` (its record's ``"idempotencyKey"``): ``status``
        is ``"completed"``, ``"canceled"`` or ``"failed"``. Only a pending
        payment (a request, or a payment scheduled for a later day) changes.
        Canceled or failed gives back what the payment moved and leaves its
        bill unpaid again; completed credits a request's account. Returns the
        signed ``payment_status`` ledger entry as a :class:`Record` (with
        ``.jws``); asking for the status the payment already has records
        nothing and returns the entry that set it. A key whose host call's
        outcome is unknown (:class:`OutcomeUnknownError`) is settled here:
        ``"completed"`` records the payment as its session would have (signed,
        with ``"settled": "status"``); ``"failed"`` or ``"canceled"`` records
        nothing and frees the key (the record is then ``{"type": "claim", ...}``
        and its ``.jws`` empty). See docs/outcome.md.

        Raises :class:`InvalidArgumentError` (not a payment status),
        :class:`NotFoundError` (no payment has the key),
        :class:`WrongStateError` (the status is final, or an account no
        longer holds what it would give back), :class:`LedgerTamperedError`
        (a claim whose seal does not check, or that moves balances the
        store keeps: Tender never wrote it), :class:`StoreError`,
        :class:`StoreBusyError`; :class:`ClosedError` after :meth:`close`.
        Thread-safe.
        """
        key = _encode_text(idempotency_key, "idempotency_key")
        name = _encode_text(status, "status")
        record_ptr, record_len, jws_ptr, jws_len = c_void_p(), c_size_t(), c_void_p(), c_size_t()
        with self._use() as handle:
            code = _clib.tender_engine_set_payment_status(handle, key, len(key), name, len(name), byref(record_ptr),
                                                          byref(record_len), byref(jws_ptr), byref(jws_len))
            if code:
                _raise(code)
        try:
            record_text = _take_text(record_ptr, record_len)
            jws = _take_text(jws_ptr, jws_len)
        finally:
            _free_all(record_ptr, jws_ptr)
        if record_text is None or jws is None:  # pragma: no cover - a library defect
            raise InternalError(int(ResultCode.INTERNAL), result_name(ResultCode.INTERNAL),
                                "a call succeeded without its output")
        return Record(json.loads(record_text), jws)

    # -- the signed ledger

    def _text_call(self, function: Any, *args: Any) -> str:
        ptr, length = c_void_p(), c_size_t()
        with self._use() as handle:
            code = function(handle, *args, byref(ptr), byref(length))
            if code:
                _raise(code)
        text = _take_text(ptr, length)
        if text is None:  # pragma: no cover - a library defect
            raise InternalError(int(ResultCode.INTERNAL), result_name(ResultCode.INTERNAL),
                                "a call succeeded without its output")
        return text

    def ledger(self) -> List[Dict[str, Any]]:
        """The whole ledger, oldest first: one ``{"sequence": int, "type":
        "payment" | "payment_status" | "key_rotation" | "intent", "record": dict, "jws": str}`` per entry,
        where ``record`` is the signed JSON and ``jws`` its compact JWS.

        Raises :class:`StoreError`, :class:`StoreBusyError`,
        :class:`LedgerTamperedError` (an entry is not a JWS);
        :class:`ClosedError` after :meth:`close`. Thread-safe.
        """
        result: List[Dict[str, Any]] = json.loads(self._text_call(_clib.tender_engine_ledger))
        return result

    def verify(
        self,
        checkpoint: Union[str, bytes, None] = None,
        trusted_key: Union[str, bytes, Mapping[str, Any], None] = None,
    ) -> Dict[str, Any]:
        """Verifies the ledger: every signature, every sequence number and
        every hash link. Trust starts from a root key and follows the chain:
        record 1 must be signed by the root, each later record by the key
        signing at that point, and a ``key_rotation`` record (signed by the
        outgoing key) hands signing over to the new key from the next record
        on; a retired key cannot sign any more and a new key cannot sign
        before its rotation.

        ``trusted_key`` pins the root: an Ed25519 public key as PEM text
        (``str`` or ``bytes``, e.g. saved from ``public_key("pem")``), a JWK
        ``dict`` (e.g. ``public_key("jwk")``) or JWK JSON text. Without it the
        root is the first key the store recorded, which anyone who can
        rewrite the store can replace; pin a key kept elsewhere to be
        protected against that.

        With ``checkpoint`` (a JWS from :meth:`checkpoint`, surrounding
        whitespace ignored; without it, the one the engine's ``checkpointPath=``
        configuration keeps after every commit, if any), also checks that no
        record it covers was removed or rewritten; only a checkpoint can detect
        records removed at the end. Balances and currencies are re-derived from
        the ledger's signed ``balances`` entries; the audit log, contacts, bills
        and vocabulary are not signed and not checked.

        Returns the report ``{"valid": True, "records": N, "headHash": str,
        "keys": [kid, ...]}`` (``headHash``: base64url SHA-256 of the last
        record's payload, i.e. its record JSON; ``keys``: every key that
        signed, in order of first use), with ``"resigned": [sequence, ...]``
        when records were signed again after their commit, ``"testingMode":
        [sequence, ...]`` when engines in testing mode let payments through, and
        ``"unchainedBalances": [account, ...]`` for balances an earlier version
        signed beside their accounts (docs/ledger.md).

        Raises :class:`LedgerTamperedError` (its message names the first bad
        record, ``"record N: ..."``, or the checkpoint),
        :class:`InvalidArgumentError` (``trusted_key`` is not an Ed25519
        public key), :class:`InvalidUTF8Error`, :class:`TooLargeError`,
        :class:`StoreError`; :class:`TypeError` for an argument of another
        type; :class:`ClosedError` after :meth:`close`. Thread-safe.
        """
        if checkpoint is None:
            data, size = None, 0
        else:
            if isinstance(checkpoint, str):
                data = checkpoint.strip().encode("utf-8", "surrogatepass")
            elif isinstance(checkpoint, (bytes, bytearray, memoryview)):
                data = bytes(checkpoint).strip()
            else:
                raise TypeError(f"checkpoint must be a str, bytes or None, not {type(checkpoint).__name__}")
            size = len(data)
        if trusted_key is None:
            key, key_size = None, 0
        else:
            if isinstance(trusted_key, (str, bytes, bytearray, memoryview, Mapping)):
                key = _encode(trusted_key, "trusted_key")
            else:
                raise TypeError(
                    "trusted_key must be PEM or JWK text (str or bytes), a JWK dict or None, "
                    f"not {type(trusted_key).__name__}")
            key_size = len(key)
        result: Dict[str, Any] = json.loads(self._text_call(_clib.tender_engine_verify, data, size, key, key_size))
        return result

    def checkpoint(self) -> str:
        """A signed checkpoint of the ledger as it stands (record count and
        head hash), as a compact JWS. Keep it somewhere else and pass it to
        :meth:`verify` later to detect truncation and rewritten history.
        Creates the signing key on first use.

        Raises :class:`KeyFileError` (e.g. the key file is readable by group
        or others), :class:`CryptoError`, :class:`StoreError`,
        :class:`StoreBusyError`; :class:`ClosedError` after :meth:`close`.
        Thread-safe.
        """
        return self._text_call(_clib.tender_engine_checkpoint)

    def public_key(self, format: Union[str, int] = "pem") -> Union[str, Dict[str, str]]:
        """The active signing key's public key: ``format="pem"`` (or
        :attr:`KeyFormat.PEM`) gives SubjectPublicKeyInfo PEM text, as openssl
        reads it; ``format="jwk"`` (or :attr:`KeyFormat.JWK`) an RFC 8037 JWK
        as a dict, ``{"kty": "OKP", "crv": "Ed25519", "x": ..., "kid": ...}``
        with the RFC 7638 thumbprint as ``kid``. Creates the key on first use
        (``HOME/keys/<kid>.pem``, mode 0600).

        Raises :class:`ValueError` for an unknown format name,
        :class:`InvalidArgumentError` for an unknown format number,
        :class:`KeyFileError`, :class:`CryptoError`, :class:`StoreError`;
        :class:`ClosedError` after :meth:`close`. Thread-safe.
        """
        if isinstance(format, str):
            try:
                number = int(KeyFormat[format.upper()])
            except KeyError:
                raise ValueError(f"unknown key format {format!r}; use 'pem' or 'jwk'") from None
        elif isinstance(format, int) and not isinstance(format, bool):
            number = int(format)
        else:
            raise TypeError(f"format must be 'pem', 'jwk' or a KeyFormat, not {type(format).__name__}")
        text = self._text_call(_clib.tender_engine_public_key, number)
        return json.loads(text) if number == KeyFormat.JWK else text

    def rotate_key(self) -> str:
        """Rotates the signing key: makes a new key, appends a
        ``key_rotation`` entry signed by the old key, and destroys the old
        private key file (its public key stays in the store for
        verification). From the next record on only the new key may sign.
        Returns the new key id.

        :meth:`public_key` then gives the new key; a root pinned with
        ``verify(trusted_key=...)`` stays the ledger's first key, so save
        that one (before the first rotation) to pin it later.

        Raises :class:`KeyFileError`, :class:`CryptoError`,
        :class:`StoreError`, :class:`StoreBusyError`; :class:`ClosedError`
        after :meth:`close`. Thread-safe.
        """
        return self._text_call(_clib.tender_engine_rotate_key)

    # -- authentication

    def audit(self) -> List[Dict[str, Any]]:
        """The authentication audit log of the store, oldest first: one
        ``{"id": int, "at": str (RFC 3339), "user": str, "event": str,
        "intent": str, "detail": str}`` per decision, ``event`` being
        ``"authenticated"``, ``"reused"`` (the reuse window spared the
        question), ``"denied"`` (``detail`` says why, e.g.
        ``"wrongCredentials: PAM: ..."``) or ``"throttled"``. It never holds
        a secret.

        Raises :class:`StoreError`; :class:`ClosedError` after
        :meth:`close`. Thread-safe.
        """
        result: List[Dict[str, Any]] = json.loads(self._text_call(_clib.tender_engine_audit))
        return result
