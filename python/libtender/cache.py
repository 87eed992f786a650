# SPDX-License-Identifier: Apache-2.0
"""Engines kept open for many homes at once: :class:`EngineCache`."""

from __future__ import annotations

import os
from collections.abc import Mapping
from ctypes import byref, c_size_t, c_void_p
from typing import Any, ContextManager, Dict, Optional, Union

from ._guard import _HandleGuard
from ._native import _clib, _encode, _raise, _start_call
from .engine import Engine
from .errors import ClosedError


def _free_cache(handle: int) -> None:
    _clib.tender_engine_cache_free(handle)


class EngineCache:
    """``tender_engine_cache``: engines kept open for a host that serves many
    people at once in one process, each with a home of their own (a chat or
    voice service).

    ``EngineCache(capacity)`` keeps at most ``capacity`` engines open while
    nobody uses them, the least recently asked for let go first.
    :meth:`engine` answers the engine of a home and configuration: the one
    kept for the same directory (its device and inode now; a home reached
    through a symbolic link is refused, as it is without the cache) and the
    same configuration (every other member equal: another policy or other
    limits get an engine of their own), or a new one. Which home belongs to
    which person is the host's decision; the cache cannot tell.

    Each :class:`~libtender.Engine` it returns is the caller's reference:
    close it (or use it as a context manager) when the request is done. An
    engine the cache lets go stays open while a reference or a session holds
    it. Errors: :class:`InvalidArgumentError` for a capacity outside 1 to
    65536 or a brokered configuration; :meth:`engine` raises what
    :class:`~libtender.Engine` raises.

    Thread safety: every method may be called from any thread at once; the
    engines are ordinary, shared engines. :meth:`close` may run while
    another thread uses the cache: it frees it after the running calls.
    """

    def __init__(self, capacity: int):
        out = c_void_p()
        _start_call()
        code = _clib.tender_engine_cache_new(capacity, byref(out))
        if code:
            _raise(code)
        self._guard = _HandleGuard(out.value, _free_cache, "the engine cache")

    def _use(self) -> ContextManager[int]:
        """The C handle for one call; :meth:`close` frees it only after the last running call."""
        return self._guard.use()

    def engine(self, home: Union[str, bytes, "os.PathLike[Any]"], limits: Optional[Mapping[str, Any]] = None,
               authentication: Optional[Mapping[str, Any]] = None, **config: Any) -> Engine:
        """The engine of ``home`` with this configuration (as :class:`~libtender.Engine`
        builds it), kept or opened now; a new reference the caller closes."""
        document: Dict[str, Any] = {"home": os.fsdecode(home)}
        if limits is not None:
            document["limits"] = limits
        if authentication is not None:
            document["authentication"] = authentication
        document.update(config)
        data = _encode(document, "configuration")
        out = c_void_p()
        _start_call()
        with self._use() as handle:
            code = _clib.tender_engine_cache_get(handle, data, len(data), byref(out))
        if code:
            _raise(code)
        return Engine._adopt(out.value, document["home"])

    def close_idle(self, idle_seconds: int = 0) -> int:
        """Lets go of every engine not asked for in the last ``idle_seconds``
        seconds (0: all of them); answers how many. Raises ValueError for
        seconds outside 0 to 4294967295 (the C call's uint32_t, which ctypes
        would otherwise truncate: 2**32 would let go of every engine)."""
        if isinstance(idle_seconds, bool) or not isinstance(idle_seconds, int) or not 0 <= idle_seconds <= 0xFFFF_FFFF:
            raise ValueError(f"idle_seconds must be an int from 0 to 4294967295, not {idle_seconds!r}")
        closed = c_size_t(0)
        _start_call()
        with self._use() as handle:
            code = _clib.tender_engine_cache_close_idle(handle, idle_seconds, byref(closed))
        if code:
            _raise(code)
        return int(closed.value)

    def __len__(self) -> int:
        """How many engines the cache keeps now (0 once closed)."""
        try:
            with self._use() as handle:
                return int(_clib.tender_engine_cache_count(handle))
        except ClosedError:
            return 0

    def close(self) -> None:
        """Lets go of every engine and frees the cache. Idempotent. Engines
        returned earlier stay valid until closed. A call running in another
        thread finishes first: the cache is freed when the last one returns."""
        self._guard.close()

    def __enter__(self) -> "EngineCache":
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # interpreter shutdown or a half-built object
            pass
