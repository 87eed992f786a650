# SPDX-License-Identifier: Apache-2.0
"""Tests of the Python binding and, through it, of libtender's send-payment
dialog (docs/json.md, include/tender.h).

Run from the repository root:

    TENDER_LIBRARY=$PWD/build/lib/libtender.so.1 python3 -m pytest -q Tests/python
"""

import gc
import json
import os
import shutil
import subprocess
import sys
import threading

import pytest

import libtender as tender
from conftest import NO_AUTH
from libtender import ResponseCode

# ------------------------------------------------------------------ helpers


def send(payee=None, amount=None, currency="USD", **extra):
    """A send_payment intent document."""
    doc = {"intent": "send_payment"}
    if payee is not None:
        doc["payee"] = payee
    if amount is not None:
        doc["currencyAmount"] = {"amount": amount, "currency": currency}
    doc.update(extra)
    return doc


def param(resolution, name):
    """The entry of one parameter in a resolution."""
    found = [p for p in resolution["parameters"] if p["parameter"] == name]
    assert len(found) == 1, resolution
    return found[0]


def option_ids(entry):
    return sorted(o["id"] for o in entry["options"])


def option_labels(entry):
    return sorted(o["label"] for o in entry["options"])


def account(engine, account_id="checking"):
    for acc in engine.directory()["accounts"]:
        if acc["id"] == account_id:
            return acc
    raise AssertionError(f"no account {account_id!r} in the directory")


def balance(engine, account_id="checking"):
    return account(engine, account_id)["balance"]


def usd(amount):
    return {"amount": amount, "currency": "USD"}


def resolve_complete(session):
    """Resolve and require a complete resolution (every parameter success or
    notRequired)."""
    resolution = session.resolve()
    assert resolution["complete"] is True, resolution
    for entry in resolution["parameters"]:
        assert entry["result"] in ("success", "notRequired"), resolution
    return resolution


def play_john_baily_mobile(session):
    """The dialog of "send ... to John": choose John Baily, then his mobile."""
    resolution = session.resolve()
    assert resolution["intent"] == "send_payment"
    assert resolution["complete"] is False
    payee = param(resolution, "payee")
    assert payee["result"] == "disambiguation", resolution
    assert payee["prompt"] == "person"
    assert option_ids(payee) == ["john-appleseed", "john-baily"]
    assert sorted(o["label"] for o in payee["options"]) == ["John Appleseed", "John Baily"]

    session.choose("payee", "john-baily")

    resolution = session.resolve()
    assert resolution["complete"] is False
    payee = param(resolution, "payee")
    assert payee["result"] == "disambiguation", resolution
    assert payee["prompt"] == "handle"
    assert option_labels(payee) == ["home", "mobile", "work"]
    mobile = [o["id"] for o in payee["options"] if o["label"] == "mobile"]
    assert mobile == ["john-baily-mobile"]

    session.choose("payee", mobile[0])

    resolution = resolve_complete(session)
    payee = param(resolution, "payee")
    assert payee["result"] == "success"
    assert payee["value"]["id"] == "john-baily"
    assert payee["value"]["displayName"] == "John Baily"
    assert payee["value"]["handle"]["id"] == "john-baily-mobile"
    assert payee["value"]["handle"]["label"] == "mobile"
    assert payee["value"]["handle"]["type"] == "phone"
    assert payee["value"]["handle"]["value"] == "+1 408 555 0102"
    return resolution


# ------------------------------------------------------------ library, version


def test_version():
    number = tender.version_number()
    assert number // 10000 == tender.EXPECTED_MAJOR == 0
    assert tender.version() == f"{number // 10000}.{number // 100 % 100}.{number % 100}"


def test_result_and_response_names():
    assert tender.result_name(0) == "TENDER_OK"
    assert tender.result_name(102) == "TENDER_E_INVALID_JSON"
    assert tender.result_name(12345) == "TENDER_E_UNKNOWN_CODE"
    assert ResponseCode.READY.sirikit_name == "ready"
    assert ResponseCode.SUCCESS.sirikit_name == "success"
    assert ResponseCode.FAILURE_INSUFFICIENT_FUNDS.sirikit_name == "failureInsufficientFunds"
    assert ResponseCode.FAILURE_NO_BANK_ACCOUNT.sirikit_name == "failureNoBankAccount"
    assert tender.response_code_name(999) == "unknown"
    for code in ResponseCode:
        assert code.sirikit_name != "unknown", code
    # every error class is named after its code by the library
    for code in tender.ResultCode:
        if code:
            cls = tender.errors.error_class(code)
            assert cls is not tender.TenderError
            assert tender.result_name(code) == "TENDER_E_" + code.name
    assert ResponseCode(77).name == "UNKNOWN_77"


def _run_python(code, env_changes, unset=()):
    env = dict(os.environ)
    for key in unset:
        env.pop(key, None)
    env.update(env_changes)
    # the same binding as the one under test (installed or from the checkout)
    env["PYTHONPATH"] = os.path.dirname(os.path.dirname(os.path.abspath(tender.__file__)))
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, timeout=60)


def test_library_not_found_is_a_clear_error(tmp_path):
    missing = str(tmp_path / "nowhere" / "libtender.so.1")
    proc = _run_python("import libtender", {"TENDER_LIBRARY": missing})
    assert proc.returncode != 0
    assert "TenderLibraryNotFound" in proc.stderr
    assert missing in proc.stderr
    proc = _run_python(
        "import sys\n"
        "try:\n    import libtender\n"
        "except OSError as e:\n    print(type(e).__name__, e.tried); sys.exit(0)\n"
        "sys.exit(1)\n",
        {"TENDER_LIBRARY": missing})
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("TenderLibraryNotFound")


def test_library_not_found_names_pkg_config_path_for_a_prefix(tmp_path):
    """After `make install PREFIX=DIR` (a user prefix) the error says what finds the library (issue 33.5)."""
    proc = _run_python("import libtender", {"PKG_CONFIG_PATH": str(tmp_path)}, unset=("TENDER_LIBRARY", "LD_LIBRARY_PATH"))
    if proc.returncode == 0:
        pytest.skip("a libtender is installed on this machine (pkg-config or the loader finds it)")
    assert "TenderLibraryNotFound" in proc.stderr, proc.stderr
    assert "PKG_CONFIG_PATH=DIR/lib/pkgconfig" in proc.stderr and "make install PREFIX=DIR" in proc.stderr, proc.stderr


def test_version_mismatch_is_refused():
    class FutureLibrary:
        def tender_version_number(self):
            return 10203

        def tender_version_string(self):
            return b"1.2.3"

    with pytest.raises(tender.TenderVersionMismatch) as info:
        tender._lib._check_version(FutureLibrary(), "/x/libtender.so.1")
    assert info.value.found == 10203
    assert "1.2.3" in str(info.value)
    assert isinstance(info.value, OSError)


def _loaded_file():
    path = tender.library_path
    return path if os.path.isabs(path) and os.path.exists(path) else None


@pytest.mark.skipif(shutil.which("pkg-config") is None, reason="pkg-config not installed")
def test_library_found_through_pkg_config(tmp_path):
    loaded = _loaded_file()
    if loaded is None:
        pytest.skip("the library under test was not loaded from a path")
    libdir = os.path.dirname(loaded)
    if not os.path.exists(os.path.join(libdir, "libtender.so.1")):
        pytest.skip(f"no libtender.so.1 next to {loaded}")
    pcdir = tmp_path / "pkgconfig"
    pcdir.mkdir()
    (pcdir / "tender.pc").write_text(
        f"prefix={tmp_path}\nlibdir={libdir}\n\n"
        "Name: tender\nDescription: test\nVersion: 0.2.0\nLibs: -L${libdir} -ltender\n")
    proc = _run_python("import libtender as tender; print(tender.library_path)",
                       {"PKG_CONFIG_PATH": str(pcdir)}, unset=["TENDER_LIBRARY"])
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == os.path.join(libdir, "libtender.so.1")


def test_library_found_through_soname(tmp_path):
    loaded = _loaded_file()
    if loaded is None:
        pytest.skip("the library under test was not loaded from a path")
    proc = _run_python(
        "import libtender as tender; print(tender.library_path)",
        {"LD_LIBRARY_PATH": os.path.dirname(loaded),
         "PKG_CONFIG_PATH": str(tmp_path), "PKG_CONFIG_LIBDIR": str(tmp_path)},
        unset=["TENDER_LIBRARY"])
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "libtender.so.1"


# ------------------------------------------------------------ the whole dialog


def test_send_50_to_john_whole_dialog(engine):
    key = "test-send-50-to-john"
    intent = send({"name": "John"}, "50", idempotencyKey=key)
    with engine.session(intent) as session:
        resolution = play_john_baily_mobile(session)
        amount = param(resolution, "currencyAmount")
        assert amount["result"] == "success"
        assert amount["value"] == usd("50.00")
        assert param(resolution, "note")["result"] == "notRequired"

        code, response = session.confirm()
        assert code is ResponseCode.READY
        assert response["code"] == "ready"
        assert response["account"]["id"] == "checking"
        assert response["account"]["nickname"] == "Checking"
        assert response["intent"]["currencyAmount"] == usd("50.00")
        assert response["intent"]["payee"]["id"] == "john-baily"
        assert balance(engine) == usd("1000.00")  # confirm pays nothing

        code, record = session.handle()
        assert code is ResponseCode.SUCCESS
        assert record["status"] == "completed"
        assert record["intent"] == "send_payment"
        assert record["currencyAmount"] == usd("50.00")
        assert record["payee"]["id"] == "john-baily"
        assert record["payee"]["handle"]["label"] == "mobile"
        assert record["payee"]["handle"]["id"] == "john-baily-mobile"
        assert record["account"]["id"] == "checking"
        assert record["idempotencyKey"] == key
        assert "note" not in record
        assert record["id"] and record["createdAt"]
        assert balance(engine) == usd("950.00")

        # handling again returns the same record and pays nothing
        code, again = session.handle()
        assert code is ResponseCode.SUCCESS
        assert again == record
        assert balance(engine) == usd("950.00")

    assert engine.payments() == [record]

    # a new session, same key, same parameters: the same record, nothing paid
    with engine.session(intent) as retry:
        play_john_baily_mobile(retry)
        code, _ = retry.confirm()
        assert code is ResponseCode.READY
        code, same = retry.handle()
        assert code is ResponseCode.SUCCESS
        assert same == record
    assert balance(engine) == usd("950.00")

    # the same key with other parameters is a conflict
    with engine.session(send({"name": "John"}, "60", idempotencyKey=key)) as other:
        play_john_baily_mobile(other)
        code, _ = other.confirm()
        assert code is ResponseCode.READY
        with pytest.raises(tender.IdempotencyConflictError) as info:
            other.handle()
        assert info.value.code == 203
        assert info.value.name == "TENDER_E_IDEMPOTENCY_CONFLICT"
    assert balance(engine) == usd("950.00")
    assert engine.payments() == [record]


def test_same_key_from_another_engine_on_the_same_home(home, engine):
    intent = send({"id": "tim-cook"}, "25", idempotencyKey="shared-key", note="Lunch")
    with engine.session(intent) as session:
        resolve_complete(session)
        assert session.confirm()[0] is ResponseCode.READY
        code, record = session.handle()
        assert code is ResponseCode.SUCCESS
        assert record["note"] == "Lunch"
    with tender.Engine(home, authentication=NO_AUTH) as second:
        with second.session(intent) as session:
            resolve_complete(session)
            assert session.confirm()[0] is ResponseCode.READY
            code, same = session.handle()
            assert code is ResponseCode.SUCCESS
            assert same == record
        assert second.payments() == [record]
    assert balance(engine) == usd("975.00")


def test_payee_by_id_with_handle(engine):
    with engine.session(send({"id": "john-baily", "handle": "mobile"}, "10")) as session:
        resolution = resolve_complete(session)
        payee = param(resolution, "payee")
        assert payee["value"]["id"] == "john-baily"
        assert payee["value"]["handle"]["label"] == "mobile"


def test_payee_by_id_without_handle_asks_for_the_handle(engine):
    with engine.session(send({"id": "john-baily"}, "10")) as session:
        payee = param(session.resolve(), "payee")
        assert payee["result"] == "disambiguation"
        assert payee["prompt"] == "handle"
        assert option_labels(payee) == ["home", "mobile", "work"]


def test_missing_amount_needs_value(engine):
    with engine.session(send({"id": "tim-cook"})) as session:
        resolution = session.resolve()
        assert resolution["complete"] is False
        assert param(resolution, "payee")["result"] == "success"
        assert param(resolution, "currencyAmount")["result"] == "needsValue"

        session.supply("currencyAmount", {"amount": "20", "currency": "USD"})

        resolution = resolve_complete(session)
        assert param(resolution, "currencyAmount")["value"] == usd("20.00")
        assert session.confirm()[0] is ResponseCode.READY


def test_missing_payee_needs_value(engine):
    with engine.session(send(amount="20")) as session:
        resolution = session.resolve()
        assert resolution["complete"] is False
        assert param(resolution, "payee")["result"] == "needsValue"
        session.supply("payee", {"id": "tim-cook"})
        resolution = resolve_complete(session)
        assert param(resolution, "payee")["value"]["id"] == "tim-cook"
        assert param(resolution, "payee")["value"]["handle"]["type"] == "email"


def test_unknown_payee_is_unsupported(engine):
    with engine.session(send({"name": "Nobody Known"}, "20")) as session:
        resolution = session.resolve()
        assert resolution["complete"] is False
        payee = param(resolution, "payee")
        assert payee["result"] == "unsupported"
        assert payee["reason"] == "noMatchingContact"
        with pytest.raises(tender.WrongStateError):
            session.confirm()
        session.supply("payee", {"id": "tim-cook"})
        resolve_complete(session)


@pytest.mark.parametrize("amount, reason", [
    ("0.50", "paymentsAmountBelowMinimum"),
    ("20000", "paymentsAmountAboveMaximum"),
])
def test_amount_outside_the_default_limits_is_unsupported(engine, amount, reason):
    with engine.session(send({"id": "tim-cook"}, amount)) as session:
        resolution = session.resolve()
        assert resolution["complete"] is False
        entry = param(resolution, "currencyAmount")
        assert entry["result"] == "unsupported"
        assert entry["reason"] == reason
        session.supply("currencyAmount", usd("20"))
        assert param(resolve_complete(session), "currencyAmount")["value"] == usd("20.00")


def test_currency_outside_custom_limits_is_unsupported(engine_factory):
    engine = engine_factory(limits={"USD": {"minimum": "1.00", "maximum": "10000.00"}})
    with engine.session(send({"id": "tim-cook"}, "10", currency="CHF")) as session:
        entry = param(session.resolve(), "currencyAmount")
        assert entry["result"] == "unsupported"
        assert entry["reason"] == "paymentsCurrencyUnsupported"


def test_custom_limits_apply(engine_factory):
    engine = engine_factory(limits={"USD": {"minimum": "5.00", "maximum": "100.00"}})
    with engine.session(send({"id": "tim-cook"}, "150")) as session:
        entry = param(session.resolve(), "currencyAmount")
        assert entry["result"] == "unsupported"
        assert entry["reason"] == "paymentsAmountAboveMaximum"
    with engine.session(send({"id": "tim-cook"}, "4.99")) as session:
        entry = param(session.resolve(), "currencyAmount")
        assert entry["reason"] == "paymentsAmountBelowMinimum"


def test_unknown_currency(engine):
    with pytest.raises(tender.UnknownCurrencyError) as info:
        engine.session(send({"id": "tim-cook"}, "10", currency="XYZ"))
    assert info.value.code == 106


@pytest.mark.parametrize("amount", ["-5", "-5.00", "0", "0.00", "1.234", "abc"])
def test_invalid_amount(engine, amount):
    with pytest.raises(tender.InvalidAmountError) as info:
        engine.session(send({"id": "tim-cook"}, amount))
    assert info.value.code == 105


def test_invalid_amount_as_an_answer_leaves_the_session_unchanged(engine):
    with engine.session(send({"id": "tim-cook"})) as session:
        before = session.resolve()
        with pytest.raises(tender.InvalidAmountError):
            session.supply("currencyAmount", usd("-1"))
        with pytest.raises(tender.UnknownCurrencyError):
            session.supply("currencyAmount", {"amount": "1", "currency": "XYZ"})
        assert session.resolve() == before


def test_900_of_1000_is_paid(engine):
    with engine.session(send({"id": "tim-cook"}, "900")) as session:
        resolve_complete(session)
        code, response = session.confirm()
        assert code is ResponseCode.READY
        assert response["code"] == "ready"
        code, record = session.handle()
        assert code is ResponseCode.SUCCESS
        assert record["currencyAmount"] == usd("900.00")
    assert balance(engine) == usd("100.00")


def test_1500_of_1000_is_insufficient_funds(engine):
    with engine.session(send({"id": "tim-cook"}, "1500")) as session:
        resolve_complete(session)
        code, response = session.confirm()
        assert code is ResponseCode.FAILURE_INSUFFICIENT_FUNDS
        assert response["code"] == "failureInsufficientFunds"
        with pytest.raises(tender.WrongStateError):
            session.handle()
    assert balance(engine) == usd("1000.00")
    assert engine.payments() == []


def test_funds_gone_between_confirm_and_handle(engine):
    first = engine.session(send({"id": "tim-cook"}, "600"))
    second = engine.session(send({"id": "john-appleseed"}, "600"))
    with first, second:
        resolve_complete(first)
        resolve_complete(second)
        assert first.confirm()[0] is ResponseCode.READY
        assert second.confirm()[0] is ResponseCode.READY
        code, record = first.handle()
        assert code is ResponseCode.SUCCESS
        code, none = second.handle()
        assert code is ResponseCode.FAILURE_INSUFFICIENT_FUNDS
        assert none is None
    assert balance(engine) == usd("400.00")
    assert engine.payments() == [record]


def test_no_bank_account_in_the_currency(engine):
    with engine.session(send({"id": "tim-cook"}, "20", currency="EUR")) as session:
        resolution = resolve_complete(session)
        assert param(resolution, "currencyAmount")["value"] == {"amount": "20.00", "currency": "EUR"}
        code, response = session.confirm()
        assert code is ResponseCode.FAILURE_NO_BANK_ACCOUNT
        assert response["code"] == "failureNoBankAccount"
        assert "account" not in response
        with pytest.raises(tender.WrongStateError):
            session.handle()


# ---------------------------------------------------------------- errors


def test_malformed_json(engine):
    for text in ['{"intent": ', "", "not json", '{"intent": "send_payment",}']:
        with pytest.raises(tender.InvalidJSONError) as info:
            engine.session(text)
        err = info.value
        assert isinstance(err, tender.TenderError)
        assert err.code == 102
        assert err.name == "TENDER_E_INVALID_JSON"
        assert err.message, "tender_last_error() should explain the failure"
        assert err.message in str(err)
    with pytest.raises(tender.InvalidJSONError):
        engine.import_directory("{")
    with engine.session(send({"name": "John"}, "50")) as session:
        session.resolve()
        with pytest.raises(tender.InvalidJSONError):
            session.answer('{"parameter": "payee", "choose": ')


def test_invalid_utf8(engine):
    bad = b'{"intent": "send_payment", "note": "caf\xe9"}'
    with pytest.raises(tender.InvalidUTF8Error) as info:
        engine.session(bad)
    assert info.value.code == 101
    with pytest.raises(tender.InvalidUTF8Error):
        engine.import_directory(b'{"contacts": [{"id": "x", "displayName": "\xff\xfe"}]}')
    # a str with a lone surrogate reaches the library as invalid UTF-8
    with pytest.raises(tender.InvalidUTF8Error):
        engine.session('{"intent": "send_payment", "note": "\udcff"}')


def test_utf8_text_is_accepted(engine):
    with engine.session(send({"id": "tim-cook"}, "12", note="Café ☕ 🍰")) as session:
        resolution = resolve_complete(session)
        assert param(resolution, "note")["value"] == "Café ☕ 🍰"
        session.confirm()
        code, record = session.handle()
        assert code is ResponseCode.SUCCESS
        assert record["note"] == "Café ☕ 🍰"


def test_too_large(engine):
    prefix = '{"intent": "send_payment"}'
    exact = prefix + " " * (tender.MAX_INPUT_BYTES - len(prefix))
    assert len(exact.encode()) == tender.MAX_INPUT_BYTES
    engine.session(exact).close()  # exactly the limit is accepted
    with pytest.raises(tender.TooLargeError) as info:
        engine.session(exact + " ")
    assert info.value.code == 103
    big_note = send({"id": "tim-cook"}, "10", note="a" * (tender.MAX_INPUT_BYTES + 1))
    with pytest.raises(tender.TooLargeError):
        engine.session(big_note)
    with pytest.raises(tender.TooLargeError):
        engine.import_directory(" " * tender.MAX_INPUT_BYTES + "{}")
    with engine.session(send({"id": "tim-cook"})) as session:
        session.resolve()
        with pytest.raises(tender.TooLargeError):
            session.supply("currencyAmount", {"amount": "1" + "0" * tender.MAX_INPUT_BYTES,
                                              "currency": "USD"})


def test_unknown_intent(engine):
    with pytest.raises(tender.UnknownIntentError) as info:
        engine.session({"intent": "order_pizza"})
    assert info.value.code == 107
    with pytest.raises(tender.UnknownIntentError):
        engine.session({"intent": "sendPayment"})  # names are exact
    engine.session({"intent": "request_payment"}).close()  # one of the seven


def test_unknown_key(engine):
    with pytest.raises(tender.InvalidArgumentError) as info:
        engine.session(dict(send({"id": "tim-cook"}, "10"), amount="10"))
    assert info.value.code == 104
    assert info.value.message
    with pytest.raises(tender.InvalidArgumentError):
        engine.session(send({"id": "tim-cook", "nickname": "Tim"}, "10"))
    with pytest.raises(tender.InvalidArgumentError):
        engine.session({"payee": {"id": "tim-cook"}})  # no intent
    with engine.session(send({"name": "John"}, "50")) as session:
        session.resolve()
        with pytest.raises(tender.InvalidArgumentError):
            session.answer({"parameter": "payee", "choose": "john-baily", "extra": 1})


def test_bad_idempotency_keys(engine):
    for key in ["", "x" * 129, "tab\tkey", "clé"]:
        with pytest.raises(tender.InvalidArgumentError):
            engine.session(send({"id": "tim-cook"}, "10", idempotencyKey=key))
    engine.session(send({"id": "tim-cook"}, "10", idempotencyKey="k" * 128)).close()


def test_handle_before_confirm(engine):
    with engine.session(send({"id": "tim-cook"}, "10")) as session:
        with pytest.raises(tender.WrongStateError) as info:
            session.handle()
        assert info.value.code == 200
        resolve_complete(session)
        with pytest.raises(tender.WrongStateError):
            session.handle()
        assert session.confirm()[0] is ResponseCode.READY
        assert session.handle()[0] is ResponseCode.SUCCESS


def test_confirm_before_complete(engine):
    with engine.session(send({"name": "John"}, "50")) as session:
        assert session.resolve()["complete"] is False
        with pytest.raises(tender.WrongStateError):
            session.confirm()


def test_errors_leave_the_session_unchanged(engine):
    with engine.session(send({"name": "John"}, "50")) as session:
        before = session.resolve()
        assert param(before, "payee")["result"] == "disambiguation"

        # not asked: the amount is resolved, the payee is no confirmation
        with pytest.raises(tender.NotAskedError) as info:
            session.supply("currencyAmount", usd("20"))
        assert info.value.code == 201
        with pytest.raises(tender.NotAskedError):
            session.confirm_value("payee", True)
        with pytest.raises(tender.NotAskedError):
            session.supply("note", "hello")
        # not offered
        with pytest.raises(tender.UnknownOptionError) as info:
            session.choose("payee", "tim-cook")
        assert info.value.code == 202
        with pytest.raises(tender.UnknownOptionError):
            session.choose("payee", "john-baily-mobile")
        # malformed
        with pytest.raises(tender.InvalidJSONError):
            session.answer("{")
        with pytest.raises(tender.InvalidUTF8Error):
            session.answer(b'{"parameter": "payee", "choose": "\xc3"}')
        with pytest.raises(tender.WrongStateError):
            session.handle()
        with pytest.raises(tender.WrongStateError):
            session.confirm()

        assert session.resolve() == before
        # and the dialog goes on
        session.choose("payee", "john-baily")
        assert param(session.resolve(), "payee")["prompt"] == "handle"
        with pytest.raises(tender.UnknownOptionError):
            session.choose("payee", "john-appleseed")
        session.choose("payee", "john-baily-work")
        resolution = resolve_complete(session)
        assert param(resolution, "payee")["value"]["handle"]["label"] == "work"


def test_after_handle_the_dialog_is_over(engine):
    with engine.session(send({"id": "tim-cook"}, "10")) as session:
        resolve_complete(session)
        session.confirm()
        code, record = session.handle()
        assert code is ResponseCode.SUCCESS
        with pytest.raises(tender.WrongStateError):
            session.resolve()
        with pytest.raises(tender.WrongStateError):
            session.supply("currencyAmount", usd("20"))
        with pytest.raises(tender.WrongStateError):
            session.confirm()
        assert session.handle() == (ResponseCode.SUCCESS, record)
    assert balance(engine) == usd("990.00")


def test_confirmation_false_answer_is_not_asked_without_confirmation(engine):
    with engine.session(send({"id": "tim-cook"}, "10")) as session:
        resolve_complete(session)
        with pytest.raises(tender.NotAskedError):
            session.confirm_value("payee", False)
        resolve_complete(session)


# ---------------------------------------------------------------- engine


def test_engine_creates_its_home(home, directory_doc):
    assert not home.exists()
    with tender.Engine(home, authentication=NO_AUTH) as engine:
        assert home.is_dir()
        assert (home.stat().st_mode & 0o777) == 0o700
        assert (home / "tender.sqlite3").exists()
        assert engine.directory().get("contacts", []) == []
        engine.import_directory(directory_doc)
        assert sorted(c["id"] for c in engine.directory()["contacts"]) == [
            "john-appleseed", "john-baily", "tim-cook"]
    # the store persists
    with tender.Engine(str(home), authentication=NO_AUTH) as engine:
        assert balance(engine) == usd("1000.00")
        assert account(engine)["nickname"] == "Checking"
        assert account(engine)["default"] is True


def test_engine_config_errors(tmp_path):
    with pytest.raises(tender.InvalidArgumentError):
        tender.Engine(tmp_path / "home", bogus=1, authentication=NO_AUTH)
    a_file = tmp_path / "a-file"
    a_file.write_text("not a directory")
    with pytest.raises(tender.HomeError) as info:
        tender.Engine(a_file, authentication=NO_AUTH)
    assert info.value.code == 302
    with pytest.raises(TypeError):
        tender.Engine(42, authentication=NO_AUTH)


def test_import_is_one_transaction(engine, directory_doc):
    before = engine.directory()
    bad = {
        "contacts": [{"id": "new-person", "displayName": "New Person"}],
        "accounts": [{"id": "savings", "type": "savings",
                      "balance": {"amount": "abc", "currency": "USD"}}],
    }
    with pytest.raises(tender.InvalidAmountError):
        engine.import_directory(bad)
    assert engine.directory() == before
    with pytest.raises(tender.InvalidArgumentError):
        engine.import_directory({"contacts": [{"id": "x"}]})  # no displayName
    assert engine.directory() == before


def test_import_replaces_by_id(engine):
    engine.import_directory({"contacts": [], "accounts": [
        {"id": "checking", "nickname": "Main", "type": "checking",
         "balance": {"amount": "5", "currency": "USD"}, "default": True}]})
    assert account(engine)["nickname"] == "Main"
    assert balance(engine) == usd("5.00")
    with engine.session(send({"id": "tim-cook"}, "10")) as session:
        resolve_complete(session)
        assert session.confirm()[0] is ResponseCode.FAILURE_INSUFFICIENT_FUNDS


def test_closed_engine(home, directory_doc):
    engine = tender.Engine(home, authentication=NO_AUTH)
    engine.import_directory(directory_doc)
    session = engine.session(send({"id": "tim-cook"}, "10"))
    engine.close()
    engine.close()  # idempotent
    assert engine.closed
    for call in (engine.directory, engine.payments,
                 lambda: engine.import_directory(directory_doc),
                 lambda: engine.session(send({"id": "tim-cook"}, "10"))):
        with pytest.raises(tender.ClosedError):
            call()
    # the open session keeps the engine alive
    resolve_complete(session)
    assert session.confirm()[0] is ResponseCode.READY
    assert session.handle()[0] is ResponseCode.SUCCESS
    session.close()
    with tender.Engine(home, authentication=NO_AUTH) as again:
        assert balance(again) == usd("990.00")
    with pytest.raises(tender.ClosedError):
        with tender.Engine(home, authentication=NO_AUTH) as scoped:
            pass
        scoped.directory()


def test_closed_session(engine):
    session = engine.session(send({"id": "tim-cook"}, "10"))
    session.close()
    session.close()  # idempotent
    assert session.closed
    for call in (session.resolve, session.confirm, session.handle,
                 lambda: session.answer({"parameter": "payee", "confirm": True}),
                 lambda: session.choose("payee", "x"),
                 lambda: session.confirm_value("payee", True),
                 lambda: session.supply("payee", {"id": "tim-cook"})):
        with pytest.raises(tender.ClosedError):
            call()
    with engine.session(send({"id": "tim-cook"}, "10")) as scoped:
        pass
    with pytest.raises(tender.ClosedError):
        scoped.resolve()


def test_sessions_outlive_a_dropped_engine(home, directory_doc):
    engine = tender.Engine(home, authentication=NO_AUTH)
    engine.import_directory(directory_doc)
    session = tender.Session(engine, send({"id": "tim-cook"}, "10"))
    del engine
    gc.collect()
    resolve_complete(session)
    assert session.confirm()[0] is ResponseCode.READY
    assert session.handle()[0] is ResponseCode.SUCCESS
    del session
    gc.collect()


def test_input_types(engine):
    from decimal import Decimal
    with pytest.raises(TypeError):
        engine.session(42)
    text = json.dumps(send({"id": "tim-cook"}, "10"))
    engine.session(text).close()
    engine.session(text.encode()).close()
    engine.session(bytearray(text.encode())).close()
    with engine.session(send({"id": "tim-cook"}, Decimal("10.5"))) as session:
        amount = param(resolve_complete(session), "currencyAmount")
        assert amount["value"] == usd("10.50")


def test_shared_engine_across_threads(engine):
    errors = []
    records = []
    lock = threading.Lock()

    def worker(n):
        try:
            for i in range(5):
                with engine.session(send({"id": "tim-cook"}, "10", note=f"{n}-{i}")) as s:
                    resolve_complete(s)
                    assert s.confirm()[0] is ResponseCode.READY
                    code, record = s.handle()
                    assert code is ResponseCode.SUCCESS
                    with lock:
                        records.append(record)
                # errors and their messages are per thread
                try:
                    engine.session('{"intent": ')
                except tender.InvalidJSONError as exc:
                    assert exc.message
                else:
                    raise AssertionError("malformed JSON accepted")
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert len(records) == 20
    assert len({r["id"] for r in records}) == 20
    assert balance(engine) == usd("800.00")
    payments = engine.payments()
    assert len(payments) == 20
    assert [p["sequence"] for p in payments] == sorted(p["sequence"] for p in payments)


def test_close_while_other_threads_use_the_engine(home, directory_doc):
    engine = tender.Engine(home, authentication=NO_AUTH)
    engine.import_directory(directory_doc)
    outcomes = []
    started = threading.Barrier(5)

    def worker():
        started.wait()
        closed = 0
        for _ in range(200):
            try:
                engine.directory()
                engine.session(send({"id": "tim-cook"}, "10")).close()
            except tender.ClosedError:
                closed += 1
        outcomes.append(closed)

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    started.wait()
    engine.close()
    for t in threads:
        t.join()
    assert len(outcomes) == 4  # no thread died of anything but ClosedError
    with pytest.raises(tender.ClosedError):
        engine.directory()


def test_confirm_before_any_resolve_resolves_implicitly(engine):
    """Issue 20.4, decided: confirm resolves implicitly. It answers ready only when nothing needs asking;
    an open question is TENDER_E_WRONG_STATE naming it, and nothing is chosen for the person."""
    with engine.session({"intent": "send_payment", "payee": {"id": "tim-cook"},
                         "currencyAmount": {"amount": "5.00", "currency": "USD"}}) as session:
        code, _ = session.confirm()
        assert code == tender.ResponseCode.READY
    with engine.session({"intent": "send_payment", "payee": {"name": "John"},
                         "currencyAmount": {"amount": "5.00", "currency": "USD"}}) as session:
        with pytest.raises(tender.WrongStateError, match="payee is not resolved"):
            session.confirm()
        resolution = session.resolve()
        assert not resolution["complete"]
        [payee] = [p for p in resolution["parameters"] if p["parameter"] == "payee"]
        assert payee["result"] == "disambiguation"
    assert engine.payments() == []


@pytest.mark.parametrize("amount", ["00000000000000000000000000000000000050", "050", "00.50"])
def test_leading_zeros_are_refused(engine, amount):
    with pytest.raises(tender.InvalidAmountError, match="leading zeros"):
        engine.session({"intent": "send_payment", "payee": {"id": "tim-cook"},
                        "currencyAmount": {"amount": amount, "currency": "USD"}})
