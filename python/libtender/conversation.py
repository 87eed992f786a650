# SPDX-License-Identifier: Apache-2.0
"""The host's side of re-authentication: a conversation callable and the
ctypes callback that carries it."""

from __future__ import annotations

import ctypes
import threading
from typing import Any, Callable, Optional, Union

from . import _lib as _loader
from .enums import PromptKind


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
