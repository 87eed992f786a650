# SPDX-License-Identifier: Apache-2.0
"""An engine whose directory and payments are the host's (``tender.Engine(...,
host=...)``, ``tender_engine_new_with_host``): the directory comes from the
host's ``lookup``, payments go through its ``can_send`` and ``send``, and
Tender keeps the signed record (docs/intents.md, "Host callbacks").

Run from the repository root:

    TENDER_LIBRARY=$PWD/build/lib/libtender.so.1 python3 -m pytest -q Tests/python/test_host_callbacks.py
"""

import copy
import datetime
import gc
import threading

import pytest

import libtender as tender
from conftest import NO_AUTH
from libtender import ResponseCode

DUE = (datetime.date.today() + datetime.timedelta(days=10)).isoformat()


def usd(amount):
    return {"amount": amount, "currency": "USD"}


HOST_DIRECTORY = {
    "contacts": [
        {"id": "tim-cook", "displayName": "Tim Cook",
         "handles": [{"id": "tim-cook-work", "label": "work", "type": "email",
                      "value": "tim@example.com"}]},
        {"id": "john-baily", "displayName": "John Baily",
         "handles": [
             {"id": "john-baily-home", "label": "home", "type": "phone", "value": "+1 408 555 0111"},
             {"id": "john-baily-mobile", "label": "mobile", "type": "phone",
              "value": "+1 408 555 0112"}]},
    ],
    "accounts": [
        {"id": "checking", "nickname": "Checking", "type": "checking",
         "balance": usd("500.00"), "default": True},
    ],
    "billPayees": [
        {"id": "electric-main", "organizationName": "Electric Company",
         "nickname": "12 Main Street", "accountNumber": "EC-1001"},
    ],
    "bills": [
        {"id": "electric-main-bill", "billPayee": "electric-main", "type": "electricity",
         "status": "unpaid", "amountDue": usd("84.20"), "minimumDue": usd("25.00"),
         "dueDate": DUE},
    ],
}

#: The store's own directory: never read by an engine with a host.
STORE_DIRECTORY = {
    "contacts": [
        {"id": "store-only", "displayName": "Store Only",
         "handles": [{"id": "store-only-phone", "label": "mobile", "type": "phone",
                      "value": "+1 408 555 0199"}]},
    ],
    "accounts": [
        {"id": "checking", "nickname": "Checking", "type": "checking",
         "balance": usd("1000.00"), "default": True},
    ],
}


class DictHost(tender.Host):
    """A host backed by Python dicts that records every call."""

    def __init__(self, directory=None):
        self.directory = copy.deepcopy(HOST_DIRECTORY if directory is None else directory)
        self.lookups = []
        self.checked = []
        self.sent = []
        self.can_send_answer = ResponseCode.READY
        self.send_answer = ResponseCode.SUCCESS
        self.fail = None  # the name of a callback that raises
        self.lock = threading.Lock()

    def _maybe_fail(self, name):
        if self.fail == name:
            raise ValueError(f"the host's {name} broke")

    def lookup(self, what):
        with self.lock:
            self.lookups.append(what)
        self._maybe_fail("lookup")
        return {what: self.directory.get(what, [])}

    def can_send(self, payment):
        with self.lock:
            self.checked.append(payment)
        self._maybe_fail("can_send")
        return self.can_send_answer

    def send(self, payment):
        with self.lock:
            self.sent.append(payment)
        self._maybe_fail("send")
        return self.send_answer


@pytest.fixture
def host():
    return DictHost()


@pytest.fixture
def home(tmp_path):
    """A home whose store holds a directory of its own (STORE_DIRECTORY),
    imported through an engine without a host."""
    path = tmp_path / "home"
    with tender.Engine(path, authentication=NO_AUTH) as plain:
        plain.import_directory(copy.deepcopy(STORE_DIRECTORY))
    return path


@pytest.fixture
def engine(home, host):
    eng = tender.Engine(home, authentication=NO_AUTH, host=host)
    yield eng
    eng.close()


def param(resolution, name):
    found = [p for p in resolution["parameters"] if p["parameter"] == name]
    assert len(found) == 1, resolution
    return found[0]


def store_directory(home):
    """The store's own directory, read through an engine without a host."""
    with tender.Engine(home, authentication=NO_AUTH) as plain:
        return plain.directory()


def store_balance(home):
    return {a["id"]: a["balance"]["amount"] for a in store_directory(home)["accounts"]}


SEND_TIM = {"intent": "send_payment", "payee": {"name": "Tim Cook"},
            "currencyAmount": usd("20"), "note": "lunch", "idempotencyKey": "host-key-1"}


# ------------------------------------------------------------------ payments


def test_send_payment_through_the_hosts_can_send_and_send(engine, host, home):
    assert engine.host is host
    with engine.session(SEND_TIM) as s:
        r = s.resolve()
        assert r["complete"] is True, r
        assert param(r, "payee")["value"]["id"] == "tim-cook"  # the host's contact
        assert "contacts" in host.lookups
        assert host.checked == [] and host.sent == []

        code, response = s.confirm()
        assert code == ResponseCode.READY
        assert response["account"] == {"id": "checking", "nickname": "Checking", "type": "checking"}
        assert len(host.checked) == 1 and host.sent == []
        payment = host.checked[0]
        assert payment["intent"] == "send_payment"
        assert payment["idempotencyKey"] == "host-key-1"
        assert payment["payee"]["id"] == "tim-cook"
        assert payment["payee"]["handle"]["id"] == "tim-cook-work"
        assert payment["currencyAmount"] == usd("20.00")
        assert payment["note"] == "lunch"
        assert payment["account"]["id"] == "checking"

        code, record = s.handle()
        assert code == ResponseCode.SUCCESS
        assert host.sent == [payment]  # send got the same payment, key included
        assert len(host.checked) == 1

        # handling again returns the record and sends nothing
        assert s.handle() == (ResponseCode.SUCCESS, record)
        assert len(host.sent) == 1

    assert record["intent"] == "send_payment" and record["status"] == "completed"
    assert record["idempotencyKey"] == "host-key-1"
    assert record["payee"]["id"] == "tim-cook" and record["currencyAmount"] == usd("20.00")
    assert record.jws
    assert engine.payments() == [record]
    assert engine.verify()["records"] == 2  # the store's directory's signed balances, the payment
    # the store's balances are not the host's: untouched
    assert store_balance(home) == {"checking": "1000.00"}
    # nor does Tender touch the host's data
    assert host.directory == HOST_DIRECTORY


def test_the_same_key_in_a_new_session_neither_checks_nor_sends_again(engine, host):
    with engine.session(SEND_TIM) as s:
        s.resolve()
        assert s.confirm()[0] == ResponseCode.READY
        code, record = s.handle()
    assert code == ResponseCode.SUCCESS and len(host.sent) == 1 and len(host.checked) == 1
    host.can_send_answer = ResponseCode.FAILURE_NOT_ELIGIBLE  # would refuse a new payment
    with engine.session(SEND_TIM) as s:
        s.resolve()
        assert s.confirm()[0] == ResponseCode.READY
        assert s.handle() == (ResponseCode.SUCCESS, record)
        assert s.handle()[1].jws == record.jws
    assert len(host.sent) == 1 and len(host.checked) == 1
    assert engine.payments() == [record]


def test_pay_bill_through_the_host(engine, host, home):
    intent = {"intent": "pay_bill", "billPayee": {"name": "Electric Company"},
              "transactionAmount": {"amountType": "minimumDue"}, "idempotencyKey": "bill-1"}
    with engine.session(intent) as s:
        r = s.resolve()
        assert r["complete"] is True, r
        assert param(r, "billPayee")["value"]["id"] == "electric-main"
        assert param(r, "transactionAmount")["value"] == {"amountType": "minimumDue",
                                                          "amount": usd("25.00")}
        assert {"billPayees", "bills", "accounts"} <= set(host.lookups)
        code, response = s.confirm()
        assert code == ResponseCode.READY
        assert response["billDetails"]["id"] == "electric-main-bill"
        code, record = s.handle()
    assert code == ResponseCode.SUCCESS
    assert len(host.checked) == 1 and host.sent == host.checked
    payment = host.sent[0]
    assert payment["intent"] == "pay_bill" and payment["idempotencyKey"] == "bill-1"
    assert payment["billPayee"]["id"] == "electric-main"
    assert payment["currencyAmount"] == usd("25.00")
    assert payment["billDetailsWhenPaid"]["id"] == "electric-main-bill"
    assert payment["account"]["id"] == "checking"
    assert record["intent"] == "pay_bill" and record["billPayee"]["id"] == "electric-main"
    assert engine.payments() == [record]
    assert engine.verify()["records"] == 2
    assert store_balance(home) == {"checking": "1000.00"}
    assert store_directory(home)["bills"] == []  # the store keeps no bills of the host's
    assert host.directory == HOST_DIRECTORY


def test_the_directory_calls_act_on_the_hosts_directory(engine, host, home):
    # Regression (issue 19): they used to read and change the built-in store,
    # which an engine with a host never resolves against.
    directory = engine.directory()
    assert [c["id"] for c in directory["contacts"]] == [c["id"] for c in HOST_DIRECTORY["contacts"]]
    assert [b["id"] for b in directory["bills"]] == ["electric-main-bill"]
    assert {"contacts", "accounts", "billPayees", "bills"} <= set(host.lookups)
    with pytest.raises(tender.WrongStateError) as info:
        engine.import_directory({"contacts": [{"id": "new", "displayName": "New Person", "handles": []}]})
    assert "host" in info.value.message
    with pytest.raises(tender.WrongStateError):
        engine.remove_from_directory({"contacts": ["store-only"]})
    # the store's own directory is untouched, and so is the host's
    assert [c["id"] for c in store_directory(home)["contacts"]] == ["store-only"]
    assert host.directory == HOST_DIRECTORY
    # a failing lookup is the host's failure, not the store's
    host.fail = "lookup"
    with pytest.raises(tender.CallbackError):
        engine.directory()


def test_a_search_reads_the_hosts_directory(engine, host):
    with engine.session({"intent": "search_for_bills", "status": "unpaid"}) as s:
        s.resolve()
        code, response = s.confirm()
        assert code == ResponseCode.READY
        outcome = s.handle()
    assert [b["id"] for b in outcome.result["bills"]] == ["electric-main-bill"]
    assert host.checked == [] and host.sent == []  # a search pays nothing
    host.directory["bills"] = []
    with engine.session({"intent": "search_for_bills", "status": "unpaid"}) as s:
        s.resolve()
        assert s.confirm()[0] == ResponseCode.FAILURE_BILL_NOT_FOUND


def test_can_send_answering_a_failure_makes_confirm_answer_it(engine, host):
    host.can_send_answer = ResponseCode.FAILURE_INSUFFICIENT_FUNDS
    with engine.session(SEND_TIM) as s:
        s.resolve()
        code, response = s.confirm()
        assert code == ResponseCode.FAILURE_INSUFFICIENT_FUNDS
        assert response["code"] == "failureInsufficientFunds"
        with pytest.raises(tender.WrongStateError):
            s.handle()
        assert host.sent == []

        host.can_send_answer = ResponseCode.FAILURE_NOT_ELIGIBLE  # one of send_payment's codes
        assert s.confirm()[0] == ResponseCode.FAILURE_NOT_ELIGIBLE

        # a code that is no failure of this intent's is a plain failure
        for answer in (ResponseCode.FAILURE_BILL_NOT_FOUND, ResponseCode.IN_PROGRESS):
            host.can_send_answer = answer
            code, response = s.confirm()
            assert code == ResponseCode.FAILURE and response["code"] == "failure", answer

        host.can_send_answer = ResponseCode.READY
        assert s.confirm()[0] == ResponseCode.READY
        code, record = s.handle()
    assert code == ResponseCode.SUCCESS and len(host.sent) == 1
    assert len(host.checked) == 5
    assert engine.payments() == [record]


def test_send_failing_records_nothing(engine, host):
    host.send_answer = ResponseCode.FAILURE_INSUFFICIENT_FUNDS
    with engine.session(SEND_TIM) as s:
        s.resolve()
        assert s.confirm()[0] == ResponseCode.READY
        assert s.handle() == (ResponseCode.FAILURE_INSUFFICIENT_FUNDS, None)
        assert engine.payments() == [] and [e["type"] for e in engine.ledger()] == ["balances"]
        # confirm again before another handle
        with pytest.raises(tender.WrongStateError):
            s.handle()

        host.send_answer = ResponseCode.READY  # not a success: counts as failure
        assert s.confirm()[0] == ResponseCode.READY
        assert s.handle() == (ResponseCode.FAILURE, None)
        assert engine.payments() == []

        host.send_answer = ResponseCode.SUCCESS
        assert s.confirm()[0] == ResponseCode.READY
        code, record = s.handle()
        assert code == ResponseCode.SUCCESS
    # every attempt carried the same key
    assert [p["idempotencyKey"] for p in host.sent] == ["host-key-1"] * 3
    assert engine.payments() == [record]


def test_without_can_send_every_payment_is_ready(tmp_path):
    class SendOnly:
        def __init__(self):
            self.sent = []

        def lookup(self, what):
            return {what: HOST_DIRECTORY.get(what, [])}

        def send(self, payment):
            self.sent.append(payment["idempotencyKey"])
            return ResponseCode.SUCCESS

    host = SendOnly()
    with tender.Engine(tmp_path / "h", authentication=NO_AUTH, host=host) as engine:
        with engine.session(SEND_TIM) as s:
            s.resolve()
            assert s.confirm()[0] == ResponseCode.READY
            assert s.handle()[0] == ResponseCode.SUCCESS
    assert host.sent == ["host-key-1"]


def test_the_store_keeps_the_vocabulary_and_the_signed_in_flag(engine, host):
    said = dict(SEND_TIM, payee={"name": "the boss"})
    with engine.session(said) as s:
        assert param(s.resolve(), "payee")["result"] == "unsupported"
    engine.set_vocabulary("contactName", [{"id": "tim-cook", "phrase": "the boss"}])
    engine.set_signed_in(False)
    with engine.session(said) as s:
        assert param(s.resolve(), "payee")["value"]["id"] == "tim-cook"
        code, response = s.confirm()
        assert code == ResponseCode.FAILURE_CREDENTIALS_UNVERIFIED
        assert response["reason"] == "notSignedIn"
        assert host.checked == []  # refused before the host is asked
        engine.set_signed_in(True)
        assert s.confirm()[0] == ResponseCode.READY
        assert s.handle()[0] == ResponseCode.SUCCESS
    assert len(host.checked) == 1 and len(host.sent) == 1


# ------------------------------------------------------------------ failing callbacks


@pytest.mark.parametrize("where", ["lookup", "can_send", "send"])
def test_a_callback_raising_is_a_clean_callback_error(engine, host, where, capfd):
    host.fail = where
    with engine.session(SEND_TIM) as s:
        with pytest.raises(tender.CallbackError) as info:
            s.resolve()
            s.confirm()
            s.handle()
        error = info.value
        assert error.code == 600 and error.name == "TENDER_E_CALLBACK"
        assert where in error.message
        assert isinstance(error.__cause__, ValueError)
        assert str(error.__cause__) == f"the host's {where} broke"
        assert engine.payments() == []
        # the exception never went through C (ctypes would report it as ignored)
        assert "Exception ignored" not in capfd.readouterr().err

        # the session and the engine keep working once the host does
        host.fail = None
        s.resolve()
        assert s.confirm()[0] == ResponseCode.READY
        code, record = s.handle()
    assert code == ResponseCode.SUCCESS and engine.payments() == [record]


@pytest.mark.parametrize("answer", ["success", None, True, 99, 2**40])
def test_a_callback_answering_nonsense_is_a_callback_error(engine, host, answer):
    host.send_answer = answer
    with engine.session(SEND_TIM) as s:
        s.resolve()
        assert s.confirm()[0] == ResponseCode.READY
        with pytest.raises(tender.CallbackError) as info:
            s.handle()
    assert "send" in info.value.message
    assert engine.payments() == []


@pytest.mark.parametrize("document", [None, 42, "not json", {"contacts": [{"id": "x"}]},
                                      {"people": []}])
def test_a_lookup_answering_nonsense_is_a_callback_error(engine, host, document):
    host.lookup = lambda what: document
    with engine.session(SEND_TIM) as s:
        with pytest.raises(tender.CallbackError):
            s.resolve()


def test_a_callback_must_not_call_back_into_its_engine(engine, host):
    def reentrant(what):
        engine.directory()
        return {what: []}

    host.lookup = reentrant
    with engine.session(SEND_TIM) as s:
        with pytest.raises(tender.CallbackError) as info:
            s.resolve()
    assert isinstance(info.value.__cause__, RuntimeError)


def test_ctrl_c_in_a_callback_is_raised_after_the_call(engine, host):
    def interrupted(payment):
        raise KeyboardInterrupt

    host.send = interrupted
    with engine.session(SEND_TIM) as s:
        s.resolve()
        assert s.confirm()[0] == ResponseCode.READY
        with pytest.raises(KeyboardInterrupt):
            s.handle()
    assert engine.payments() == []


def test_a_host_needs_lookup_and_send(tmp_path):
    class NoSend:
        def lookup(self, what):
            return {}

    with pytest.raises(TypeError):
        tender.Engine(tmp_path / "a", authentication=NO_AUTH, host=NoSend())
    with pytest.raises(TypeError):
        tender.Engine(tmp_path / "b", authentication=NO_AUTH, host=object())
    with pytest.raises(NotImplementedError):
        tender.Host().send({})


# ------------------------------------------------------------------ lifetime and threads


def test_the_callbacks_live_as_long_as_a_session(tmp_path):
    host = DictHost()
    engine = tender.Engine(tmp_path / "h", authentication=NO_AUTH, host=host)
    session = engine.session(SEND_TIM)
    engine.close()
    del engine
    gc.collect()
    assert session.resolve()["complete"] is True
    assert session.confirm()[0] == ResponseCode.READY
    assert session.handle()[0] == ResponseCode.SUCCESS
    session.close()
    assert len(host.sent) == 1


def test_several_threads_through_the_host(engine, host):
    errors = []

    def worker(n):
        try:
            with engine.session(dict(SEND_TIM, idempotencyKey=f"thread-{n}")) as s:
                s.resolve()
                assert s.confirm()[0] == ResponseCode.READY
                assert s.handle()[0] == ResponseCode.SUCCESS
        except BaseException as exc:  # noqa: B036
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert sorted(p["idempotencyKey"] for p in host.sent) == sorted(f"thread-{n}" for n in range(8))
    assert engine.verify()["records"] == 9
