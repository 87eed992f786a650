"""Exceptions raised by the Tender binding.

Two families:

* :class:`TenderLibraryError` (an :class:`OSError`) and its subclasses
  :class:`TenderLibraryNotFound` and :class:`TenderVersionMismatch`: the shared
  library could not be loaded or is not a compatible version. Raised when the
  ``tender`` package is imported.
* :class:`TenderError`: a call into libtender failed. It carries the numeric
  result code (``.code``), its name (``.name``, e.g.
  ``"TENDER_E_INVALID_JSON"``) and the library's detailed message
  (``.message``). There is one subclass per result code of ``tender.h``; a code
  this binding does not know is raised as plain :class:`TenderError`.

:class:`ClosedError` (a :class:`ValueError`) is raised by the binding itself
when a closed :class:`~tender.Engine` or :class:`~tender.Session` is used; the
library is never called with a dangling handle.

This module does not load the library and is safe to import on its own.
"""

from __future__ import annotations

import enum
from typing import Dict, Optional, Type

__all__ = [
    "ResultCode",
    "TenderLibraryError",
    "TenderLibraryNotFound",
    "TenderVersionMismatch",
    "ClosedError",
    "TenderError",
    "NullArgumentError",
    "InvalidUTF8Error",
    "InvalidJSONError",
    "TooLargeError",
    "InvalidArgumentError",
    "InvalidAmountError",
    "UnknownCurrencyError",
    "UnknownIntentError",
    "OutOfScopeError",
    "WrongStateError",
    "NotAskedError",
    "UnknownOptionError",
    "IdempotencyConflictError",
    "DialogEndedError",
    "NotAgreedError",
    "StoreError",
    "StoreBusyError",
    "HomeError",
    "NotFoundError",
    "CryptoError",
    "KeyFileError",
    "LedgerTamperedError",
    "AuthServiceError",
    "CallbackError",
    "InternalError",
    "error_class",
]


class ResultCode(enum.IntEnum):
    """The ``tender_result_code`` values of ``tender.h`` (``TENDER_OK`` and the
    ``TENDER_E_*`` error codes), without their ``TENDER_``/``TENDER_E_`` prefix."""

    OK = 0
    NULL_ARGUMENT = 100
    INVALID_UTF8 = 101
    INVALID_JSON = 102
    TOO_LARGE = 103
    INVALID_ARGUMENT = 104
    INVALID_AMOUNT = 105
    UNKNOWN_CURRENCY = 106
    UNKNOWN_INTENT = 107
    OUT_OF_SCOPE = 108
    WRONG_STATE = 200
    NOT_ASKED = 201
    UNKNOWN_OPTION = 202
    IDEMPOTENCY_CONFLICT = 203
    DIALOG_ENDED = 204
    NOT_AGREED = 205
    STORE = 300
    STORE_BUSY = 301
    HOME = 302
    NOT_FOUND = 303
    CRYPTO = 400
    KEY_FILE = 401
    LEDGER_TAMPERED = 402
    AUTH_SERVICE = 500
    CALLBACK = 600
    INTERNAL = 900


# --------------------------------------------------------------- loading


class TenderLibraryError(OSError):
    """The shared library libtender could not be used (base class)."""


class TenderLibraryNotFound(TenderLibraryError):
    """No loadable libtender was found.

    ``.tried`` lists every candidate that was tried, each as
    ``(description, reason)``; the message lists them as well.
    """

    def __init__(self, message: str, tried=()):
        super().__init__(message)
        self.tried = list(tried)


class TenderVersionMismatch(TenderLibraryError):
    """The loaded libtender has a major version this binding does not support.

    ``.path`` is the library that was loaded, ``.found`` its
    ``tender_version_number()`` and ``.expected_major`` the major version the
    binding was written for.
    """

    def __init__(self, message: str, path: str, found: int, expected_major: int):
        super().__init__(message)
        self.path = path
        self.found = found
        self.expected_major = expected_major


# --------------------------------------------------------------- binding


class ClosedError(ValueError):
    """An :class:`~tender.Engine` or :class:`~tender.Session` was used after
    :meth:`close`. Raised by the binding; libtender is not called."""


# --------------------------------------------------------------- library


class TenderError(Exception):
    """A libtender call failed.

    Attributes:
        code: the numeric ``tender_result`` (e.g. ``102``).
        name: its name from ``tender_result_str()`` (e.g.
            ``"TENDER_E_INVALID_JSON"``).
        message: the detail from ``tender_last_error()``, read on the failing
            thread right after the failing call (may be empty).

    Subclasses name each code of ``tender.h``; catch :class:`TenderError` for
    all of them.
    """

    #: The result code this class stands for (``None`` on the base class).
    code_value: Optional[int] = None

    def __init__(self, code: int, name: str, message: str):
        super().__init__(code, name, message)
        self.code = int(code)
        self.name = name
        self.message = message

    def __str__(self) -> str:
        if self.message:
            return f"{self.name} ({self.code}): {self.message}"
        return f"{self.name} ({self.code})"

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.name!r}, {self.message!r})"


class NullArgumentError(TenderError):
    """TENDER_E_NULL_ARGUMENT (100): a required pointer or handle was NULL."""

    code_value = ResultCode.NULL_ARGUMENT


class InvalidUTF8Error(TenderError):
    """TENDER_E_INVALID_UTF8 (101): text was not valid UTF-8."""

    code_value = ResultCode.INVALID_UTF8


class InvalidJSONError(TenderError):
    """TENDER_E_INVALID_JSON (102): text was not well-formed JSON."""

    code_value = ResultCode.INVALID_JSON


class TooLargeError(TenderError):
    """TENDER_E_TOO_LARGE (103): input larger than 1 MiB."""

    code_value = ResultCode.TOO_LARGE


class InvalidArgumentError(TenderError):
    """TENDER_E_INVALID_ARGUMENT (104): well-formed JSON that breaks the schema
    (e.g. an unknown key)."""

    code_value = ResultCode.INVALID_ARGUMENT


class InvalidAmountError(TenderError):
    """TENDER_E_INVALID_AMOUNT (105): negative, zero, malformed or absurd amount."""

    code_value = ResultCode.INVALID_AMOUNT


class UnknownCurrencyError(TenderError):
    """TENDER_E_UNKNOWN_CURRENCY (106): not an ISO 4217 currency code."""

    code_value = ResultCode.UNKNOWN_CURRENCY


class UnknownIntentError(TenderError):
    """TENDER_E_UNKNOWN_INTENT (107): an intent type Tender does not know."""

    code_value = ResultCode.UNKNOWN_INTENT


class OutOfScopeError(TenderError):
    """TENDER_E_OUT_OF_SCOPE (108): the text is not a request Tender handles
    (weather, music, a card or PIN, a message without an amount, ...), so no
    dialog was started. Raised by :meth:`~tender.Engine.session_from_text`;
    :meth:`~tender.Engine.parse` answers such a text with ``"intent":
    "out_of_scope"`` instead of raising. See docs/understanding.md."""

    code_value = ResultCode.OUT_OF_SCOPE


class WrongStateError(TenderError):
    """TENDER_E_WRONG_STATE (200): call out of order (e.g. handle before confirm)."""

    code_value = ResultCode.WRONG_STATE


class NotAskedError(TenderError):
    """TENDER_E_NOT_ASKED (201): an answer for a question that was not asked."""

    code_value = ResultCode.NOT_ASKED


class UnknownOptionError(TenderError):
    """TENDER_E_UNKNOWN_OPTION (202): a chosen option that was not offered."""

    code_value = ResultCode.UNKNOWN_OPTION


class IdempotencyConflictError(TenderError):
    """TENDER_E_IDEMPOTENCY_CONFLICT (203): the idempotency key was already used
    with other parameters."""

    code_value = ResultCode.IDEMPOTENCY_CONFLICT


class DialogEndedError(TenderError):
    """TENDER_E_DIALOG_ENDED (204): a parameter stayed unresolved for more
    resolves than the engine's ``"dialog": {"maxPrompts": N}`` allows (5 by
    default). The dialog is over: every later call on the session (resolve,
    answer, confirm, handle) raises this error again; start a new session."""

    code_value = ResultCode.DIALOG_ENDED


class NotAgreedError(TenderError):
    """TENDER_E_NOT_AGREED (205): handle would move money before the person
    said yes to the confirmation question (:meth:`tender.Session.agree`).
    Nothing was paid; ask the person and record the answer, then handle."""

    code_value = ResultCode.NOT_AGREED


class StoreError(TenderError):
    """TENDER_E_STORE (300): the SQLite store failed."""

    code_value = ResultCode.STORE


class StoreBusyError(TenderError):
    """TENDER_E_STORE_BUSY (301): the store stayed locked by another process."""

    code_value = ResultCode.STORE_BUSY


class HomeError(TenderError):
    """TENDER_E_HOME (302): the home directory cannot be used."""

    code_value = ResultCode.HOME


class NotFoundError(TenderError):
    """TENDER_E_NOT_FOUND (303): a referenced item does not exist: an id to
    remove from the directory (nothing is removed then), a bill's payee on
    import, the engine's ``vocabularyFile``, or a shortcut phrase given to
    :meth:`~tender.Engine.remove_shortcut`."""

    code_value = ResultCode.NOT_FOUND


class CryptoError(TenderError):
    """TENDER_E_CRYPTO (400): OpenSSL failed (signing, hashing or key handling)."""

    code_value = ResultCode.CRYPTO


class KeyFileError(TenderError):
    """TENDER_E_KEY_FILE (401): the signing key file (``HOME/keys/<kid>.pem``) is
    missing, unreadable or unsafe, e.g. readable by group or others (the
    message then says to run ``chmod 600`` on it)."""

    code_value = ResultCode.KEY_FILE


class LedgerTamperedError(TenderError):
    """TENDER_E_LEDGER_TAMPERED (402): the ledger failed verification. The
    message names the first bad record (``"record 3: ..."``) or the checkpoint
    (truncation, rewritten history)."""

    code_value = ResultCode.LEDGER_TAMPERED


class AuthServiceError(TenderError):
    """TENDER_E_AUTH_SERVICE (500): the engine's authentication policy can ask
    for re-authentication, but the PAM service (``"tender"`` unless the
    configuration names another) has no file in the PAM configuration
    directory (``pamConfigDirectory``; else ``$PAM_WRAPPER_SERVICE_DIR`` when
    ``PAM_WRAPPER=1``; else ``/etc/pam.d``), where Linux-PAM would silently
    fall back to ``"other"``; or the user the process runs as is unknown.
    Raised by :class:`~tender.Engine`. The message names the service and the
    directory. Install the service file, name another service, or configure
    ``authentication={"restrictedIntents": []}`` to ask nothing."""

    code_value = ResultCode.AUTH_SERVICE


class CallbackError(TenderError):
    """TENDER_E_CALLBACK (600): a host callback of an engine with a host
    (``Engine(..., host=...)``) failed: it raised, answered something invalid,
    or returned non-zero; the message says which (``"the host's send callback
    failed"``), and the Python exception a callback raised is the error's
    ``__cause__``."""

    code_value = ResultCode.CALLBACK


class InternalError(TenderError):
    """TENDER_E_INTERNAL (900): a defect in Tender; the message says more."""

    code_value = ResultCode.INTERNAL


_BY_CODE: Dict[int, Type[TenderError]] = {
    int(cls.code_value): cls
    for cls in (
        NullArgumentError,
        InvalidUTF8Error,
        InvalidJSONError,
        TooLargeError,
        InvalidArgumentError,
        InvalidAmountError,
        UnknownCurrencyError,
        UnknownIntentError,
        OutOfScopeError,
        WrongStateError,
        NotAskedError,
        UnknownOptionError,
        IdempotencyConflictError,
        DialogEndedError,
        NotAgreedError,
        StoreError,
        StoreBusyError,
        HomeError,
        NotFoundError,
        CryptoError,
        KeyFileError,
        LedgerTamperedError,
        AuthServiceError,
        CallbackError,
        InternalError,
    )
}


def error_class(code: int) -> Type[TenderError]:
    """The :class:`TenderError` subclass for a result code; :class:`TenderError`
    itself for a code this binding does not know. Thread-safe."""
    return _BY_CODE.get(int(code), TenderError)
