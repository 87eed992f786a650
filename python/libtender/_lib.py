# SPDX-License-Identifier: Apache-2.0
"""Finding, loading and declaring libtender (private).

Search order (the first candidate that exists is used):

0. The copy bundled in this package (``libtender/libtender.so.N``, which
   a wheel built by ``make wheel`` carries): when present it is the only
   candidate, so a wheel always runs the library it was built with.
1. ``$TENDER_LIBRARY``: the full path of the shared library. When this
   variable is set (and not empty) it is the *only* candidate: a wrong path is
   an error rather than a silent fallback to another installed copy.
2. pkg-config: ``$(pkg-config --variable=libdir tender)/libtender.so.N``, when
   ``pkg-config`` is installed and knows the ``tender`` package.
3. The soname ``libtender.so.N`` through the normal dynamic loader
   (``LD_LIBRARY_PATH``, the ld.so cache, the default directories).

If nothing loads, :class:`~tender.errors.TenderLibraryNotFound` lists every
candidate and why it failed; when the library was found but a system library
it needs is missing, :class:`MissingSystemLibrary` (an :class:`ImportError`)
names it and the Debian package that provides it. A library whose
``tender_version_number()`` has a major version other than
:data:`EXPECTED_MAJOR` (or, for major version 0, a minor version other than
:data:`EXPECTED_MINOR`) is refused with :class:`~tender.errors.TenderVersionMismatch`.
"""

from __future__ import annotations

import ctypes
import os
import shutil
import subprocess
from ctypes import CFUNCTYPE, POINTER, c_char_p, c_int, c_int32, c_size_t, c_uint32, c_void_p
from typing import List, Optional, Tuple

from .errors import TenderLibraryError, TenderLibraryNotFound, TenderVersionMismatch

#: The major version of libtender this binding is written for.
EXPECTED_MAJOR = 0
#: While the major version is 0, the minor version names the ABI as well
#: (libtender 0.2 is soname libtender.so.1): it must match too.
EXPECTED_MINOR = 2
#: struct tender_host's version (TENDER_HOST_VERSION).
HOST_VERSION = 1
#: The environment variable naming the library explicitly.
ENV_VAR = "TENDER_LIBRARY"
#: The soname of the library.
SONAME = "libtender.so.1"
#: The copy a wheel carries, beside this file.
BUNDLED = os.path.join(os.path.dirname(os.path.abspath(__file__)), SONAME)

#: The system libraries libtender links, by soname: the Debian/Ubuntu package that provides each.
SYSTEM_LIBRARIES = {
    "libssl.so.3": "libssl3",
    "libcrypto.so.3": "libssl3",
    "libsqlite3.so.0": "libsqlite3-0",
    "libpam.so.0": "libpam0g",
    "libaudit.so.1": "libaudit1",
    "libcap-ng.so.0": "libcap-ng0",
    "libstdc++.so.6": "libstdc++6",
    "libgcc_s.so.1": "libgcc-s1",
}


class MissingSystemLibrary(ImportError):
    """libtender was found, but a system library it links is missing.

    ``.library`` is the missing soname (e.g. ``"libsqlite3.so.0"``),
    ``.package`` the Debian/Ubuntu package that provides it, ``.path`` the
    libtender that could not be loaded.
    """

    def __init__(self, library: str, package: str, path: str, detail: str):
        super().__init__(
            f"libtender ({path}) needs the system library {library}, which is missing or unusable "
            f"({detail}); install it: apt install {package} (libtender needs libssl3, libsqlite3-0 "
            f"and libpam0g)",
            name="libtender",
            path=path,
        )
        self.library = library
        self.package = package


def _missing_dependency(error: str) -> Optional[Tuple[str, str]]:
    """(soname, package) when a loader error names a system library libtender links, else None."""
    for library, package in SYSTEM_LIBRARIES.items():
        if error.startswith(library + ":") or f" {library}:" in error or f"/{library}:" in error:
            return library, package
    return None

_c_result = c_int32  # tender_result
_c_response = c_int32  # tender_response_code
_c_key_format = c_int32  # tender_key_format
_c_handle = c_void_p  # tender_engine *, tender_session *
_c_prompt_kind = c_int32  # tender_prompt_kind

#: tender_conversation_fn: int (*)(void *userdata, tender_prompt_kind kind,
#: const char *message, char *answer, size_t answer_size). ``message`` arrives
#: as bytes (or None), ``answer`` as an address (None for INFO and ERROR),
#: so the answer is written in place and never copied into a Python object.
CONVERSATION_FN = CFUNCTYPE(c_int, c_void_p, _c_prompt_kind, c_char_p, c_void_p, c_size_t)

#: tender_host.lookup: int (*)(void *userdata, const char *what, tender_reply
#: *reply). ``what`` arrives as bytes, ``reply`` as an address, valid during
#: the call only, for tender_reply_set().
LOOKUP_FN = CFUNCTYPE(c_int, c_void_p, c_char_p, c_void_p)

#: tender_host.can_send and tender_host.send: int (*)(void *userdata, const
#: char *payment_json, size_t payment_len, tender_response_code *code_out).
#: ``payment_json`` arrives as an address, read with its length.
SEND_FN = CFUNCTYPE(c_int, c_void_p, c_void_p, c_size_t, POINTER(_c_response))


class TenderHost(ctypes.Structure):
    """struct tender_host: the host's directory and payment callbacks (the
    library copies the struct; the callbacks must outlive the engine)."""

    _fields_ = [
        ("version", c_uint32),  # HOST_VERSION
        ("userdata", c_void_p),
        ("lookup", LOOKUP_FN),
        ("can_send", SEND_FN),  # a NULL SEND_FN(): always ready
        ("send", SEND_FN),
    ]

#: struct tender_intent_host's version (TENDER_INTENT_HOST_VERSION).
INTENT_HOST_VERSION = 1

#: tender_intent_host.handle: int (*)(void *userdata, const char *request_json,
#: size_t request_len, tender_reply *reply); the request arrives as an address
#: read with its length, ``reply`` as an address for tender_reply_set().
HANDLE_FN = CFUNCTYPE(c_int, c_void_p, c_void_p, c_size_t, c_void_p)

#: tender_intent_host.values: int (*)(void *userdata, const char *intent,
#: const char *parameter, tender_reply *reply).
VALUES_FN = CFUNCTYPE(c_int, c_void_p, c_char_p, c_char_p, c_void_p)


class TenderIntentHost(ctypes.Structure):
    """struct tender_intent_host: the callbacks of the host's custom intents
    (the library copies the struct; the callbacks must outlive the engine)."""

    _fields_ = [
        ("version", c_uint32),  # INTENT_HOST_VERSION
        ("userdata", c_void_p),
        ("handle", HANDLE_FN),
        ("values", VALUES_FN),  # a NULL VALUES_FN(): no host value lists
    ]


# name: (restype, argtypes) for every function of tender.h.
_SIGNATURES = {
    # version
    "tender_version_number": (c_uint32, []),
    "tender_version_string": (c_char_p, []),
    # results
    "tender_result_str": (c_char_p, [_c_result]),
    "tender_last_error": (c_char_p, []),
    "tender_string_free": (None, [c_void_p]),
    # response codes
    "tender_response_code_str": (c_char_p, [_c_response]),
    # engine
    "tender_engine_new": (_c_result, [c_char_p, c_size_t, POINTER(_c_handle)]),
    # custom intents (TENDER_1.1)
    "tender_engine_add_intents": (_c_result, [_c_handle, c_char_p, c_size_t]),
    "tender_engine_add_intents_file": (_c_result, [_c_handle, c_char_p, c_size_t]),
    "tender_engine_set_intent_host": (_c_result, [_c_handle, POINTER(TenderIntentHost)]),
    "tender_engine_new_with_host": (
        _c_result,
        [c_char_p, c_size_t, POINTER(TenderHost), POINTER(_c_handle)],
    ),
    "tender_engine_free": (None, [_c_handle]),
    # many homes (TENDER_1.3)
    "tender_engine_cache_new": (_c_result, [c_size_t, POINTER(_c_handle)]),
    "tender_engine_cache_get": (_c_result, [_c_handle, c_char_p, c_size_t, POINTER(_c_handle)]),
    "tender_engine_cache_close_idle": (_c_result, [_c_handle, c_uint32, POINTER(c_size_t)]),
    "tender_engine_cache_count": (c_size_t, [_c_handle]),
    "tender_engine_cache_free": (None, [_c_handle]),
    "tender_engine_import_directory": (_c_result, [_c_handle, c_char_p, c_size_t]),
    "tender_engine_remove_from_directory": (_c_result, [_c_handle, c_char_p, c_size_t]),
    "tender_engine_set_vocabulary": (_c_result, [_c_handle, c_char_p, c_size_t]),
    "tender_engine_set_signed_in": (_c_result, [_c_handle, c_int]),
    # reply: the tender_reply * a lookup callback received
    "tender_reply_set": (_c_result, [c_void_p, c_char_p, c_size_t]),
    "tender_engine_directory": (_c_result, [_c_handle, POINTER(c_void_p), POINTER(c_size_t)]),
    "tender_engine_payments": (_c_result, [_c_handle, POINTER(c_void_p), POINTER(c_size_t)]),
    # idempotency key, status (bytes and lengths), record_out, record_len_out, jws_out, jws_len_out
    "tender_engine_set_payment_status": (
        _c_result,
        [_c_handle, c_char_p, c_size_t, c_char_p, c_size_t, POINTER(c_void_p), POINTER(c_size_t), POINTER(c_void_p),
         POINTER(c_size_t)],
    ),
    # ledger
    "tender_engine_ledger": (_c_result, [_c_handle, POINTER(c_void_p), POINTER(c_size_t)]),
    # checkpoint and trusted_key: NULL (None) for none, else their bytes and length
    "tender_engine_verify": (
        _c_result,
        [_c_handle, c_char_p, c_size_t, c_char_p, c_size_t, POINTER(c_void_p), POINTER(c_size_t)],
    ),
    "tender_engine_checkpoint": (_c_result, [_c_handle, POINTER(c_void_p), POINTER(c_size_t)]),
    "tender_engine_public_key": (
        _c_result,
        [_c_handle, _c_key_format, POINTER(c_void_p), POINTER(c_size_t)],
    ),
    "tender_engine_rotate_key": (_c_result, [_c_handle, POINTER(c_void_p), POINTER(c_size_t)]),
    # authentication
    "tender_engine_audit": (_c_result, [_c_handle, POINTER(c_void_p), POINTER(c_size_t)]),
    # session
    "tender_session_new": (_c_result, [_c_handle, c_char_p, c_size_t, POINTER(_c_handle)]),
    "tender_session_free": (None, [_c_handle]),
    # conversation: a CONVERSATION_FN or None (NULL: removes it); userdata: NULL
    "tender_session_set_conversation": (_c_result, [_c_handle, CONVERSATION_FN, c_void_p]),
    "tender_session_resolve": (_c_result, [_c_handle, POINTER(c_void_p), POINTER(c_size_t)]),
    "tender_session_answer": (_c_result, [_c_handle, c_char_p, c_size_t]),
    "tender_session_agree": (_c_result, [_c_handle, c_int]),
    # the person's replies (TENDER_1.2)
    "tender_session_reply": (_c_result, [_c_handle, c_char_p, c_size_t, POINTER(c_void_p), POINTER(c_size_t)]),
    # code_out, outcome_out, len_out (docs/outcome.md)
    "tender_session_confirm": (
        _c_result,
        [_c_handle, POINTER(_c_response), POINTER(c_void_p), POINTER(c_size_t)],
    ),
    "tender_session_handle": (
        _c_result,
        [_c_handle, POINTER(_c_response), POINTER(c_void_p), POINTER(c_size_t)],
    ),
    # understanding (docs/understanding.md)
    "tender_engine_parse": (
        _c_result,
        [_c_handle, c_char_p, c_size_t, POINTER(c_void_p), POINTER(c_size_t)],
    ),
    "tender_engine_parse_alternatives": (
        _c_result,
        [_c_handle, c_char_p, c_size_t, POINTER(c_void_p), POINTER(c_size_t)],
    ),
    "tender_parse": (_c_result, [c_char_p, c_size_t, POINTER(c_void_p), POINTER(c_size_t)]),
    "tender_engine_add_shortcut": (_c_result, [_c_handle, c_char_p, c_size_t]),
    "tender_engine_remove_shortcut": (_c_result, [_c_handle, c_char_p, c_size_t]),
    "tender_session_new_from_text": (
        _c_result,
        [_c_handle, c_char_p, c_size_t, POINTER(_c_handle)],
    ),
}


def _pkg_config_libdir() -> Tuple[Optional[str], str]:
    """(libdir or None, description of what happened)."""
    exe = shutil.which("pkg-config")
    if exe is None:
        return None, "pkg-config is not installed"
    try:
        proc = subprocess.run(
            [exe, "--variable=libdir", "tender"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.SubprocessError) as exc:
        return None, f"pkg-config failed: {exc}"
    libdir = proc.stdout.decode("utf-8", "replace").strip()
    if proc.returncode != 0 or not libdir:
        return None, "pkg-config does not know the package 'tender'"
    return libdir, ""


def _declare(lib: ctypes.CDLL, path: str) -> None:
    missing = []
    for name, (restype, argtypes) in _SIGNATURES.items():
        try:
            fn = getattr(lib, name)
        except AttributeError:
            missing.append(name)
            continue
        fn.restype = restype
        fn.argtypes = argtypes
    if missing:
        raise TenderLibraryError(f"{path} is not a usable libtender: missing {', '.join(missing)}")


def compatible(number: int) -> bool:
    """Whether a library of version ``number`` (MAJOR * 10000 + MINOR * 100 +
    PATCH) has the ABI this binding is written for."""
    major, minor = number // 10000, number // 100 % 100
    return major == EXPECTED_MAJOR and (EXPECTED_MAJOR != 0 or minor == EXPECTED_MINOR)


def _check_version(lib: ctypes.CDLL, path: str) -> None:
    number = int(lib.tender_version_number())
    if not compatible(number):
        text = lib.tender_version_string()
        shown = text.decode("utf-8", "replace") if text else str(number)
        raise TenderVersionMismatch(
            f"{path} is libtender {shown} (version number {number}), but this binding "
            f"needs version {EXPECTED_MAJOR}.{EXPECTED_MINOR}",
            path=path,
            found=number,
            expected_major=EXPECTED_MAJOR,
        )


def load() -> Tuple[ctypes.CDLL, str]:
    """Find and load libtender; returns ``(library, how it was found)``.

    Raises TenderLibraryNotFound, MissingSystemLibrary, TenderVersionMismatch or TenderLibraryError.
    """
    tried: List[Tuple[str, str]] = []

    def attempt(what: str, name: str) -> Optional[ctypes.CDLL]:
        try:
            return ctypes.CDLL(name)
        except OSError as exc:
            detail = str(exc) or "cannot be loaded"
            missing = _missing_dependency(detail)
            if missing is not None:
                raise MissingSystemLibrary(missing[0], missing[1], name, detail) from None
            tried.append((what, detail))
            return None

    lib = None
    found = ""
    explicit = os.environ.get(ENV_VAR, "")
    if os.path.exists(BUNDLED):
        lib = attempt(f"bundled: {BUNDLED}", BUNDLED)
        found = BUNDLED
    elif explicit:
        what = f"${ENV_VAR}={explicit}"
        if not os.path.exists(explicit):
            tried.append((what, "no such file"))
        else:
            lib = attempt(what, explicit)
            found = explicit
    else:
        tried.append((f"${ENV_VAR}", "not set"))
        libdir, why = _pkg_config_libdir()
        if libdir is None:
            tried.append(("pkg-config --variable=libdir tender", why))
        else:
            candidate = os.path.join(libdir, SONAME)
            what = f"pkg-config: {candidate}"
            if not os.path.exists(candidate):
                tried.append((what, "no such file"))
            else:
                lib = attempt(what, candidate)
                found = candidate
        if lib is None:
            lib = attempt(f"dynamic loader: {SONAME}", SONAME)
            found = SONAME

    if lib is None:
        lines = "\n".join(f"  - {what}: {why}" for what, why in tried)
        hint = (
            f"set {ENV_VAR} to the full path of {SONAME}; or, for a library installed with "
            f"`make install PREFIX=DIR`, let pkg-config find it: PKG_CONFIG_PATH=DIR/lib/pkgconfig"
            if not explicit
            else f"fix or unset {ENV_VAR}"
        )
        raise TenderLibraryNotFound(
            f"cannot load libtender (the Tender C library); tried:\n{lines}\n({hint})",
            tried,
        )
    _declare(lib, found)
    _check_version(lib, found)
    return lib, found
