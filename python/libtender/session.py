# SPDX-License-Identifier: Apache-2.0
"""One dialog about one intent: :class:`Session`."""

from __future__ import annotations

import contextlib
import json
import threading
from ctypes import byref, c_int32, c_size_t, c_void_p
from typing import Any, Dict, Iterator, Optional, Tuple, cast

from . import _lib as _loader
from ._native import JSONInput, _callback_state, _clib, _encode, _raise, _start_call, _take_json
from .parsing import _FromText
from .conversation import Conversation, _Conversation
from .enums import ResponseCode
from .errors import ClosedError, InternalError, ResultCode
from ._native import result_name
from ._engine_base import _EngineBase
from .records import HandleOutcome, Record


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

    def __init__(self, engine: _EngineBase, intent: JSONInput):
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
        if not isinstance(engine, _EngineBase):
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
        callback = state.callback if state is not None else cast(Any, _loader.CONVERSATION_FN)()  # NULL
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

    def resolve(self) -> Dict[str, Any]:
        """Resolves every parameter and returns the resolution,
        ``{"intent": "send_payment", "complete": bool, "parameters": [...]}``
        (docs/json.md, docs/intents.md): each parameter's ``result`` is
        ``success`` (``value``), ``disambiguation`` (``prompt``: ``person``,
        ``handle``, ``billPayee`` or ``account``, and ``options``; or
        ``destination`` for the parameter ``intent``: to someone else or
        between the person's own accounts, answered with
        ``choose("intent", "send_payment" | "transfer_money")``, docs/dialog.md),
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
        result: Dict[str, Any] = _take_json(ptr, length)
        return result

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

    def reply(self, text: str) -> Dict[str, Any]:
        """Reads the person's reply (their words, any language Tender
        speaks) to the question they were last asked and acts on it: an
        answer to the open question of the last :meth:`resolve` ("the second
        one", "la segunda", "Baily", "sí", "20 dollars"; resolve again
        afterwards), yes or no to the question before money moves (as
        :meth:`agree`), or the end of the dialog ("cancel", "never mind",
        "olvídalo": nothing is paid, later calls raise
        :class:`DialogEndedError`). Returns the reply document
        ``{"reply": "answer" | "agree" | "cancel" | "unclear", "say"?: str,
        ...}``: ``"unclear"`` changed nothing, and ``say`` is what to tell the
        person (docs/dialog.md).

        Raises :class:`WrongStateError` (no question awaits a reply),
        :class:`DialogEndedError`, :class:`TooLargeError`,
        :class:`StoreError`, :class:`CallbackError`; :class:`ClosedError`
        after :meth:`close`.
        """
        data = text.encode("utf-8")
        ptr, length = c_void_p(), c_size_t()
        with self._use() as handle:
            code = _clib.tender_session_reply(handle, data, len(data), byref(ptr), byref(length))
            if code:
                _raise(code)
        result: Dict[str, Any] = _take_json(ptr, length)
        return result

    def confirm(self) -> Tuple[ResponseCode, Dict[str, Any]]:
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
        record = Record(document["record"], document["jws"]) if "record" in document else None
        return HandleOutcome(result, record, document.get("result"), document.get("response"), document.get("say"))
