# SPDX-License-Identifier: Apache-2.0
"""The understanding calls of an engine: parsing text, shortcuts, sessions
from a document or from text."""

from __future__ import annotations

import json
from collections.abc import Mapping
from ctypes import byref, c_size_t, c_void_p
from typing import TYPE_CHECKING, Any, Optional, Union

from ._engine_base import _EngineBase
from ._native import JSONInput, _clib, _encode, _encode_text, _raise, result_name
from .errors import InvalidJSONError, ResultCode
from .parsing import ParseResult, _FromText, _take_parse

if TYPE_CHECKING:
    from .session import Session


class _UnderstandingCalls(_EngineBase):
    """The understanding calls of an engine: parsing text, shortcuts, sessions (mixed into :class:`~libtender.Engine`)."""

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
        from .session import Session  # here: session.py needs the engine's modules first

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
        from .session import Session

        return Session(self, _FromText(_encode_text(text)))
