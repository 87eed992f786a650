# SPDX-License-Identifier: Apache-2.0
"""A library handle several threads may use: freed once, and never under a running call."""

from __future__ import annotations

import contextlib
import threading
from typing import Callable, Iterator, Optional

from .errors import ClosedError


class _HandleGuard:
    """Owns one handle the library handed out (an engine, an engine cache).
    :meth:`use` lends it for one call; :meth:`close` frees it with ``free``,
    at once, or when the last call running on another thread returns."""

    def __init__(self, handle: Optional[int], free: Callable[[int], None], what: str):
        self._handle = handle
        self._free = free
        self._what = what
        self._lock = threading.Lock()
        self._users = 0
        self._closed = False

    @property
    def closed(self) -> bool:
        """True once :meth:`close` was called."""
        return self._closed

    @contextlib.contextmanager
    def use(self) -> Iterator[int]:
        """The handle for one call; raises :class:`ClosedError` once closed."""
        with self._lock:
            if self._closed or self._handle is None:
                raise ClosedError(f"{self._what} is closed")
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
                self._free(release)

    def close(self) -> None:
        """Frees the handle now, or after the last running call. Idempotent."""
        with self._lock:
            self._closed = True
            if self._users or self._handle is None:
                return
            release, self._handle = self._handle, None
        self._free(release)
