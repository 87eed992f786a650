# SPDX-License-Identifier: Apache-2.0
"""A host that keeps its own directory and moves the money itself:
:class:`Host` and the ctypes callbacks an engine holds for it."""

from __future__ import annotations

import ctypes
import json
import weakref
from typing import TYPE_CHECKING, Any, Callable, Dict, Optional, cast

from . import _lib as _loader
from ._native import _callback_state, _clib, _encode, _static_text
from .errors import error_class

if TYPE_CHECKING:
    from ._engine_base import _EngineBase


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
    can_send: Optional[Callable[[Dict[str, Any]], int]] = None

    def lookup(self, what: str) -> Any:
        raise NotImplementedError("Host.lookup must be implemented")

    def send(self, payment: Dict[str, Any]) -> int:
        raise NotImplementedError("Host.send must be implemented")


def _response_number(value: Any, what: str) -> int:
    """A callback's response code as an int32, or TypeError/ValueError."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{what} must return a ResponseCode (an int), not {type(value).__name__}")
    number = int(value)
    if not -2**31 <= number < 2**31:
        raise ValueError(f"{what} returned {number}, which is not a response code")
    return number


def _guarded(owner: Optional["weakref.ReferenceType[_EngineBase]"], body: Callable[[], int]) -> int:
    """Runs a callback's ``body`` for the library: 1 when it raised, the
    exception kept for the failing call to raise as its ``__cause__``."""
    # Nothing may escape into C: ctypes would print the exception and
    # hand C an undefined result.
    try:
        previous = getattr(_callback_state, "engine", None)
        _callback_state.engine = owner() if owner is not None else None
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


def _reply(reply: Optional[int], answer: Any, what: str) -> int:
    """Writes a callback's ``answer`` (a dict, list or JSON text) with tender_reply_set."""
    if not reply:
        raise ValueError("the library gave no reply to write to")
    data = _encode(answer, what)
    code = _clib.tender_reply_set(reply, data, len(data))
    if code:
        message = _static_text(_clib.tender_last_error())
        raise error_class(code)(code, _static_text(_clib.tender_result_str(code)), message)
    return 0


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
        self.owner: Optional["weakref.ReferenceType[_EngineBase]"] = None
        self.lookup = _loader.LOOKUP_FN(self._lookup)
        self.can_send = (_loader.SEND_FN(self._can_send) if can_send is not None
                         else cast(Any, _loader.SEND_FN)())  # NULL: always ready
        self.send = _loader.SEND_FN(self._send)
        self.struct = _loader.TenderHost(_loader.HOST_VERSION, None, self.lookup, self.can_send, self.send)

    def _run(self, body: Callable[[], int]) -> int:
        return _guarded(self.owner, body)

    def _lookup(self, _userdata: Any, what: Optional[bytes], reply: Optional[int]) -> int:
        def body() -> int:
            text = what.decode("utf-8", "replace") if what is not None else ""
            return _reply(reply, self.host.lookup(text), "the answer of host.lookup")
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
