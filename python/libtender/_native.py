# SPDX-License-Identifier: Apache-2.0
"""The loaded libtender and what every module of the binding shares: the
library handle, JSON encoding, moving text across the boundary, raising a
call's error, the version (private; the public names are re-exported by
:mod:`libtender`)."""

from __future__ import annotations

import ctypes
import decimal
import json
import threading
from collections.abc import Mapping
from ctypes import c_size_t, c_void_p
from typing import Any, List, Optional, Tuple, Union

from . import _lib as _loader
from .errors import error_class

#: The major version of libtender this binding is written for.
EXPECTED_MAJOR = _loader.EXPECTED_MAJOR
#: The largest JSON input libtender accepts, in bytes (TENDER_MAX_INPUT_BYTES).
MAX_INPUT_BYTES = 1048576

#: How the loaded library was found: its path, or the soname ``libtender.so.1``.
library_path: str
_clib, library_path = _loader.load()

JSONInput = Union[Mapping[str, Any], List[Any], Tuple[Any, ...], str, bytes, bytearray, memoryview]


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
