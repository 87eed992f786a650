# SPDX-License-Identifier: Apache-2.0
"""The result codes exist once, in scripts/errors.py's table: the header's
enum, the library's names (Swift), the Python classes and their builtin
bases must all say the same (issue 19)."""

import importlib.util
import os
import re
import subprocess
import sys

import pytest

import libtender as tender

from conftest import NO_AUTH

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(REPO, "scripts", "errors.py")


def _table():
    spec = importlib.util.spec_from_file_location("tender_error_table", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.TABLE


def _header_codes():
    with open(os.path.join(REPO, "include", "tender.h"), encoding="utf-8") as f:
        text = f.read()
    enum = text[text.index("enum tender_result_code {"):]
    enum = enum[:enum.index("};")]
    return {name: int(number) for name, number in re.findall(r"\b(TENDER_(?:E_\w+|OK)) = (\d+)", enum)}


def test_the_derived_files_are_what_the_table_gives():
    proc = subprocess.run([sys.executable, SCRIPT, "--check"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def test_header_library_and_python_agree_with_the_table():
    table = _table()
    header = _header_codes()
    assert header == {"TENDER_OK": 0, **{f"TENDER_E_{c.name}": c.number for c in table}}
    for name, number in header.items():
        assert tender.result_name(number) == name  # the library's (Swift) names
        assert tender.ResultCode[name.replace("TENDER_E_", "").replace("TENDER_", "")] == number
    builtins = {"ValueError": ValueError, "LookupError": LookupError, "OSError": OSError}
    for code in table:
        cls = tender.error_class(code.number)
        assert cls.__name__ == code.python and cls.code_value == code.number
        assert getattr(tender, code.python) is cls and code.python in tender.__all__
        assert issubclass(cls, tender.TenderError)
        for base_name, base in builtins.items():
            assert issubclass(cls, base) == (code.builtin == base_name), (cls, base_name)
    # numbers the table does not have
    for number in (1, 99, 109, 299, 601, 999, 12345):
        assert number in header.values() or tender.result_name(number) == "TENDER_E_UNKNOWN_CODE"
        assert number in header.values() or tender.error_class(number) is tender.TenderError


def test_raised_errors_are_caught_as_their_builtins(tmp_path):
    with tender.Engine(tmp_path / "home", authentication=NO_AUTH) as engine:
        with pytest.raises(ValueError) as bad_json:
            engine.import_directory(b"{not json")
        assert isinstance(bad_json.value, tender.InvalidJSONError)
        with pytest.raises(LookupError) as missing:
            engine.remove_shortcut("no such phrase")
        assert isinstance(missing.value, tender.NotFoundError)
        assert missing.value.code == 303 and missing.value.args[0] == 303
    (tmp_path / "open").mkdir(mode=0o777)
    os.chmod(tmp_path / "open", 0o777)  # writable by others: refused
    with pytest.raises(OSError) as home:
        tender.Engine(tmp_path / "open", authentication=NO_AUTH)
    assert isinstance(home.value, tender.HomeError)
    assert home.value.errno is None and "TENDER_E_HOME" in str(home.value)
