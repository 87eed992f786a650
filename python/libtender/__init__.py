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

import base64
import contextlib
import copy
import ctypes
import decimal
import enum
import json
import os
import threading
from collections.abc import Mapping
from ctypes import byref, c_int32, c_size_t, c_void_p
import weakref
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Tuple, Union

from . import _lib as _loader
from .errors import (
    AuthServiceError,
    CallbackError,
    ClosedError,
    CryptoError,
    DialogEndedError,
    NotAgreedError,
    HomeError,
    IdempotencyConflictError,
    InternalError,
    InvalidAmountError,
    InvalidArgumentError,
    InvalidJSONError,
    InvalidUTF8Error,
    KeyFileError,
    LedgerTamperedError,
    NotAskedError,
    NotFoundError,
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

__version__ = "0.2.0"

__all__ = [
    "Engine",
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
    "InternalError",
]

#: The major version of libtender this binding is written for.
EXPECTED_MAJOR = _loader.EXPECTED_MAJOR
#: The largest JSON input libtender accepts, in bytes (TENDER_MAX_INPUT_BYTES).
MAX_INPUT_BYTES = 1048576

#: How the loaded library was found: its path, or the soname ``libtender.so.1``.
library_path: str
_clib, library_path = _loader.load()

JSONInput = Union[Mapping, list, tuple, str, bytes, bytearray, memoryview]


# ------------------------------------------------------------------ helpers


def _json_default(obj: Any) -> Any:
    if isinstance(obj, decimal.Decimal):
        return str(obj)
    if isinstance(obj, Mapping):
        return dict(obj)
    raise TypeError(f"Object of type {type(obj).__name__} is not JSON serializable")


def _encode(value: Any, what: str = "document") -> bytes:
    """A JSON input as bytes: bytes unchanged, str as UTF-8, objects as JSON."""
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value)
    if isinstance(value, str):
        # surrogatepass: lone surrogates reach the library as invalid UTF-8 and
        # are refused there (InvalidUTF8Error) instead of failing in Python.
        return value.encode("utf-8", "surrogatepass")
    if isinstance(value, (Mapping, list, tuple)):
        text = json.dumps(value, default=_json_default, ensure_ascii=False, allow_nan=False)
        return text.encode("utf-8", "surrogatepass")
    raise TypeError(
        f"{what} must be a dict, list, str or bytes, not {type(value).__name__}"
    )


def _static_text(ptr: Optional[bytes]) -> str:
    return ptr.decode("utf-8", "replace") if ptr else ""


#: Per thread: ``engine``, the Engine whose host callback runs on this thread
#: (a callback must not call back into it); ``error``, the first exception a
#: host callback raised during the current call into the library.
_callback_state = threading.local()


def _start_call() -> None:
    """Forget host-callback errors of an earlier call on this thread."""
    _callback_state.error = None


def _raise(code: int) -> None:
    """Raise the TenderError for a failed call. Call right after the failure.

    When a host callback raised during the call, that exception becomes the
    error's ``__cause__``; a ``KeyboardInterrupt`` or ``SystemExit`` it raised
    is re-raised itself."""
    message = _static_text(_clib.tender_last_error())  # first: nothing else may fail before
    name = _static_text(_clib.tender_result_str(code))
    cause = getattr(_callback_state, "error", None)
    _callback_state.error = None
    error = error_class(code)(code, name, message)
    if cause is None:
        raise error
    if not isinstance(cause, Exception):
        raise cause  # Ctrl-C inside a callback: the call failed, nothing was paid
    raise error from cause


def _take_text(ptr: c_void_p, length: c_size_t) -> Optional[str]:
    """Copy a string returned through ``char **`` and free it; None if NULL."""
    address = ptr.value
    if not address:
        return None
    try:
        data = ctypes.string_at(address, length.value)
    finally:
        ptr.value = None  # taken: never freed twice
        _clib.tender_string_free(address)
    return data.decode("utf-8")


def _take_json(ptr: c_void_p, length: c_size_t) -> Any:
    text = _take_text(ptr, length)
    return None if text is None else json.loads(text)


def _free_all(*pointers: c_void_p) -> None:
    for ptr in pointers:
        if ptr.value:
            _clib.tender_string_free(ptr.value)
            ptr.value = None


def _encode_text(value: Any, what: str = "text") -> bytes:
    """A text input as bytes: ``str`` as UTF-8 (lone surrogates pass through
    and are refused by the library as invalid UTF-8), bytes-like unchanged."""
    if isinstance(value, str):
        return value.encode("utf-8", "surrogatepass")
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value)
    raise TypeError(f"{what} must be a str or bytes, not {type(value).__name__}")


# ------------------------------------------------------------ understanding


# The ``intent`` of a ParseResult for a text that is not a request Tender handles.
_OUT_OF_SCOPE = "out_of_scope"


class ParseResult(dict):
    """What :func:`parse`, :meth:`Engine.parse` and
    :meth:`Engine.parse_alternatives` return: a ``dict`` of the library's
    JSON answer (docs/understanding.md), so it compares equal to the plain
    dict and serialises with :func:`json.dumps`, with attribute access to its
    members:

    * ``intent`` (``result["intent"]``): one of the seven intent names
      (``"send_payment"``, ``"request_payment"``, ``"pay_bill"``,
      ``"search_for_bills"``, ``"transfer_money"``, ``"search_for_accounts"``,
      ``"search_for_payments"``) or ``"out_of_scope"``.
    * ``parameters``: the intent's parameters as an intent document without
      ``"intent"`` (docs/intents.md), e.g. ``{"payee": {"name": "John"},
      "currencyAmount": {"amount": "50.00", "currency": "USD"}}``; None when
      out of scope.
    * ``text``: the text understood (for alternatives: the hearing that won).
    * ``language``: ``"en"`` or ``"es"``.
    * ``source``: what understood it: ``"shortcut"``, ``"model"`` or
      ``"none"`` (``"rules"`` is reserved: no longer produced).
    * ``score``: the classifier's calibrated probability (1.0 for a shortcut), a float.
    * ``named_app`` (``result["namedApp"]``): True when the request named the
      app ("... with Tender").

    :meth:`intent_document` gives the document :meth:`Engine.session` takes.
    """

    __slots__ = ()

    @property
    def intent(self) -> str:
        return self.get("intent")

    @property
    def parameters(self) -> Optional[dict]:
        return self.get("parameters")

    @property
    def text(self) -> str:
        return self.get("text")

    @property
    def language(self) -> str:
        return self.get("language")

    @property
    def source(self) -> str:
        return self.get("source")

    @property
    def score(self) -> float:
        return self.get("score")

    @property
    def named_app(self) -> bool:
        return bool(self.get("namedApp"))

    @property
    def in_scope(self) -> bool:
        """False for ``"out_of_scope"``."""
        return self.get("intent") != _OUT_OF_SCOPE

    def intent_document(self) -> Optional[dict]:
        """``{"intent": name, **parameters}``, ready for
        :meth:`Engine.session` (docs/intents.md); None when out of scope."""
        if not self.in_scope:
            return None
        document = {"intent": self.intent}
        document.update(copy.deepcopy(self.parameters or {}))
        return document

    def copy(self) -> "ParseResult":
        return ParseResult(self)

    def __reduce__(self) -> Any:
        return (ParseResult, (dict(self),))

    def __repr__(self) -> str:
        return f"ParseResult({dict.__repr__(self)})"


def _take_parse(ptr: c_void_p, length: c_size_t) -> ParseResult:
    document = _take_json(ptr, length)
    if not isinstance(document, dict):  # pragma: no cover - a library defect
        raise InternalError(int(ResultCode.INTERNAL), result_name(ResultCode.INTERNAL),
                            "a parse succeeded without a result document")
    return ParseResult(document)


def parse(text: Union[str, bytes]) -> ParseResult:
    """Understands a typed or spoken request offline, without an engine
    (``tender_parse``): no directory and no shortcuts, so a person's or
    organization's name is whatever the text says. Returns a
    :class:`ParseResult`; a text that is not a payment request is answered
    with ``intent == "out_of_scope"`` (not an error). See
    docs/understanding.md for what is understood, and docs/intents.md for the
    parameters.

    ``text`` is a ``str`` (sent as UTF-8) or ``bytes`` (sent unchanged).
    Raises :class:`InvalidUTF8Error`, :class:`InvalidArgumentError` (text
    over 1000 characters), :class:`TooLargeError`; :class:`TypeError` for
    other types. Thread-safe.
    """
    data = _encode_text(text)
    ptr, length = c_void_p(), c_size_t()
    _start_call()
    code = _clib.tender_parse(data, len(data), byref(ptr), byref(length))
    if code:
        _raise(code)
    return _take_parse(ptr, length)


class _FromText(bytes):
    """A request in words for ``Session(engine, ...)``: the session starts
    with tender_session_new_from_text (see :meth:`Engine.session_from_text`)."""


# ------------------------------------------------------------------- record


class Record(dict):
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

    def __init__(self, fields: Mapping = (), jws: Optional[str] = None):
        super().__init__(fields)
        self.jws: Optional[str] = jws

    @property
    def header(self) -> dict:
        """The decoded JWS header, ``{"alg": "Ed25519", "kid": ...}`` ({} when
        there is no JWS)."""
        if not self.jws:
            return {}
        part = self.jws.split(".", 1)[0]
        return json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))

    @property
    def kid(self) -> Optional[str]:
        """The id (RFC 7638 thumbprint) of the key that signed the record."""
        return self.header.get("kid")

    def copy(self) -> "Record":
        return Record(self, self.jws)

    def __reduce__(self) -> Any:
        return (Record, (dict(self), self.jws))

    def __repr__(self) -> str:
        return f"Record({dict.__repr__(self)}, jws={self.jws!r})"


class PromptKind(enum.IntEnum):
    """What an authentication step asks of the person (``tender_prompt_kind``,
    PAM's message styles); the first argument of a conversation callable
    (:meth:`Session.set_conversation`)."""

    #: Ask without echo (a password): return the answer.
    SECRET = 0
    #: Ask with echo (e.g. a user name or a code shown on screen): return the answer.
    TEXT = 1
    #: Show a message; the return value is ignored.
    INFO = 2
    #: Show an error message; the return value is ignored.
    ERROR = 3

    @property
    def needs_answer(self) -> bool:
        """True for :attr:`SECRET` and :attr:`TEXT`."""
        return self in (PromptKind.SECRET, PromptKind.TEXT)


#: A conversation callable: ``(kind, message) -> answer``, the answer a
#: ``str`` (sent as UTF-8), ``bytes``/``bytearray`` (sent unchanged) or None
#: (cancel). See :meth:`Session.set_conversation`.
Conversation = Callable[[PromptKind, str], Union[str, bytes, bytearray, None]]


def _write_answer(reply: Any, address: Optional[int], size: int) -> int:
    """Writes ``reply`` NUL-terminated at ``address`` (``size`` bytes of space)
    and returns 0, or raises ValueError/TypeError (the caller cancels)."""
    if not address or size < 1:
        raise ValueError("the library gave no space for the answer")
    if isinstance(reply, str):
        data: Union[bytes, bytearray] = reply.encode("utf-8")  # strict: a lone surrogate cancels
    elif isinstance(reply, (bytes, bytearray)):
        data = reply
    elif isinstance(reply, memoryview):
        data = reply.tobytes()
    else:
        raise TypeError(
            f"a conversation answer must be a str, bytes, bytearray or None, not {type(reply).__name__}")
    length = len(data)
    if length > size - 1:  # never the answer itself in a message: it may be a secret
        raise ValueError(f"the answer is {length} bytes; at most {size - 1} fit")
    if b"\0" in data:
        raise ValueError("the answer contains a NUL character")
    if length:
        if isinstance(data, bytearray):
            # no copy: the host may wipe its bytearray afterwards
            source: Any = (ctypes.c_char * length).from_buffer(data)
        else:
            source = data
        ctypes.memmove(address, source, length)
    ctypes.memset(address + length, 0, 1)
    return 0


class _Conversation:
    """A session's conversation: the host's callable and the ctypes callback
    the library holds. The session keeps this object (and so the callback)
    alive as long as the library may call it; it does not refer back to the
    session, so there is no reference cycle."""

    __slots__ = ("function", "callback", "thread", "error")

    def __init__(self, function: Conversation):
        self.function = function
        #: The thread inside tender_session_handle while the library may call back.
        self.thread: Optional[int] = None
        #: The first exception of the current handle (the rest of it is cancelled).
        self.error: Optional[BaseException] = None
        self.callback = _loader.CONVERSATION_FN(self._call)

    def _call(self, _userdata: Any, kind: int, message: Optional[bytes], answer: Optional[int],
              answer_size: int) -> int:
        # Nothing may escape into C: ctypes would print the exception and
        # hand C an undefined or zero result, which here would mean "answered".
        try:
            if self.error is not None:
                return 1  # an earlier step of this authentication failed: cancel the rest
            try:
                prompt = PromptKind(kind)
            except ValueError:
                raise ValueError(f"the library asked with an unknown prompt kind {kind}") from None
            text = message.decode("utf-8", "replace") if message is not None else ""
            reply = self.function(prompt, text)
            if not prompt.needs_answer:
                return 0
            if reply is None:
                return 1  # the person cancelled
            return _write_answer(reply, answer, int(answer_size))
        except BaseException as exc:  # noqa: B036 - KeyboardInterrupt too; re-raised after handle
            try:
                if self.error is None:
                    self.error = exc
            except BaseException:  # pragma: no cover - nothing may escape
                pass
            return 1


class HandleOutcome(tuple):
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

    Compares equal to the plain tuple ``(code, record)``.
    """

    def __new__(cls, code: "ResponseCode", record: Optional[Record] = None,
                result: Optional[dict] = None) -> "HandleOutcome":
        self = super().__new__(cls, (code, record))
        self.result = result
        return self

    @property
    def code(self) -> "ResponseCode":
        return self[0]

    @property
    def record(self) -> Optional[Record]:
        return self[1]

    def __reduce__(self) -> Any:
        return (HandleOutcome, (self[0], self[1], self.result))

    def __repr__(self) -> str:
        return f"HandleOutcome(code={self[0]!r}, record={self[1]!r}, result={self.result!r})"


class VocabularyKind(str, enum.Enum):
    """The kinds of user vocabulary (SiriKit's ``INVocabularyStringType``),
    for :meth:`Engine.set_vocabulary`. An item's ``id`` names what it stands
    for: a contact id, a bill payee id (or an organization name), an account
    id."""

    CONTACT_NAME = "contactName"
    PAYMENT_ORGANIZATION_NAME = "paymentOrganizationName"
    ACCOUNT_NICKNAME = "accountNickname"


class Host:
    """A host that keeps its own directory and moves the money with its own
    payment service (SiriKit's app-provided contacts, ``canSend`` and
    ``send``), for ``Engine(home, host=...)``.

    Subclassing is optional: any object with callable ``lookup`` and
    ``send`` attributes (and optionally ``can_send``) will do.

    * ``lookup(what)``: ``what`` is ``"contacts"``, ``"accounts"``,
      ``"billPayees"`` or ``"bills"``; return a directory document holding
      that list (docs/json.md), e.g. ``{"contacts": [...]}``, as a dict (or
      JSON ``str``/``bytes``). Required.
    * ``can_send(payment)``: ``payment`` is the resolved intent as a dict,
      with its ``"idempotencyKey"``; return :attr:`ResponseCode.READY` or a
      failure code. Called by :meth:`Session.confirm`. Leave it ``None``
      (as here) for "always ready".
    * ``send(payment)``: make the payment; return
      :attr:`ResponseCode.SUCCESS` or a failure code (nothing is recorded
      then). Called by :meth:`Session.handle` after authentication, before
      the record is kept. A key seen before must not pay again: a crash
      between send and the record makes Tender send again. Required.

    The callbacks may be called from any thread that uses the engine (make
    them thread-safe) and must not use the engine or its sessions (that
    raises ``RuntimeError``, which fails the call). An exception a callback
    raises, or an answer of the wrong type, never reaches C: the Tender call
    fails with :class:`CallbackError` whose ``__cause__`` is that exception
    (``KeyboardInterrupt`` and ``SystemExit`` are re-raised as they are).
    """

    #: None: every payment is ready (the C callback is left NULL).
    can_send: Optional[Callable[[dict], int]] = None

    def lookup(self, what: str) -> Any:
        raise NotImplementedError("Host.lookup must be implemented")

    def send(self, payment: dict) -> int:
        raise NotImplementedError("Host.send must be implemented")


def _response_number(value: Any, what: str) -> int:
    """A callback's response code as an int32, or TypeError/ValueError."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{what} must return a ResponseCode (an int), not {type(value).__name__}")
    number = int(value)
    if not -2**31 <= number < 2**31:
        raise ValueError(f"{what} returned {number}, which is not a response code")
    return number


class _HostCallbacks:
    """An engine's host: the host object and the ctypes callbacks the library
    holds. The :class:`Engine` keeps this object as long as it lives, and
    every open :class:`Session` keeps its engine, so the callbacks outlive
    the library's engine. Refers to its engine weakly (no cycle)."""

    __slots__ = ("host", "owner", "lookup", "can_send", "send", "struct")

    def __init__(self, host: Any):
        lookup = getattr(host, "lookup", None)
        send = getattr(host, "send", None)
        can_send = getattr(host, "can_send", None)
        if not callable(lookup):
            raise TypeError("host.lookup must be callable")
        if not callable(send):
            raise TypeError("host.send must be callable")
        if can_send is not None and not callable(can_send):
            raise TypeError("host.can_send must be callable or None")
        self.host = host
        self.owner: Optional["weakref.ReferenceType[Engine]"] = None
        self.lookup = _loader.LOOKUP_FN(self._lookup)
        self.can_send = (_loader.SEND_FN(self._can_send) if can_send is not None
                         else _loader.SEND_FN())  # NULL: always ready
        self.send = _loader.SEND_FN(self._send)
        self.struct = _loader.TenderHost(_loader.HOST_VERSION, None, self.lookup, self.can_send, self.send)

    def _run(self, body: Callable[[], int]) -> int:
        # Nothing may escape into C: ctypes would print the exception and
        # hand C an undefined result.
        try:
            previous = getattr(_callback_state, "engine", None)
            _callback_state.engine = self.owner() if self.owner is not None else None
            try:
                return body()
            finally:
                _callback_state.engine = previous
        except BaseException as exc:  # noqa: B036 - KeyboardInterrupt too; re-raised by _raise
            try:
                if getattr(_callback_state, "error", None) is None:
                    _callback_state.error = exc
            except BaseException:  # pragma: no cover - nothing may escape
                pass
            return 1

    def _lookup(self, _userdata: Any, what: Optional[bytes], reply: Optional[int]) -> int:
        def body() -> int:
            if not reply:
                raise ValueError("the library gave no reply to write to")
            text = what.decode("utf-8", "replace") if what is not None else ""
            data = _encode(self.host.lookup(text), "the answer of host.lookup")
            code = _clib.tender_reply_set(reply, data, len(data))
            if code:
                message = _static_text(_clib.tender_last_error())
                raise error_class(code)(code, _static_text(_clib.tender_result_str(code)), message)
            return 0
        return self._run(body)

    def _payment_call(self, name: str, address: Optional[int], length: int, code_out: Any) -> int:
        def body() -> int:
            if not code_out:
                raise ValueError("the library gave no code_out")
            text = ctypes.string_at(address, length).decode("utf-8") if address else ""
            payment = json.loads(text)
            answer = getattr(self.host, name)(payment)
            code_out[0] = _response_number(answer, f"host.{name}")
            return 0
        return self._run(body)

    def _can_send(self, _userdata: Any, payment: Optional[int], length: int, code_out: Any) -> int:
        return self._payment_call("can_send", payment, int(length), code_out)

    def _send(self, _userdata: Any, payment: Optional[int], length: int, code_out: Any) -> int:
        return self._payment_call("send", payment, int(length), code_out)


class KeyFormat(enum.IntEnum):
    """The forms of a public key :meth:`Engine.public_key` returns
    (``tender_key_format``)."""

    #: SubjectPublicKeyInfo PEM, as ``openssl`` reads it.
    PEM = 0
    #: An RFC 8037 OKP JWK with its RFC 7638 thumbprint as ``kid``.
    JWK = 1


# ------------------------------------------------------------------ version


def version() -> str:
    """The version of the loaded libtender as text (``"0.2.0"``). Never fails;
    thread-safe."""
    return _static_text(_clib.tender_version_string())


def version_number() -> int:
    """The version of the loaded libtender as MAJOR * 10000 + MINOR * 100 +
    PATCH (``200`` for 0.2.0). Never fails; thread-safe."""
    return int(_clib.tender_version_number())


def result_name(code: int) -> str:
    """The name of a result code (``"TENDER_E_INVALID_JSON"``), or
    ``"TENDER_E_UNKNOWN_CODE"``. Never fails; thread-safe."""
    return _static_text(_clib.tender_result_str(int(code)))


def response_code_name(code: int) -> str:
    """The SiriKit name of a response code (``"ready"``,
    ``"failureInsufficientFunds"``), or ``"unknown"``. Never fails; thread-safe."""
    return _static_text(_clib.tender_response_code_str(int(code)))


# ------------------------------------------------------------ response codes


class ResponseCode(enum.IntEnum):
    """The outcome of :meth:`Session.confirm` and :meth:`Session.handle` for
    every intent, with SiriKit's names: 0 to 13 are
    ``INSendPaymentIntentResponseCode``'s numbers, the codes only other
    intents have follow (docs/intents.md lists which codes each intent
    answers).

    A number the binding does not know becomes a pseudo-member named
    ``UNKNOWN_<n>`` rather than an error. :attr:`sirikit_name` gives the
    library's SiriKit name (``"ready"``).
    """

    UNSPECIFIED = 0
    READY = 1
    IN_PROGRESS = 2
    SUCCESS = 3
    FAILURE = 4
    FAILURE_REQUIRING_APP_LAUNCH = 5
    FAILURE_CREDENTIALS_UNVERIFIED = 6
    FAILURE_PAYMENTS_AMOUNT_BELOW_MINIMUM = 7
    FAILURE_PAYMENTS_AMOUNT_ABOVE_MAXIMUM = 8
    FAILURE_PAYMENTS_CURRENCY_UNSUPPORTED = 9
    FAILURE_INSUFFICIENT_FUNDS = 10
    FAILURE_NO_BANK_ACCOUNT = 11
    FAILURE_NOT_ELIGIBLE = 12
    FAILURE_TERMS_AND_CONDITIONS_ACCEPTANCE_REQUIRED = 13
    #: search_for_bills: no bill matches.
    FAILURE_BILL_NOT_FOUND = 14
    #: search_for_accounts: no account matches.
    FAILURE_ACCOUNT_NOT_FOUND = 15
    #: search_for_payments: no payment matches.
    FAILURE_PAYMENT_NOT_FOUND = 16

    @classmethod
    def _missing_(cls, value: object) -> Optional["ResponseCode"]:
        if isinstance(value, int) and not isinstance(value, bool):
            member = int.__new__(cls, value)
            member._name_ = f"UNKNOWN_{value}"
            member._value_ = value
            return member
        return None

    @property
    def sirikit_name(self) -> str:
        """The SiriKit name from ``tender_response_code_str`` (``"ready"``)."""
        return response_code_name(int(self))


# ------------------------------------------------------------------- engine


class Engine:
    """An engine: one store (a home directory holding ``tender.sqlite3``) and
    the payment policy.

    ``Engine(home, limits=None, authentication=None, host=None, **config)``
    builds the configuration document ``{"home": home, "limits": limits,
    "authentication": authentication, **config}`` (docs/json.md; ``limits``
    and ``authentication`` left out when None) and opens the engine. The home
    directory is created (mode 0700) when missing. ``home`` may be a ``str``,
    ``bytes`` or path-like object. Other configuration members go in
    ``config``: ``dialog={"maxPrompts": 5, "transferFee": {"USD": "0.50"}}``
    (the prompt limit, transfer fees), the app-wide vocabulary
    ``vocabulary={"parameterVocabularies": [...]}`` or
    ``vocabularyFile="/path"`` (docs/intents.md).

    ``host`` (see :class:`Host`) opens the engine with host callbacks
    (``tender_engine_new_with_host``): the directory (contacts, accounts,
    bill payees, bills) comes from ``host.lookup`` and payments go through
    ``host.can_send`` and ``host.send``; the store keeps the signed ledger,
    the user vocabulary, the signed-in flag and the authentication records,
    but no balances. The engine keeps ``host`` (as :attr:`host`) and the
    ctypes callbacks alive for as long as it or any of its sessions lives.

    ``authentication`` is the re-authentication policy, every member
    optional: ``{"restrictedIntents": ["send_payment"], "aboveAmount":
    {"USD": "100.00"}, "newPayee": False, "newDevice": False,
    "reuseSeconds": 0, "service": "tender", "pamConfigDirectory": "/path",
    "throttle": {"freeAttempts": 3, "baseDelaySeconds": 30,
    "maxDelaySeconds": 900}}``. Left out, every payment (send_payment,
    request_payment, pay_bill, transfer_money) asks through the PAM service
    ``"tender"``. When the policy can ask anything, that service must
    have a file in ``pamConfigDirectory`` (else in
    ``$PAM_WRAPPER_SERVICE_DIR`` when ``PAM_WRAPPER=1``, else in
    ``/etc/pam.d``), or :class:`AuthServiceError` is raised: on a machine
    without ``/etc/pam.d/tender``, ``Engine(home)`` fails, and an engine that
    must not ask passes ``authentication={"restrictedIntents": []}``.

    Raises :class:`InvalidArgumentError` (e.g. an unknown configuration key,
    bad limits or a bad policy), :class:`InvalidAmountError`,
    :class:`UnknownCurrencyError`, :class:`HomeError` (the home cannot be
    used), :class:`StoreError`, :class:`AuthServiceError` (the PAM service
    has no file, or the process user is unknown), :class:`NotFoundError`
    (the ``vocabularyFile`` cannot be read) and the other
    :class:`TenderError` subclasses listed for ``tender_engine_new``;
    :class:`TypeError` for a ``host`` without callable ``lookup`` and
    ``send``.

    Thread safety: an engine may be shared by any number of threads and
    sessions. :meth:`close` releases this object's reference; sessions already
    open keep the underlying engine alive and keep working. Calls made after
    :meth:`close` raise :class:`ClosedError`. Usable as a context manager
    (closes on exit).
    """

    def __init__(self, home: Union[str, bytes, "os.PathLike[Any]"], limits: Optional[Mapping] = None,
                 authentication: Optional[Mapping] = None, *, host: Any = None, **config: Any):
        self._handle: Optional[int] = None
        self._lock = threading.Lock()
        self._users = 0
        self._closed = False
        # Never released before this object: the library may call them as long
        # as the engine or a session lives, and sessions keep this object.
        self._callbacks: Optional[_HostCallbacks] = None
        #: The host object given as ``host=`` (None for a plain engine).
        self.host: Any = host
        document: Dict[str, Any] = {"home": os.fsdecode(home)}
        if limits is not None:
            document["limits"] = limits
        if authentication is not None:
            document["authentication"] = authentication
        document.update(config)
        data = _encode(document, "configuration")
        out = c_void_p()
        _start_call()
        if host is None:
            code = _clib.tender_engine_new(data, len(data), byref(out))
        else:
            callbacks = _HostCallbacks(host)
            callbacks.owner = weakref.ref(self)
            self._callbacks = callbacks
            code = _clib.tender_engine_new_with_host(data, len(data), byref(callbacks.struct), byref(out))
        if code:
            _raise(code)
        if not out.value:  # pragma: no cover - a library defect
            raise InternalError(int(ResultCode.INTERNAL), result_name(ResultCode.INTERNAL),
                                "tender_engine_new succeeded without an engine")
        self._handle = out.value
        #: The home directory as given in the configuration.
        self.home: str = document["home"]

    # -- handle management: close() never frees under a running call.

    @contextlib.contextmanager
    def _use(self) -> Iterator[int]:
        if getattr(_callback_state, "engine", None) is self:
            raise RuntimeError("a host callback must not call back into its engine")
        _start_call()
        with self._lock:
            if self._closed or self._handle is None:
                raise ClosedError("the Tender engine is closed")
            self._users += 1
            handle = self._handle
        try:
            yield handle
        finally:
            release = None
            with self._lock:
                self._users -= 1
                if self._closed and self._users == 0 and self._handle is not None:
                    release, self._handle = self._handle, None
            if release is not None:
                _clib.tender_engine_free(release)

    def close(self) -> None:
        """Releases the engine. Idempotent; thread-safe (a call running on
        another thread finishes first, then the engine is released). Sessions
        already open keep working; any later use of this engine raises
        :class:`ClosedError`."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            if self._users or self._handle is None:
                return
            release, self._handle = self._handle, None
        _clib.tender_engine_free(release)

    @property
    def closed(self) -> bool:
        """True once :meth:`close` was called."""
        return self._closed

    def __enter__(self) -> "Engine":
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # interpreter shutdown or a half-built object
            pass

    def __repr__(self) -> str:
        state = "closed" if self._closed else "open"
        return f"<tender.Engine home={getattr(self, 'home', None)!r} {state}>"

    # -- API

    def import_directory(self, directory: JSONInput) -> None:
        """Adds or replaces contacts (with their handles), accounts (with
        their balances), bill payees and bills from a directory document
        ``{"contacts", "accounts", "billPayees", "bills"}`` (each optional;
        docs/json.md), in one transaction: on any error nothing changes.

        Raises :class:`InvalidUTF8Error`, :class:`InvalidJSONError`,
        :class:`TooLargeError`, :class:`InvalidArgumentError`,
        :class:`InvalidAmountError`, :class:`UnknownCurrencyError`,
        :class:`NotFoundError` (a bill's payee does not exist),
        :class:`StoreError`, :class:`StoreBusyError`; :class:`ClosedError`
        after :meth:`close`. Thread-safe.
        """
        data = _encode(directory, "directory")
        with self._use() as handle:
            code = _clib.tender_engine_import_directory(handle, data, len(data))
            if code:
                _raise(code)

    def remove_from_directory(self, removal: Optional[JSONInput] = None, *,
                              contacts: Optional[Iterable[str]] = None,
                              accounts: Optional[Iterable[str]] = None,
                              bill_payees: Optional[Iterable[str]] = None,
                              bills: Optional[Iterable[str]] = None) -> None:
        """Removes directory items by id, in one transaction: either a
        removal document ``{"contacts": [ids], "accounts": [...],
        "billPayees": [...], "bills": [...]}`` or the keyword lists, e.g.
        ``remove_from_directory(contacts=["tim-cook"])``. A bill payee takes
        its bills with it; a contact its handles.

        Raises :class:`NotFoundError` (an id does not exist: nothing is
        removed), :class:`InvalidArgumentError` (e.g. no id at all),
        :class:`InvalidUTF8Error`, :class:`InvalidJSONError`,
        :class:`TooLargeError`, :class:`StoreError`, :class:`StoreBusyError`;
        :class:`TypeError` for both a document and keyword lists;
        :class:`ClosedError` after :meth:`close`. Thread-safe.
        """
        lists = {"contacts": contacts, "accounts": accounts, "billPayees": bill_payees, "bills": bills}
        given = {key: value for key, value in lists.items() if value is not None}
        if removal is not None and given:
            raise TypeError("give a removal document or keyword lists, not both")
        if removal is None:
            for key, ids in given.items():
                if isinstance(ids, (str, bytes)):
                    raise TypeError(f"{key} must be a list of ids, not a single {type(ids).__name__}")
            removal = {key: list(ids) for key, ids in given.items()}
        data = _encode(removal, "removal")
        with self._use() as handle:
            code = _clib.tender_engine_remove_from_directory(handle, data, len(data))
            if code:
                _raise(code)

    def set_vocabulary(self, kind: Union[str, "VocabularyKind", JSONInput],
                       items: Optional[Iterable[Mapping]] = None) -> None:
        """Replaces the person's whole vocabulary of one kind, as SiriKit's
        ``setVocabularyStrings`` does: ``set_vocabulary("contactName",
        [{"id": "john-baily", "phrase": "Johnny B", "pronunciation": ...,
        "alternatives": [...]}])``, or one document ``{"kind": ...,
        "items": [...]}``. ``kind`` is a :class:`VocabularyKind` or its
        name (``"contactName"``, ``"paymentOrganizationName"``,
        ``"accountNickname"``); the items are an ordered set (earlier wins),
        each ``id`` naming the contact, bill payee (or organization) or
        account it stands for. An empty list clears that kind.

        Raises :class:`InvalidArgumentError` (an unknown kind, a bad item),
        :class:`InvalidUTF8Error`, :class:`InvalidJSONError`,
        :class:`TooLargeError`, :class:`StoreError`, :class:`StoreBusyError`;
        :class:`TypeError` for arguments of other types; :class:`ClosedError`
        after :meth:`close`. Thread-safe.
        """
        if items is None:
            if isinstance(kind, str) and not isinstance(kind, VocabularyKind) and not kind.lstrip().startswith("{"):
                raise TypeError("set_vocabulary(kind, items) needs items; or pass one document")
            document: Any = kind
        else:
            if isinstance(kind, VocabularyKind):
                name = kind.value
            elif isinstance(kind, str):
                name = kind
            else:
                raise TypeError(f"kind must be a VocabularyKind or str, not {type(kind).__name__}")
            if isinstance(items, (str, bytes, Mapping)):
                raise TypeError("items must be a list of vocabulary items")
            document = {"kind": name, "items": list(items)}
        data = _encode(document, "vocabulary")
        with self._use() as handle:
            code = _clib.tender_engine_set_vocabulary(handle, data, len(data))
            if code:
                _raise(code)

    def set_signed_in(self, signed_in: bool) -> None:
        """Records whether the person is signed in to the payment service
        (True by default). Kept in the store, so every process using the
        home sees it. While it is False, :meth:`Session.confirm` answers
        :attr:`ResponseCode.FAILURE_CREDENTIALS_UNVERIFIED`.

        Raises :class:`StoreError`, :class:`StoreBusyError`;
        :class:`ClosedError` after :meth:`close`. Thread-safe.
        """
        with self._use() as handle:
            code = _clib.tender_engine_set_signed_in(handle, 1 if signed_in else 0)
            if code:
                _raise(code)

    def directory(self) -> dict:
        """The whole directory (contacts, handles, accounts with their current
        balances, bill payees, bills) as a dict.

        Raises :class:`StoreError`, :class:`StoreBusyError`;
        :class:`ClosedError` after :meth:`close`. Thread-safe.
        """
        ptr, length = c_void_p(), c_size_t()
        with self._use() as handle:
            code = _clib.tender_engine_directory(handle, byref(ptr), byref(length))
            if code:
                _raise(code)
        return _take_json(ptr, length)

    def payments(self) -> List[dict]:
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
        return _take_json(ptr, length)

    def set_payment_status(self, idempotency_key: Union[str, bytes], status: str) -> "Record":
        """Records a later status change of the payment made under
        ``idempotency_key`` (its record's ``"idempotencyKey"``): ``status``
        is ``"completed"``, ``"canceled"`` or ``"failed"``. Only a pending
        payment (a request, or a payment scheduled for a later day) changes.
        Canceled or failed gives back what the payment moved and leaves its
        bill unpaid again; completed credits a request's account. Returns the
        signed ``payment_status`` ledger entry as a :class:`Record` (with
        ``.jws``); asking for the status the payment already has records
        nothing and returns the entry that set it.

        Raises :class:`InvalidArgumentError` (not a payment status),
        :class:`NotFoundError` (no payment has the key),
        :class:`WrongStateError` (the status is final, or an account no
        longer holds what it would give back), :class:`StoreError`,
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

    def ledger(self) -> List[dict]:
        """The whole ledger, oldest first: one ``{"sequence": int, "type":
        "payment" | "payment_status" | "key_rotation", "record": dict, "jws": str}`` per entry,
        where ``record`` is the signed JSON and ``jws`` its compact JWS.

        Raises :class:`StoreError`, :class:`StoreBusyError`,
        :class:`LedgerTamperedError` (an entry is not a JWS);
        :class:`ClosedError` after :meth:`close`. Thread-safe.
        """
        return json.loads(self._text_call(_clib.tender_engine_ledger))

    def verify(
        self,
        checkpoint: Union[str, bytes, None] = None,
        trusted_key: Union[str, bytes, Mapping, None] = None,
    ) -> dict:
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
        whitespace ignored), also checks that no record it covers was removed
        or rewritten; only a checkpoint can detect records removed at the end.

        Returns the report ``{"valid": True, "records": N, "headHash": str,
        "keys": [kid, ...]}`` (``headHash``: base64url SHA-256 of the last
        record's payload, i.e. its record JSON; ``keys``: every key that
        signed, in order of first use).

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
        return json.loads(self._text_call(_clib.tender_engine_verify, data, size, key, key_size))

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

    def audit(self) -> List[dict]:
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
        return json.loads(self._text_call(_clib.tender_engine_audit))

    def session(self, intent: JSONInput) -> "Session":
        """Starts a dialog from a structured intent of any of the seven
        intents (schema in docs/intents.md), e.g. ``{"intent":
        "send_payment", "payee": {"name": "John"}, "currencyAmount":
        {"amount": "50", "currency": "USD"}}`` or ``{"intent": "pay_bill",
        "billPayee": {"name": "Electric Company"}}``; an optional
        ``"idempotencyKey"`` names the payment for retries, an optional
        ``"device"`` the device the request came from (for the
        ``newDevice`` rule). Same as ``Session(engine, intent)``.

        Raises :class:`InvalidUTF8Error`, :class:`InvalidJSONError`,
        :class:`TooLargeError`, :class:`InvalidArgumentError`,
        :class:`UnknownIntentError`, :class:`InvalidAmountError`,
        :class:`UnknownCurrencyError`; :class:`ClosedError` after
        :meth:`close`. Thread-safe; the session it returns belongs to one
        thread at a time.
        """
        return Session(self, intent)

    # -- understanding (docs/understanding.md)

    def parse(self, text: Union[str, bytes]) -> ParseResult:
        """Understands a typed or spoken request offline
        (``tender_engine_parse``): a registered shortcut first (see
        :meth:`add_shortcut`), then the trained models. People,
        bill payees and accounts are found through this engine's directory
        and vocabulary. Returns a :class:`ParseResult`, e.g. for ``"send $50
        to John for dinner"`` ``{"intent": "send_payment", "parameters":
        {"payee": {"name": "john"}, "currencyAmount": {"amount": "50.00",
        "currency": "USD"}, "note": "dinner"}, "text": ..., "language": "en",
        "source": "model", "score": 0.998, "namedApp": False}``; a text that is
        not a payment request has ``intent == "out_of_scope"`` and no
        parameters (not an error). What is understood (amounts, dates,
        people, bill types, English and Spanish) is in docs/understanding.md;
        the parameters are those of docs/intents.md, and
        ``result.intent_document()`` is ready for :meth:`session`.

        ``text`` is a ``str`` (sent as UTF-8) or ``bytes`` (sent unchanged).
        Raises :class:`InvalidUTF8Error`, :class:`InvalidArgumentError` (text
        over 1000 characters), :class:`TooLargeError`, :class:`StoreError`,
        :class:`StoreBusyError`; :class:`TypeError` for other types;
        :class:`ClosedError` after :meth:`close`. Thread-safe.
        """
        data = _encode_text(text)
        ptr, length = c_void_p(), c_size_t()
        with self._use() as handle:
            code = _clib.tender_engine_parse(handle, data, len(data), byref(ptr), byref(length))
            if code:
                _raise(code)
        return _take_parse(ptr, length)

    def parse_alternatives(self, alternatives: Any) -> ParseResult:
        """Like :meth:`parse` for a speech recogniser's n-best list
        (``tender_engine_parse_alternatives``), best first, 1 to 10 hearings.
        Each item is a text (``"send $50 to Jon"``), a ``(text, score)`` pair
        with a score from 0 to 1, or a dict ``{"text": ..., "score": ...}``;
        a whole document ``{"alternatives": [...]}`` (dict, or bytes sent
        unchanged) is accepted too. Every hearing is parsed; the best in-scope
        one wins, and the other hearings of its person are kept as the name's
        ``"alternatives"`` (docs/understanding.md, docs/intents.md).

        Raises :class:`InvalidArgumentError` (no hearing, more than 10, a
        score outside 0..1, a text over 1000 characters),
        :class:`InvalidJSONError`, :class:`InvalidUTF8Error`,
        :class:`TooLargeError`, :class:`StoreError`, :class:`StoreBusyError`;
        :class:`TypeError` for a single ``str`` (use :meth:`parse`) or items
        of other types; :class:`ClosedError` after :meth:`close`. Thread-safe.
        """
        if isinstance(alternatives, str):
            raise TypeError("parse_alternatives takes a list of texts; use parse() for one text")
        if isinstance(alternatives, (bytes, bytearray, memoryview, Mapping)):
            document: Any = alternatives
        else:
            items = []
            for item in alternatives:
                if isinstance(item, str):
                    items.append({"text": item})
                elif isinstance(item, Mapping):
                    items.append(dict(item))
                elif isinstance(item, (tuple, list)) and len(item) == 2:
                    items.append({"text": item[0], "score": item[1]})
                else:
                    raise TypeError("each alternative must be a text, a (text, score) pair or a dict, "
                                    f"not {type(item).__name__}")
            document = {"alternatives": items}
        data = _encode(document, "alternatives")
        ptr, length = c_void_p(), c_size_t()
        with self._use() as handle:
            code = _clib.tender_engine_parse_alternatives(handle, data, len(data), byref(ptr),
                                                          byref(length))
            if code:
                _raise(code)
        return _take_parse(ptr, length)

    def add_shortcut(self, phrase: Union[str, JSONInput], intent: Optional[JSONInput] = None) -> None:
        """Registers a shortcut (``tender_engine_add_shortcut``):
        ``add_shortcut("coffee expense", {"intent": "send_payment", "payee":
        {"name": "Tim"}, "currencyAmount": {"amount": "4.50", "currency":
        "USD"}})``, or one document ``{"phrase": ..., "intent": {...}}``.
        From then on :meth:`parse` (and :meth:`session_from_text`) answers the
        phrase (case, spaces and punctuation ignored) with that intent before
        anything else is tried, with ``source == "shortcut"``. The same
        phrase again replaces it. Kept in the store, so it survives reopening
        the home. The intent is any valid intent document (docs/intents.md),
        a dict or its JSON text. See docs/understanding.md.

        Raises :class:`InvalidArgumentError` (a blank phrase, a bad intent),
        :class:`UnknownIntentError`, :class:`InvalidAmountError`,
        :class:`UnknownCurrencyError`, :class:`InvalidUTF8Error`,
        :class:`InvalidJSONError`, :class:`TooLargeError`,
        :class:`StoreError`, :class:`StoreBusyError`; :class:`TypeError` for
        arguments of other types; :class:`ClosedError` after :meth:`close`.
        Thread-safe.
        """
        if intent is None:
            if isinstance(phrase, str) and not phrase.lstrip().startswith("{"):
                raise TypeError("add_shortcut(phrase, intent) needs an intent; or pass one document")
            document: Any = phrase
        else:
            if not isinstance(phrase, str):
                raise TypeError(f"phrase must be a str, not {type(phrase).__name__}")
            if isinstance(intent, (str, bytes, bytearray, memoryview)):
                try:
                    intent = json.loads(bytes(intent) if not isinstance(intent, str) else intent)
                except ValueError as exc:
                    raise InvalidJSONError(int(ResultCode.INVALID_JSON),
                                           result_name(ResultCode.INVALID_JSON),
                                           f"the shortcut's intent is not JSON: {exc}") from None
            elif not isinstance(intent, Mapping):
                raise TypeError(f"intent must be a dict or JSON text, not {type(intent).__name__}")
            document = {"phrase": phrase, "intent": intent}
        data = _encode(document, "shortcut")
        with self._use() as handle:
            code = _clib.tender_engine_add_shortcut(handle, data, len(data))
            if code:
                _raise(code)

    def remove_shortcut(self, phrase: Union[str, bytes]) -> None:
        """Removes the shortcut with this phrase (``tender_engine_remove_shortcut``;
        case, spaces and punctuation ignored, as when matching it).

        Raises :class:`NotFoundError` (no shortcut has that phrase),
        :class:`InvalidUTF8Error`, :class:`TooLargeError`,
        :class:`StoreError`, :class:`StoreBusyError`; :class:`TypeError` for
        other types; :class:`ClosedError` after :meth:`close`. Thread-safe.
        """
        data = _encode_text(phrase, "phrase")
        with self._use() as handle:
            code = _clib.tender_engine_remove_shortcut(handle, data, len(data))
            if code:
                _raise(code)

    def session_from_text(self, text: Union[str, bytes]) -> "Session":
        """Starts a dialog from a request in words
        (``tender_session_new_from_text``): :meth:`parse`, then
        :meth:`session` with the intent understood, in one call. Returns the
        :class:`Session`; drive it as any other (resolve, answer, confirm,
        handle; docs/intents.md).

        Raises :class:`OutOfScopeError` when the text is not a request
        Tender handles (nothing is started), and the errors of :meth:`parse`
        and :meth:`session`; :class:`TypeError` for other types;
        :class:`ClosedError` after :meth:`close`. See docs/understanding.md.
        Thread-safe; the session belongs to one thread at a time.
        """
        return Session(self, _FromText(_encode_text(text)))


# ------------------------------------------------------------------ session


class Session:
    """A session: one dialog about one intent (create it with
    :meth:`Engine.session`), any of the seven intents of docs/intents.md.

    The dialog: :meth:`resolve`; while the resolution is not ``complete``,
    answer its open questions (:meth:`choose`, :meth:`confirm_value`,
    :meth:`supply` or :meth:`answer`) and resolve again; then :meth:`confirm`
    and, when it is :attr:`ResponseCode.READY`, :meth:`handle`. A failed call
    leaves the session unchanged. When the engine's policy asks for
    re-authentication, :meth:`handle` asks the person through the callable
    given to :meth:`set_conversation`. A parameter left unresolved for more
    resolves than the engine's ``maxPrompts`` ends the dialog: that call and
    every later one raise :class:`DialogEndedError`.

    Attributes:
        engine: the :class:`Engine` the session was started from.
        last_denial: after a :meth:`handle` that answered
            :attr:`ResponseCode.FAILURE_CREDENTIALS_UNVERIFIED`, why the
            person was not authenticated (``tender_last_error()`` read right
            after the call), e.g. ``"wrongCredentials: PAM: Authentication
            failure"``, ``"throttled: too many failed authentications; try
            again in 30 s"`` or ``"cancelled: ..."``; None otherwise.
        conversation_error: the exception the conversation callable raised
            (or the ``ValueError``/``TypeError`` for an answer that could not
            be sent) during the last :meth:`handle`, else None.

    Thread safety: a session belongs to one thread at a time (the binding
    serialises its calls with a lock). It holds a reference to its
    :class:`Engine`, and the library keeps the engine alive while the session
    is open, even after :meth:`Engine.close`. Calls made after :meth:`close`
    raise :class:`ClosedError`. Usable as a context manager (closes on exit).
    """

    def __init__(self, engine: Engine, intent: JSONInput):
        """Starts a dialog on ``engine`` from ``intent``, a structured intent
        document (docs/intents.md: ``{"intent": "pay_bill", "billPayee":
        {"name": "Electric Company"}}``; the parameters of each intent, their
        values and the resolution results are listed there). Errors as
        :meth:`Engine.session`."""
        self._handle: Optional[int] = None
        self._lock = threading.Lock()
        # The conversation (and its ctypes callback) lives as long as the
        # library may call it: until it is replaced or the session is freed.
        self._conversation: Optional[_Conversation] = None
        self.last_denial: Optional[str] = None
        self.conversation_error: Optional[BaseException] = None
        if not isinstance(engine, Engine):
            raise TypeError(f"engine must be a tender.Engine, not {type(engine).__name__}")
        #: The engine this session was started from.
        self.engine = engine
        if isinstance(intent, _FromText):  # Engine.session_from_text
            data, function = bytes(intent), _clib.tender_session_new_from_text
        else:
            data, function = _encode(intent, "intent"), _clib.tender_session_new
        out = c_void_p()
        with engine._use() as engine_handle:
            code = function(engine_handle, data, len(data), byref(out))
            if code:
                _raise(code)
        if not out.value:  # pragma: no cover - a library defect
            raise InternalError(int(ResultCode.INTERNAL), result_name(ResultCode.INTERNAL),
                                "starting a session succeeded without a session")
        self._handle = out.value

    def _check_not_conversing(self) -> None:
        state = self._conversation
        if state is not None and state.thread == threading.get_ident():
            # The session's lock is held by handle() on this very thread.
            raise RuntimeError("a session cannot be used from its own conversation callable")

    @contextlib.contextmanager
    def _use(self) -> Iterator[int]:
        self._check_not_conversing()
        if getattr(_callback_state, "engine", None) is self.engine:
            raise RuntimeError("a host callback must not use a session of its engine")
        _start_call()
        with self._lock:
            if self._handle is None:
                raise ClosedError("the Tender session is closed")
            yield self._handle

    def close(self) -> None:
        """Releases the session (and its conversation). Idempotent; any later
        use raises :class:`ClosedError`."""
        self._check_not_conversing()
        with self._lock:
            release, self._handle = self._handle, None
            if release is not None:
                _clib.tender_session_free(release)
            self._conversation = None  # only now: the library can no longer call it

    @property
    def closed(self) -> bool:
        """True once :meth:`close` was called."""
        return self._handle is None

    def __enter__(self) -> "Session":
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # interpreter shutdown or a half-built object
            pass

    def __repr__(self) -> str:
        return f"<tender.Session {'closed' if self.closed else 'open'}>"

    # -- authentication

    def set_conversation(self, conversation: Optional[Conversation]) -> None:
        """Sets how this session asks the person to authenticate when the
        engine's policy requires it; None removes it (a payment that needs
        authentication is then refused).

        ``conversation(kind, message)`` is called during :meth:`handle`, on
        the thread calling it, once per PAM message, with a
        :class:`PromptKind` and PAM's text (e.g. ``"Password: "``):

        * :attr:`PromptKind.SECRET` (no echo, a password) and
          :attr:`PromptKind.TEXT` (with echo): return the answer as ``str``
          (sent as UTF-8) or ``bytes``/``bytearray`` (sent unchanged), or
          None to cancel. An answer longer than the library's buffer
          (``answer_size - 1`` bytes, 510 with Linux-PAM), or holding a NUL
          character, cancels rather than being cut short.
        * :attr:`PromptKind.INFO` and :attr:`PromptKind.ERROR`: show the
          message; the return value is ignored.

        An exception raised by the callable never reaches the library: it
        cancels the authentication (and any later prompt of the same
        :meth:`handle`), and is kept as :attr:`conversation_error`.
        ``KeyboardInterrupt`` and ``SystemExit`` are re-raised by
        :meth:`handle` once the library has returned, unless it paid. The
        callable must not use this session (that raises ``RuntimeError``,
        which cancels); it may use the engine.

        A cancelled, wrong or empty answer makes :meth:`handle` return
        ``(ResponseCode.FAILURE_CREDENTIALS_UNVERIFIED, None)`` with the
        reason in :attr:`last_denial`. A real host prompts the person, e.g.
        ``lambda kind, message: getpass.getpass(message) if kind ==
        PromptKind.SECRET else ...``.

        Secrets: the library copies the answer into memory it owns, hands it
        to PAM and wipes it. A Python ``str`` (and the ``bytes`` it is encoded
        into) is immutable and cannot be wiped: it stays in the process's
        memory until the garbage collector reuses it. A host that cares
        returns a ``bytearray``, which the binding copies into the library's
        buffer without an intermediate copy, and zeroes it after
        :meth:`handle` returns (``buf[:] = bytes(len(buf))``).

        The session keeps a reference to the callable (and to the ctypes
        callback the library holds) until it is replaced or the session is
        closed. Raises :class:`TypeError` if ``conversation`` is not callable
        or None; :class:`ClosedError` after :meth:`close`.
        """
        if conversation is not None and not callable(conversation):
            raise TypeError(f"conversation must be callable or None, not {type(conversation).__name__}")
        state = None if conversation is None else _Conversation(conversation)
        callback = state.callback if state is not None else _loader.CONVERSATION_FN()  # NULL
        with self._use() as handle:
            code = _clib.tender_session_set_conversation(handle, callback, None)
            if code:
                _raise(code)
            self._conversation = state  # the old callback is no longer referenced by the library

    @property
    def denial_reason(self) -> Optional[str]:
        """The machine-readable part of :attr:`last_denial`
        (``"wrongCredentials"``, ``"accountUnavailable"``, ``"cancelled"``,
        ``"throttled"``, ``"systemError"``), or None."""
        if not self.last_denial:
            return None
        return self.last_denial.split(":", 1)[0].strip() or None

    # -- API

    def resolve(self) -> dict:
        """Resolves every parameter and returns the resolution,
        ``{"intent": "send_payment", "complete": bool, "parameters": [...]}``
        (docs/json.md, docs/intents.md): each parameter's ``result`` is
        ``success`` (``value``), ``disambiguation`` (``prompt``: ``person``,
        ``handle``, ``billPayee`` or ``account``, and ``options``),
        ``confirmationRequired`` (``value``), ``needsValue``,
        ``notRequired`` or ``unsupported`` (``reason``). Parameters that need
        an answer become the open questions.

        Raises :class:`WrongStateError` (already handled),
        :class:`DialogEndedError` (a parameter stayed unresolved more than
        ``maxPrompts`` times), :class:`StoreError`,
        :class:`StoreBusyError`, :class:`CallbackError` (a host callback
        failed); :class:`ClosedError` after
        :meth:`close`.
        """
        ptr, length = c_void_p(), c_size_t()
        with self._use() as handle:
            code = _clib.tender_session_resolve(handle, byref(ptr), byref(length))
            if code:
                _raise(code)
        return _take_json(ptr, length)

    def answer(self, answer: JSONInput) -> None:
        """Answers one open question of the last :meth:`resolve` with an answer
        document: ``{"parameter": ..., "choose": id}``, ``{"parameter": ...,
        "confirm": bool}`` or ``{"parameter": ..., "value": {...}}``. Resolve
        again afterwards. On error the session is unchanged.

        Raises :class:`InvalidUTF8Error`, :class:`InvalidJSONError`,
        :class:`TooLargeError`, :class:`InvalidArgumentError`,
        :class:`InvalidAmountError`, :class:`UnknownCurrencyError`,
        :class:`NotAskedError` (not an open question, or the wrong kind of
        answer), :class:`UnknownOptionError` (an id that was not offered),
        :class:`WrongStateError` (after handle), :class:`DialogEndedError`;
        :class:`ClosedError` after :meth:`close`.
        """
        data = _encode(answer, "answer")
        with self._use() as handle:
            code = _clib.tender_session_answer(handle, data, len(data))
            if code:
                _raise(code)

    def choose(self, parameter: str, option_id: str) -> None:
        """Answers a disambiguation of ``parameter`` with the id of one of the
        offered options (sends ``{"parameter": parameter, "choose":
        option_id}``). Errors as :meth:`answer`."""
        self.answer({"parameter": parameter, "choose": option_id})

    def confirm_value(self, parameter: str, yes: bool) -> None:
        """Answers a confirmationRequired of ``parameter``: True accepts the
        proposed value, False clears it (sends ``{"parameter": parameter,
        "confirm": yes}``). Errors as :meth:`answer`."""
        self.answer({"parameter": parameter, "confirm": bool(yes)})

    def supply(self, parameter: str, value: Any) -> None:
        """Gives a value for a needsValue or unsupported ``parameter``, e.g.
        ``supply("currencyAmount", {"amount": "20", "currency": "USD"})`` or
        ``supply("payee", {"name": "Tim"})`` (sends ``{"parameter": parameter,
        "value": value}``). Errors as :meth:`answer`."""
        self.answer({"parameter": parameter, "value": value})

    def confirm(self) -> Tuple[ResponseCode, dict]:
        """Confirms the resolved intent: checks that it can be carried out
        (signed in, limits, currency, an account, funds; the host's
        ``can_send``; for a search, that something matches). Returns
        ``(code, response)``: ``code`` is :attr:`ResponseCode.READY` or a
        failure code (e.g. :attr:`ResponseCode.FAILURE_INSUFFICIENT_FUNDS`,
        :attr:`ResponseCode.FAILURE_CREDENTIALS_UNVERIFIED` for a person not
        signed in, :attr:`ResponseCode.FAILURE_BILL_NOT_FOUND` for a search
        that finds nothing), ``response`` the confirm response document
        (``code``, the resolved ``intent``, the paying ``account``,
        ``billDetails`` for pay_bill, ``fee`` for transfer_money, ``result``
        for a search; docs/intents.md) and, when money would move,
        ``question``: the words to ask the person before :meth:`agree`.

        Raises :class:`WrongStateError` (a parameter is still unresolved, or
        the session was handled), :class:`DialogEndedError`,
        :class:`StoreError`, :class:`StoreBusyError`,
        :class:`CallbackError` (a host callback failed); :class:`ClosedError` after :meth:`close`.
        """
        response_code = c_int32()
        ptr, length = c_void_p(), c_size_t()
        with self._use() as handle:
            code = _clib.tender_session_confirm(handle, byref(response_code), byref(ptr), byref(length))
            if code:
                _raise(code)
        return ResponseCode(response_code.value), _take_json(ptr, length)

    def agree(self, yes: bool) -> None:
        """Records the person's answer to the confirmation question (the
        ``question`` of :meth:`confirm`'s response, e.g. "Send $20 to John
        Baily from Checking? There is no fee."). True lets :meth:`handle`
        move the money; False ends the dialog and pays nothing. Unless the
        engine is configured with ``dialog={"requireAgreement": False}``,
        :meth:`handle` of an intent that moves money raises
        :class:`NotAgreedError` until the person said yes.

        Raises :class:`WrongStateError` (confirm has not answered ready for
        an intent that moves money, or the session was handled),
        :class:`DialogEndedError`; :class:`ClosedError` after :meth:`close`.
        """
        with self._use() as handle:
            code = _clib.tender_session_agree(handle, 1 if yes else 0)
            if code:
                _raise(code)

    def handle(self) -> HandleOutcome:
        """Handles a confirmed intent: re-authenticates the person when the
        engine's policy asks for it (through the callable given to
        :meth:`set_conversation`; the reuse window may spare it), then pays
        exactly once (through the host's ``send`` for an engine with a
        host). Returns a :class:`HandleOutcome`, the pair ``(code, record)``:
        :attr:`ResponseCode.SUCCESS` and the payment :class:`Record` (a dict
        of the record's fields, with its compact JWS as ``record.jws``), or a
        failure code (e.g. :attr:`ResponseCode.FAILURE_INSUFFICIENT_FUNDS`)
        and None. Handling again, or from another session or process with the
        same idempotency key, returns the original record (and JWS) and pays
        nothing.

        For a search (``search_for_bills``, ``search_for_accounts``,
        ``search_for_payments``) the record is None and the search result is
        ``outcome.result``: ``{"bills": [...]}``, ``{"accounts": [...]}`` or
        ``{"payments": [...]}`` (docs/intents.md); it is None otherwise.

        :attr:`ResponseCode.FAILURE_CREDENTIALS_UNVERIFIED` means the person
        was not authenticated: wrong, empty or cancelled credentials, too many
        failures (throttled), or no conversation set. Nothing was submitted,
        the session stays confirmed (call :meth:`handle` again to retry) and
        :attr:`last_denial` says why (``"wrongCredentials: ..."``,
        ``"throttled: ..."``, ``"cancelled: ..."``); it is None after any
        other outcome.

        Raises :class:`WrongStateError` (not confirmed ready),
        :class:`NotAgreedError` (money would move before :meth:`agree`
        recorded the person's yes), :class:`DialogEndedError` (also after a no),
        :class:`IdempotencyConflictError` (the key was used with other
        parameters), :class:`CallbackError` (the host's ``send`` failed;
        nothing is recorded then), :class:`StoreError`, :class:`StoreBusyError`,
        :class:`CryptoError`, :class:`KeyFileError` (the signing key cannot
        be used); :class:`ClosedError` after :meth:`close`; the
        ``KeyboardInterrupt`` or ``SystemExit`` the conversation callable
        raised, once nothing was paid.
        """
        response_code = c_int32()
        ptr, length = c_void_p(), c_size_t()
        self.last_denial = None
        self.conversation_error = None
        with self._use() as handle:
            state = self._conversation
            if state is not None:
                state.error = None
                state.thread = threading.get_ident()
            try:
                code = _clib.tender_session_handle(handle, byref(response_code), byref(ptr), byref(length))
            finally:
                if state is not None:
                    state.thread = None
            if code:
                if state is not None:
                    self.conversation_error = state.error
                _raise(code)
        if state is not None:
            self.conversation_error = state.error
        # The handle outcome document (docs/outcome.md).
        document = _take_json(ptr, length)
        denial = document.get("denial")
        if denial is not None:
            self.last_denial = f"{denial['reason']}: {denial['message']}"
        result = ResponseCode(response_code.value)
        interrupt = self.conversation_error
        if (interrupt is not None and not isinstance(interrupt, Exception)
                and result != ResponseCode.SUCCESS):
            raise interrupt  # Ctrl-C at the prompt: nothing was paid
        if "record" in document:
            return HandleOutcome(result, Record(document["record"], document["jws"]))
        return HandleOutcome(result, None, document.get("result"))
