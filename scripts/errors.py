#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The one table of Tender's result codes, and what is derived from it.

Every result code is one row below. From the table this script writes:

- the ``tender_result_code`` enum of include/tender.h (between its
  ``error table`` markers),
- Sources/Tender/Boundary/ResultCode+Table.swift: the Swift error to C code
  mapping and the names tender_result_str() returns,
- the ``ResultCode`` enum and the exception classes of python/libtender/errors.py
  (between its markers), each deriving from the matching builtin,

and it checks that ``TenderError`` (Sources/TenderCore/Errors/TenderError.swift)
has exactly one case per row.

    python3 scripts/errors.py --write   regenerate after editing the table
    python3 scripts/errors.py --check   fail when a derived file disagrees (make test)
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import List, NamedTuple, Optional

ROOT = Path(__file__).resolve().parent.parent


class Code(NamedTuple):
    number: int
    name: str  # after TENDER_E_
    swift: str  # the TenderError case
    python: str  # the exception class
    builtin: Optional[str]  # the builtin exception it also derives from
    brief: str  # the header's comment
    doc: str  # the Python docstring after the brief ("" for none)


#: (first code, comment) of each range, in order.
RANGES = [
    (100, "100-199: the caller's arguments"),
    (200, "200-299: the dialog"),
    (300, "300-399: the store"),
    (400, "400-499: cryptography and the ledger"),
    (500, "500-599: authentication"),
    (600, "600-699: the host"),
    (900, "900-999: the library itself"),
]

TABLE: List[Code] = [
    Code(100, "NULL_ARGUMENT", "nullArgument", "NullArgumentError", "ValueError",
         "a required pointer or handle was NULL", ""),
    Code(101, "INVALID_UTF8", "invalidUTF8", "InvalidUTF8Error", "ValueError",
         "text was not valid UTF-8", ""),
    Code(102, "INVALID_JSON", "invalidJSON", "InvalidJSONError", "ValueError",
         "text was not well-formed JSON", ""),
    Code(103, "TOO_LARGE", "tooLarge", "TooLargeError", "ValueError",
         "input larger than TENDER_MAX_INPUT_BYTES", "The limit is 1 MiB."),
    Code(104, "INVALID_ARGUMENT", "invalidArgument", "InvalidArgumentError", "ValueError",
         "well-formed JSON that breaks the schema", "For example an unknown key."),
    Code(105, "INVALID_AMOUNT", "invalidAmount", "InvalidAmountError", "ValueError",
         "negative, zero, malformed or absurd amount", ""),
    Code(106, "UNKNOWN_CURRENCY", "unknownCurrency", "UnknownCurrencyError", "ValueError",
         "not an ISO 4217 currency code", ""),
    Code(107, "UNKNOWN_INTENT", "unknownIntent", "UnknownIntentError", "ValueError",
         "an intent type Tender does not know", ""),
    Code(108, "OUT_OF_SCOPE", "outOfScope", "OutOfScopeError", "ValueError",
         "the text is not a request Tender handles; no dialog started",
         "Weather, music, a card or PIN, a message without an amount, ... Raised by\n"
         ":meth:`~tender.Engine.session_from_text`; :meth:`~tender.Engine.parse`\n"
         "answers such a text with ``\"intent\": \"out_of_scope\"`` instead of\n"
         "raising. See docs/understanding.md."),
    Code(200, "WRONG_STATE", "wrongState", "WrongStateError", None,
         "call out of order (e.g. handle before confirm)",
         "Also: changing the directory of an engine with a host (the host owns it)."),
    Code(201, "NOT_ASKED", "notAsked", "NotAskedError", None,
         "an answer for a question that was not asked", ""),
    Code(202, "UNKNOWN_OPTION", "unknownOption", "UnknownOptionError", "ValueError",
         "a chosen option that was not offered", ""),
    Code(203, "IDEMPOTENCY_CONFLICT", "idempotencyConflict", "IdempotencyConflictError", None,
         "key already used with other parameters", ""),
    Code(204, "DIALOG_ENDED", "dialogEnded", "DialogEndedError", None,
         "a parameter stayed unresolved after the configured prompts, or the person said no",
         "The limit is the engine's ``\"dialog\": {\"maxPrompts\": N}`` (5 by default).\n"
         "The dialog is over: every later call on the session (resolve, answer,\n"
         "confirm, handle) raises this error again; start a new session."),
    Code(205, "NOT_AGREED", "notAgreed", "NotAgreedError", None,
         "handle would move money before the person said yes (tender_session_agree)",
         "Nothing was paid; ask the person the confirmation question and record the\n"
         "answer (:meth:`tender.Session.agree`), then handle."),
    Code(300, "STORE", "store", "StoreError", "OSError",
         "the SQLite store failed", ""),
    Code(301, "STORE_BUSY", "storeBusy", "StoreBusyError", "OSError",
         "the store stayed locked by another process", ""),
    Code(302, "HOME", "home", "HomeError", "OSError",
         "the home directory cannot be used", ""),
    Code(303, "NOT_FOUND", "notFound", "NotFoundError", "LookupError",
         "a referenced item does not exist",
         "An id to remove from the directory (nothing is removed then), a bill's\n"
         "payee on import, the engine's ``vocabularyFile``, or a shortcut phrase\n"
         "given to :meth:`~tender.Engine.remove_shortcut`."),
    Code(400, "CRYPTO", "crypto", "CryptoError", None,
         "OpenSSL failed", "Signing, hashing or key handling."),
    Code(401, "KEY_FILE", "keyFile", "KeyFileError", "OSError",
         "the signing key file is missing, unreadable or unsafe",
         "The key is ``HOME/keys/<kid>.pem``; one readable by group or others is\n"
         "refused, and the message says to run ``chmod 600`` on it."),
    Code(402, "LEDGER_TAMPERED", "ledgerTampered", "LedgerTamperedError", None,
         "verification failed; the message names the first bad record",
         "The message names the first bad record (``\"record 3: ...\"``) or the\n"
         "checkpoint (truncation, rewritten history)."),
    Code(500, "AUTH_SERVICE", "authService", "AuthServiceError", None,
         "the PAM service has no file, or the process user is unknown",
         "The engine's authentication policy can ask for re-authentication, but the\n"
         "PAM service (``\"tender\"`` unless the configuration names another) has no\n"
         "file in the PAM configuration directory (``pamConfigDirectory``; else\n"
         "``$PAM_WRAPPER_SERVICE_DIR`` when ``PAM_WRAPPER=1``; else ``/etc/pam.d``),\n"
         "where Linux-PAM would silently fall back to ``\"other\"``; or the user the\n"
         "process runs as is unknown, or its real and effective uids differ.\n"
         "Raised by :class:`~tender.Engine`; the message names the service and the\n"
         "directory. Install the service file, name another service, or configure\n"
         "``authentication={\"restrictedIntents\": []}`` to ask nothing."),
    Code(600, "CALLBACK", "callback", "CallbackError", None,
         "a host callback failed, answered nothing, or answered something invalid",
         "Only for an engine with a host (``Engine(..., host=...)``): a callback\n"
         "raised, answered something invalid, or returned non-zero; the message says\n"
         "which (``\"the host's send callback failed\"``), and the Python exception a\n"
         "callback raised is the error's ``__cause__``."),
    Code(601, "OUTCOME_UNKNOWN", "outcomeUnknown", "OutcomeUnknownError", None,
         "the host was asked to pay under this idempotency key and its answer was lost",
         "A session asked the host's ``send`` (or a money-moving custom intent's\n"
         "``handle``) under this key and its process ended before Tender recorded the\n"
         "answer. Tender does not ask the host again for the key: look the key up in\n"
         "the host's payment system, then settle it with ``tender status KEY completed``\n"
         "(records the payment) or ``failed`` (nothing moved; the key may be handled\n"
         "again), or :meth:`~tender.Engine.set_payment_status`. See docs/outcome.md."),
    Code(900, "INTERNAL", "internal", "InternalError", None,
         "a defect in Tender; the message says more", ""),
]

HEADER = ROOT / "include" / "tender.h"
SWIFT_TABLE = ROOT / "Sources" / "Tender" / "Boundary" / "ResultCode+Table.swift"
SWIFT_ERROR = ROOT / "Sources" / "TenderCore" / "Errors" / "TenderError.swift"
PYTHON = ROOT / "python" / "libtender" / "errors.py"
BEGIN = "BEGIN error table: generated by scripts/errors.py from its table; edit the table, then run it with --write"
END = "END error table"


def header_enum() -> str:
    lines = [f"    /* {BEGIN} */", "    TENDER_OK = 0,"]
    starts = dict(RANGES)
    for code in TABLE:
        if code.number in starts:
            lines += ["", f"    /* {starts[code.number]} */"]
        comma = "," if code is not TABLE[-1] else ""
        lines.append(f"    TENDER_E_{code.name} = {code.number}{comma} /**< {code.brief} */")
    lines.append(f"    /* {END} */")
    return "\n".join(lines) + "\n"


def swift_table() -> str:
    out = [
        f"// {BEGIN}.",
        "// SPDX-License-Identifier: Apache-2.0",
        "import CTender",
        "import TenderCore",
        "",
        "extension ResultCode {",
        "    /// The C code of `error`.",
        "    static func of(_ error: TenderError) -> tender_result {",
        "        switch error {",
    ]
    out += [f"        case .{c.swift}: return value(TENDER_E_{c.name})" for c in TABLE]
    out += [
        "        }",
        "    }",
        "",
        "    /// The static name of `code`, as tender_result_str() returns it.",
        "    static func name(_ code: tender_result) -> StaticString {",
        "        switch code {",
        '        case value(TENDER_OK): return "TENDER_OK"',
    ]
    out += [f'        case value(TENDER_E_{c.name}): return "TENDER_E_{c.name}"' for c in TABLE]
    out += ['        default: return "TENDER_E_UNKNOWN_CODE"', "        }", "    }", "}", ""]
    return "\n".join(out)


def python_section() -> str:
    out = [f"# {BEGIN}", "", "", "class ResultCode(enum.IntEnum):",
           '    """The ``tender_result_code`` values of ``tender.h`` (``TENDER_OK`` and the',
           '    ``TENDER_E_*`` error codes), without their ``TENDER_``/``TENDER_E_`` prefix."""', "",
           "    OK = 0"]
    out += [f"    {c.name} = {c.number}" for c in TABLE]
    for c in TABLE:
        bases = "TenderError" + (f", {c.builtin}" if c.builtin else "")
        out += ["", "", f"class {c.python}({bases}):"]
        brief = f"TENDER_E_{c.name} ({c.number}): {c.brief}."
        if c.doc:
            body = "\n".join(f"    {line}" if line else "" for line in c.doc.split("\n"))
            out.append(f'    """{brief}\n\n{body}"""')
        else:
            out.append(f'    """{brief}"""')
        out += ["", f"    code_value = ResultCode.{c.name}"]
    out += ["", "", "#: Every exception class, one per result code of the table.",
            "ERROR_CLASSES: Tuple[Type[TenderError], ...] = ("]
    out += [f"    {c.python}," for c in TABLE]
    out += [")", "", "", f"# {END}", ""]
    return "\n".join(out)


def replace_between(text: str, begin: str, end: str, new: str, path: Path) -> str:
    pattern = re.compile(r"[^\n]*" + re.escape(begin) + r".*?" + re.escape(end) + r"[^\n]*\n", re.S)
    if not pattern.search(text):
        raise SystemExit(f"{path}: the error table markers are missing")
    return pattern.sub(lambda _: new, text, count=1)


def derived() -> dict:
    header = HEADER.read_text()
    python = PYTHON.read_text()
    return {
        HEADER: replace_between(header, BEGIN, END, header_enum(), HEADER),
        SWIFT_TABLE: swift_table(),
        PYTHON: replace_between(python, BEGIN, END, python_section(), PYTHON),
    }


def swift_cases() -> List[str]:
    text = SWIFT_ERROR.read_text()
    return re.findall(r"^\s*case `?(\w+)`?\(String\)", text, re.M)


def check_table() -> List[str]:
    problems = []
    numbers = [c.number for c in TABLE]
    if numbers != sorted(set(numbers)):
        problems.append("the table's numbers are not unique and ascending")
    for field in ("name", "swift", "python"):
        values = [getattr(c, field) for c in TABLE]
        if len(values) != len(set(values)):
            problems.append(f"the table's {field} column has duplicates")
    for c in TABLE:
        if not any(start <= c.number < start + 100 for start, _ in RANGES):
            problems.append(f"TENDER_E_{c.name} ({c.number}) is in no range")
        if c.builtin not in (None, "ValueError", "LookupError", "OSError"):
            problems.append(f"{c.python}: unexpected builtin base {c.builtin}")
    cases = swift_cases()
    if sorted(cases) != sorted(c.swift for c in TABLE):
        missing = sorted(set(c.swift for c in TABLE) - set(cases))
        extra = sorted(set(cases) - set(c.swift for c in TABLE))
        problems.append(f"TenderError's cases disagree with the table (missing {missing}, extra {extra})")
    return problems


def main(argv: List[str]) -> int:
    if len(argv) != 2 or argv[1] not in ("--write", "--check"):
        print(__doc__, file=sys.stderr)
        return 2
    problems = check_table()
    for path, text in derived().items():
        current = path.read_text() if path.exists() else ""
        if current == text:
            continue
        if argv[1] == "--write":
            path.write_text(text)
            print(f"wrote {path.relative_to(ROOT)}")
        else:
            problems.append(f"{path.relative_to(ROOT)} is not what the table gives: run scripts/errors.py --write")
    for problem in problems:
        print(f"errors.py: {problem}", file=sys.stderr)
    if not problems and argv[1] == "--check":
        print(f"error table: {len(TABLE)} codes; tender.h, ResultCode+Table.swift, errors.py and TenderError agree")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
