# SPDX-License-Identifier: Apache-2.0
"""Custom intents (docs/custom-intents.md): the calls that add definitions to
an engine and register the Python callables that handle them."""

from __future__ import annotations

import ctypes
import json
import os
import weakref
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterable, List, Optional, Union, cast

from . import _lib as _loader
from ._native import _clib, _encode, _raise
from .host import _guarded, _reply

if TYPE_CHECKING:
    from ._engine_base import _EngineBase

#: A definition document: a dict (``{"intents": [...]}``), or the path of a JSON file.
Definition = Union[Mapping[str, Any], str, bytes, "os.PathLike[Any]"]


class _IntentCallbacks:
    """The ctypes callbacks of an engine's custom-intent host. The engine keeps
    this object as long as it lives (and its sessions keep the engine)."""

    __slots__ = ("handle", "values", "owner", "c_handle", "c_values", "struct")

    def __init__(self, handle: Callable[[Dict[str, Any]], Any], values: Optional[Callable[[str, str], Iterable[str]]],
                 owner: "weakref.ReferenceType[_EngineBase]"):
        if not callable(handle):
            raise TypeError("handle_intent must be callable")
        if values is not None and not callable(values):
            raise TypeError("intent_values must be callable or None")
        self.handle = handle
        self.values = values
        self.owner = owner
        self.c_handle = _loader.HANDLE_FN(self._handle)
        self.c_values = _loader.VALUES_FN(self._values) if values is not None else cast(Any, _loader.VALUES_FN)()
        self.struct = _loader.TenderIntentHost(_loader.INTENT_HOST_VERSION, None, self.c_handle, self.c_values)

    def _handle(self, _userdata: Any, address: Optional[int], length: int, reply: Optional[int]) -> int:
        def body() -> int:
            request = json.loads(ctypes.string_at(address, int(length)).decode("utf-8")) if address else {}
            answer = self.handle(request)
            if not isinstance(answer, (Mapping, str, bytes)):
                raise TypeError(f"handle_intent must return a dict like {{'code': 'success', 'values': {{}}}}, not {type(answer).__name__}")
            return _reply(reply, answer, "the answer of handle_intent")
        return _guarded(self.owner, body)

    def _values(self, _userdata: Any, intent: Optional[bytes], parameter: Optional[bytes], reply: Optional[int]) -> int:
        def body() -> int:
            assert self.values is not None
            names = self.values((intent or b"").decode("utf-8"), (parameter or b"").decode("utf-8"))
            if isinstance(names, (str, bytes)) or not isinstance(names, Iterable):
                raise TypeError("intent_values must return a list of names")
            return _reply(reply, {"values": list(names)}, "the answer of intent_values")
        return _guarded(self.owner, body)


class _IntentCalls:
    """The engine's custom-intent calls (mixed into :class:`~libtender.Engine`)."""

    _intent_hosts: List[Optional[_IntentCallbacks]]

    def add_intents(self, definition: Definition) -> None:
        """Adds the custom intents of a definition document: a dict
        (``{"intents": [...]}``) or the path of a JSON file. Checked whole
        first: a document that cannot work, or reuses a loaded name, adds
        nothing and raises :class:`InvalidArgumentError` naming the intent,
        the field and the reason (:class:`NotFoundError` for a file that
        cannot be read). Thread-safe."""
        engine = cast("_EngineBase", self)
        with engine._use() as handle:
            if isinstance(definition, Mapping):
                data = _encode(definition, "definition")
                code = _clib.tender_engine_add_intents(handle, data, len(data))
            else:
                path = os.fsencode(definition)
                code = _clib.tender_engine_add_intents_file(handle, path, len(path))
            if code:
                _raise(code)

    def set_intent_host(self, handle_intent: Optional[Callable[[Dict[str, Any]], Any]],
                        intent_values: Optional[Callable[[str, str], Iterable[str]]] = None) -> None:
        """Registers the callables that handle the engine's custom intents
        (None removes them). ``handle_intent(request)`` gets
        ``{"intent", "parameters", "idempotencyKey", "device"?}`` and returns
        ``{"code": "success", "values": {...}}``; ``intent_values(intent,
        parameter)`` returns the names a ``"values": "host"`` parameter may
        take. They are called on the thread of the session call and must not
        use the engine. An exception they raise (or an answer of the wrong
        shape) fails that call with :class:`CallbackError`, whose
        ``__cause__`` is the exception; nothing is recorded then."""
        engine = cast("_EngineBase", self)
        callbacks = (_IntentCallbacks(handle_intent, intent_values, weakref.ref(engine))
                     if handle_intent is not None else None)
        with engine._use() as handle:
            code = _clib.tender_engine_set_intent_host(handle, ctypes.byref(callbacks.struct) if callbacks else None)
            if code:
                _raise(code)
        # Kept as long as the engine: never released while the library may call them
        # (a call on another thread may still be in a host registered before).
        self._intent_hosts = [*getattr(self, "_intent_hosts", []), callbacks]

    def _open_intents(self, intents: Optional[List[Definition]], handle_intent: Any, intent_values: Any) -> None:
        """Loads ``intents`` and registers the callables given to the constructor."""
        for definition in intents or []:
            self.add_intents(definition)
        if handle_intent is not None:
            self.set_intent_host(handle_intent, intent_values)
        elif intent_values is not None:
            raise TypeError("intent_values needs handle_intent")
