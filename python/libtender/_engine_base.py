# SPDX-License-Identifier: Apache-2.0
"""The lifecycle every engine call shares: opening the library's engine,
using its handle (never freed under a running call) and closing it."""

from __future__ import annotations

import contextlib
import os
import weakref
from collections.abc import Mapping
from ctypes import byref, c_void_p
from typing import Any, Dict, Iterator, Optional, TypeVar, Union

from ._native import _callback_state, _clib, _encode, _raise, _start_call, result_name
from ._guard import _HandleGuard
from .errors import InternalError, ResultCode
from .host import _HostCallbacks


_Engine = TypeVar("_Engine", bound="_EngineBase")


def _free_engine(handle: int) -> None:
    _clib.tender_engine_free(handle)


class _EngineBase:
    """An engine's handle and lifecycle (:class:`~libtender.Engine` is the
    public class; this part holds what its calls share)."""

    def __init__(self, home: Union[str, bytes, "os.PathLike[Any]"], limits: Optional[Mapping[str, Any]] = None,
                 authentication: Optional[Mapping[str, Any]] = None, *, host: Any = None, **config: Any):
        self._guard = _HandleGuard(None, _free_engine, "the Tender engine")
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
        self._guard = _HandleGuard(out.value, _free_engine, "the Tender engine")
        #: The home directory as given in the configuration.
        self.home: str = document["home"]

    @classmethod
    def _adopt(cls: "type[_Engine]", handle: Optional[int], home: str) -> _Engine:
        """An engine object owning ``handle``, a reference the library handed
        out (tender_engine_cache_get); closing it releases that reference."""
        if not handle:  # pragma: no cover - a library defect
            raise InternalError(int(ResultCode.INTERNAL), result_name(ResultCode.INTERNAL),
                                "the library answered no engine")
        engine = cls.__new__(cls)
        engine._guard = _HandleGuard(handle, _free_engine, "the Tender engine")
        engine._callbacks = None
        engine.host = None
        engine.home = home
        return engine

    # -- handle management: close() never frees under a running call.

    @contextlib.contextmanager
    def _use(self) -> Iterator[int]:
        if getattr(_callback_state, "engine", None) is self:
            raise RuntimeError("a host callback must not call back into its engine")
        _start_call()
        with self._guard.use() as handle:
            yield handle

    def close(self) -> None:
        """Releases the engine. Idempotent; thread-safe (a call running on
        another thread finishes first, then the engine is released). Sessions
        already open keep working; any later use of this engine raises
        :class:`ClosedError`."""
        self._guard.close()

    @property
    def closed(self) -> bool:
        """True once :meth:`close` was called."""
        return self._guard.closed

    def __enter__(self: _Engine) -> _Engine:
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # interpreter shutdown or a half-built object
            pass

    def __repr__(self) -> str:
        state = "closed" if self.closed else "open"
        return f"<tender.Engine home={getattr(self, 'home', None)!r} {state}>"
