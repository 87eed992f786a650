# SPDX-License-Identifier: Apache-2.0
"""Tender for Python: SiriKit-style payment intents through libtender.

This package is a ctypes binding of the C API in ``tender.h``. A host opens an
:class:`Engine` on a home directory (which holds the SQLite store), imports a
directory of contacts, accounts, bill payees and bills, and drives each
intent through a :class:`Session`: resolve every parameter (answering the
questions Tender asks), confirm, handle. Handling pays exactly once and
returns the payment record::

    import libtender as tender

    with tender.Engine("/tmp/tender-home") as engine:
        engine.import_directory({...})
        with engine.session({"intent": "send_payment",
                             "payee": {"name": "John"},
                             "currencyAmount": {"amount": "50", "currency": "USD"}}) as s:
            resolution = s.resolve()          # {"complete": False, "parameters": [...]}
            s.choose("payee", "john-baily")   # answer an open question
            ...
            code, response = s.confirm()      # ResponseCode.READY
            code, record = s.handle()         # ResponseCode.SUCCESS, the record
            record.jws                        # the record's compact JWS (Ed25519)

The Payments domain
-------------------
Sessions take any of SiriKit's seven payment intents, all through the same
calls: ``send_payment``, ``request_payment``, ``pay_bill``,
``transfer_money`` (these move or ask for money and are recorded in the
ledger) and ``search_for_bills``, ``search_for_accounts``,
``search_for_payments`` (these answer a result). The schema of every intent,
parameter, resolution result, unsupported reason, response code and enum is
in docs/intents.md (the JSON conventions in docs/json.md). For a search,
:meth:`Session.handle` returns ``(ResponseCode.SUCCESS, None)`` with the
result on the returned :class:`HandleOutcome`, ``outcome.result`` (e.g.
``{"bills": [...]}``); a search that finds nothing is answered at confirm
(:attr:`ResponseCode.FAILURE_BILL_NOT_FOUND`,
:attr:`~ResponseCode.FAILURE_ACCOUNT_NOT_FOUND`,
:attr:`~ResponseCode.FAILURE_PAYMENT_NOT_FOUND`).

The engine also keeps the person's vocabulary (:meth:`Engine.set_vocabulary`,
SiriKit's user-specific vocabulary), whether they are signed in to the
payment service (:meth:`Engine.set_signed_in`), and the prompt limit
(configuration ``"dialog": {"maxPrompts": 5}``; a parameter left unresolved
more often ends the dialog with :class:`DialogEndedError`). A host that keeps
its own directory and moves the money itself passes ``host=`` to
:class:`Engine` (see :class:`Host`): Tender then resolves, confirms,
authenticates and keeps the signed record, and the host's ``send`` pays.

The signed ledger
-----------------
Every payment is also an entry of a hash-chained ledger, signed with Ed25519
as a compact JWS (RFC 7515, header ``{"alg": "Ed25519", "kid": ...}`` where
``kid`` is the RFC 7638 thumbprint of the key). The record :meth:`Session.handle`
returns is a :class:`Record`: a ``dict`` of the record's fields with the JWS
as ``record.jws``. Each record's ``previousHash`` is the base64url SHA-256 of
the previous record's payload (its record JSON, the decoded middle part of its
JWS); record 1 links to 32 zero bytes. :meth:`Engine.ledger` lists every entry
(payments and key rotations) with its JWS; :meth:`Engine.verify` checks every
signature, sequence number and hash link, with trust following the chain from
a root key (the first key the store recorded, or one you pin with
``trusted_key``) through signed key rotations, and, given an earlier
:meth:`Engine.checkpoint`, that nothing it covers was truncated or rewritten;
it raises :class:`LedgerTamperedError` naming the first bad record;
:meth:`Engine.public_key` gives the public key as PEM (for openssl) or as a
JWK (for JOSE libraries); :meth:`Engine.rotate_key` hands signing over to a
new key. The private key lives in ``HOME/keys/<kid>.pem`` (mode 0600); a key
file group or others can read is refused with :class:`KeyFileError`.

Re-authentication
-----------------
Before a restricted payment is submitted, :meth:`Session.handle` makes the
person authenticate again through the system login (PAM), like SiriKit's
restricted-while-locked intents. What needs it is the engine's policy, the
``authentication`` configuration (docs/json.md): ``restrictedIntents``
(by default the four intents that move money, ``["send_payment",
"request_payment", "pay_bill", "transfer_money"]``, so every payment asks;
``[]`` for none),
``aboveAmount`` (``{"USD": "100.00"}``: larger amounts ask), ``newPayee``
(a payee never paid asks), ``newDevice`` (an intent whose ``"device"`` never
authenticated asks), ``reuseSeconds`` (0-300: a successful authentication
covers later payments of the same intent to the same payee up to the same
amount for that long, in this engine object), ``service`` (the PAM service,
``"tender"``), ``pamConfigDirectory`` and ``throttle``. When the policy can
ask anything, the service must have a file in the PAM configuration directory
or :class:`Engine` raises :class:`AuthServiceError`; an engine that must
never ask passes ``authentication={"restrictedIntents": []}``.

The host answers PAM's questions through :meth:`Session.set_conversation`,
a callable ``(kind: PromptKind, message: str) -> str | None``. When the
person fails to authenticate (wrong, empty or cancelled credentials, too
many failures, no conversation), handle returns
``(ResponseCode.FAILURE_CREDENTIALS_UNVERIFIED, None)``, pays nothing, keeps
the session confirmed so it may be retried, and :attr:`Session.last_denial`
says why (``"wrongCredentials: ..."``, ``"throttled: ..."``,
``"cancelled: ..."``). :meth:`Engine.audit` lists every authentication
decision; it never holds a secret.

Understanding requests
----------------------
Tender also understands a request in words, offline (docs/understanding.md):
:func:`parse` (no engine: no directory, no shortcuts) and :meth:`Engine.parse`
(names, organizations and accounts found through the engine's directory and
vocabulary, registered shortcuts first) return a :class:`ParseResult`, a
``dict`` ``{"intent", "parameters", "text", "language", "source", "score",
"namedApp"}`` with attribute access::

    result = engine.parse("send $50 to John for dinner")
    result.intent        # "send_payment" (or "out_of_scope")
    result.parameters    # {"payee": {"name": "john"}, "currencyAmount": {...}, "note": "dinner"}
    engine.session(result.intent_document())   # == engine.session_from_text(...)

:meth:`Engine.parse_alternatives` takes a recogniser's n-best list,
:meth:`Engine.add_shortcut` and :meth:`Engine.remove_shortcut` keep phrases
that start a fixed intent, and :meth:`Engine.session_from_text` starts the
dialog at once (:class:`OutOfScopeError` when the text is not a payment
request; nothing is started then).

Finding the library
-------------------
The shared library is loaded when this package is imported, from the first of:

1. ``$TENDER_LIBRARY``: the full path of the shared library (e.g.
   ``/opt/tender/lib/libtender.so.1``). When this variable is set (and not
   empty) it is the only candidate; a wrong path is an error, never a silent
   fallback to another copy.
2. ``$(pkg-config --variable=libdir tender)/libtender.so.1``, if pkg-config is
   installed and knows ``tender``.
3. The soname ``libtender.so.1`` through the normal dynamic loader
   (``LD_LIBRARY_PATH``, ``/etc/ld.so.cache``, the default directories).

If none loads, importing raises :class:`TenderLibraryNotFound` (an
:class:`OSError`) listing everything tried. The library's major version
(``tender_version_number() // 10000``) must be ``0``, else
:class:`TenderVersionMismatch` is raised.

Data
----
JSON documents (docs/json.md) cross the API. Every input accepts a ``dict``
(or ``list``), serialised with :func:`json.dumps` (``decimal.Decimal`` values
become strings), a ``str`` (sent as-is, encoded as UTF-8) or ``bytes`` (sent
unchanged, so malformed input can be tested). Outputs are parsed into Python
objects.

Errors
------
A failing call raises a :class:`TenderError` subclass named after its result
code (:class:`InvalidJSONError`, :class:`WrongStateError`, ...), carrying
``.code``, ``.name`` and the library's ``.message``. Using a closed engine or
session raises :class:`ClosedError` (a :class:`ValueError`). When a host
callback fails, the call raises :class:`CallbackError` whose ``__cause__`` is the
exception the callback raised.

Thread safety
-------------
An :class:`Engine` is thread-safe: share one per process among any number of
threads and sessions. A :class:`Session` is one dialog and belongs to one
thread at a time; the binding serialises calls on a session with a lock, so
accidental concurrent use cannot corrupt memory, but a dialog only makes sense
from one thread. Error messages are per thread and are read right after the
failing call, on the same thread.
"""

from __future__ import annotations

# Only re-exports: each name lives in the module of its role.
from . import _lib as _loader
from ._native import (
    EXPECTED_MAJOR,
    MAX_INPUT_BYTES,
    JSONInput,
    _clib,
    _take_text,
    library_path,
    response_code_name,
    result_name,
    version,
    version_number,
)
from .cache import EngineCache
from .conversation import Conversation
from .engine import Engine
from .enums import KeyFormat, PromptKind, ResponseCode, VocabularyKind
from .errors import (
    AuthServiceError,
    CallbackError,
    ClosedError,
    CryptoError,
    DialogEndedError,
    HomeError,
    IdempotencyConflictError,
    InternalError,
    InvalidAmountError,
    InvalidArgumentError,
    InvalidJSONError,
    InvalidUTF8Error,
    KeyFileError,
    LedgerTamperedError,
    NotAgreedError,
    NotAskedError,
    NotFoundError,
    OutcomeUnknownError,
    NullArgumentError,
    OutOfScopeError,
    ResultCode,
    StoreBusyError,
    StoreError,
    TenderError,
    TenderLibraryError,
    TenderLibraryNotFound,
    TenderVersionMismatch,
    TooLargeError,
    UnknownCurrencyError,
    UnknownIntentError,
    UnknownOptionError,
    WrongStateError,
    error_class,
)
from .host import Host
from .parsing import ParseResult, parse
from .records import HandleOutcome, Record
from .session import Session

__version__ = "0.2.0"

__all__ = [
    "Engine",
    "EngineCache",
    "Session",
    "ParseResult",
    "parse",
    "Record",
    "HandleOutcome",
    "Host",
    "VocabularyKind",
    "KeyFormat",
    "PromptKind",
    "ResponseCode",
    "ResultCode",
    "version",
    "version_number",
    "result_name",
    "response_code_name",
    "library_path",
    "EXPECTED_MAJOR",
    "MAX_INPUT_BYTES",
    "ClosedError",
    "TenderLibraryError",
    "TenderLibraryNotFound",
    "TenderVersionMismatch",
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
    "OutcomeUnknownError",
    "InternalError",
]
