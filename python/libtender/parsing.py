# SPDX-License-Identifier: Apache-2.0
"""Understanding text: :func:`parse` and :class:`ParseResult`."""

from __future__ import annotations

import copy
from ctypes import byref, c_size_t, c_void_p
from typing import Any, Dict, Optional, Union, cast

from ._native import _clib, _encode_text, _raise, _start_call, _take_json, result_name
from .errors import InternalError, ResultCode


# ------------------------------------------------------------ understanding


# The ``intent`` of a ParseResult for a text that is not a request Tender handles.
_OUT_OF_SCOPE = "out_of_scope"


class ParseResult(Dict[str, Any]):
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
        return cast(str, self.get("intent"))

    @property
    def parameters(self) -> Optional[Dict[str, Any]]:
        return cast(Optional[Dict[str, Any]], self.get("parameters"))

    @property
    def text(self) -> str:
        return cast(str, self.get("text"))

    @property
    def language(self) -> str:
        return cast(str, self.get("language"))

    @property
    def source(self) -> str:
        return cast(str, self.get("source"))

    @property
    def score(self) -> float:
        return cast(float, self.get("score"))

    @property
    def named_app(self) -> bool:
        return bool(self.get("namedApp"))

    @property
    def in_scope(self) -> bool:
        """False for ``"out_of_scope"``."""
        return self.get("intent") != _OUT_OF_SCOPE

    def intent_document(self) -> Optional[Dict[str, Any]]:
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
