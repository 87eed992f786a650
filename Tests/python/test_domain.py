# SPDX-License-Identifier: Apache-2.0
"""The seed scenarios of the Payments domain, turn by turn, through the Python
binding (docs/intents.md, include/tender.h).

Every scenario checks each turn of the dialog: the resolution of every
parameter (results, prompts, options, values, reasons), the confirm code and
response, the handle code and record (or search result), and what changed in
the store (balances, bills). Dates are relative to today, so "bills due this
month" always finds this month's bills.

Run from the repository root:

    TENDER_LIBRARY=$PWD/build/lib/libtender.so.1 python3 -m pytest -q Tests/python/test_domain.py
"""

import calendar
import copy
import datetime
import json
import pickle

import pytest

import libtender as tender
from conftest import NO_AUTH
from libtender import ResponseCode

# ------------------------------------------------------------------ dates

TODAY = datetime.date.today()
FIRST = TODAY.replace(day=1)
LAST = TODAY.replace(day=calendar.monthrange(TODAY.year, TODAY.month)[1])
NEXT_MONTH = LAST + datetime.timedelta(days=5)
TOMORROW = TODAY + datetime.timedelta(days=1)
YESTERDAY = TODAY - datetime.timedelta(days=1)


def day(d):
    return d.isoformat()


def usd(amount):
    return {"amount": amount, "currency": "USD"}


# ------------------------------------------------------------------ data

ELECTRIC_MAIN = {"id": "electric-main", "organizationName": "Electric Company",
                 "nickname": "12 Main Street", "accountNumber": "EC-1001"}
ELECTRIC_LAKE = {"id": "electric-lake", "organizationName": "Electric Company",
                 "nickname": "4 Lake Road", "accountNumber": "EC-2002"}
PHONE_CO = {"id": "phone-co", "organizationName": "Phone Company", "accountNumber": "PC-77"}

TIM_COOK = {"id": "tim-cook", "displayName": "Tim Cook",
            "handle": {"id": "tim-cook-work", "label": "work", "type": "email",
                       "value": "tim@example.com"}}
JOHN_BAILY_MOBILE = {"id": "john-baily-mobile", "label": "mobile", "type": "phone",
                     "value": "+1 408 555 0112"}

CHECKING_REF = {"id": "checking", "nickname": "Checking", "type": "checking"}
SAVINGS_REF = {"id": "savings", "nickname": "Savings", "type": "saving"}

DOMAIN_DIRECTORY = {
    "contacts": [
        {"id": "john-appleseed", "displayName": "John Appleseed",
         "handles": [{"id": "john-appleseed-mobile", "label": "mobile", "type": "phone",
                      "value": "+1 408 555 0100"}]},
        {"id": "john-baily", "displayName": "John Baily",
         "handles": [
             {"id": "john-baily-home", "label": "home", "type": "phone", "value": "+1 408 555 0111"},
             JOHN_BAILY_MOBILE,
             {"id": "john-baily-work", "label": "work", "type": "email",
              "value": "john.baily@example.com"}]},
        {"id": "tim-cook", "displayName": "Tim Cook", "handles": [TIM_COOK["handle"]]},
        {"id": "craig-federighi", "displayName": "Craig Federighi",
         "handles": [{"id": "craig-federighi-work", "label": "work", "type": "email",
                      "value": "craig@example.com"}]},
        {"id": "phil-schiller", "displayName": "Phil Schiller",
         "handles": [{"id": "phil-schiller-mobile", "label": "mobile", "type": "phone",
                      "value": "+1 408 555 0130"}]},
        {"id": "phil-schiller-2", "displayName": "Phil Schiller",
         "handles": [{"id": "phil-schiller-2-email", "label": "home", "type": "email",
                      "value": "phil.s@example.org"}]},
    ],
    "accounts": [
        {"id": "checking", "nickname": "Checking", "organizationName": "Simple Bank",
         "type": "checking", "balance": usd("2500.00"), "default": True},
        # "savings" is accepted on input for the type "saving"
        {"id": "savings", "nickname": "Savings", "organizationName": "Simple Bank",
         "type": "savings", "balance": usd("8000.00")},
        {"id": "safe-to-spend", "nickname": "Safe-to-Spend", "organizationName": "Simple Bank",
         "type": "checking", "balance": usd("412.35")},
        {"id": "nest-egg", "nickname": "NestEgg", "organizationName": "Simple Bank",
         "type": "saving", "balance": usd("15000.00")},
        {"id": "travel-card", "nickname": "Travel Card", "organizationName": "Sky Miles Bank",
         "type": "credit", "balance": usd("0.00"), "miles": 42000, "points": 1200},
    ],
    "billPayees": [ELECTRIC_MAIN, ELECTRIC_LAKE, PHONE_CO],
    "bills": [
        {"id": "electric-main-bill", "billPayee": "electric-main", "type": "electricity",
         "status": "unpaid", "amountDue": usd("84.20"), "minimumDue": usd("25.00"),
         "lateFee": usd("5.00"), "dueDate": day(LAST)},
        # due a day earlier, so the search's order (earliest due first) is fixed
        {"id": "electric-lake-bill", "billPayee": "electric-lake", "type": "electricity",
         "status": "unpaid", "amountDue": usd("61.75"), "minimumDue": usd("20.00"),
         "lateFee": usd("5.00"), "dueDate": day(LAST - datetime.timedelta(days=1))},
        # unpaid, but due next month: not "due this month"
        {"id": "electric-main-next", "billPayee": "electric-main", "type": "electricity",
         "status": "unpaid", "amountDue": usd("90.00"), "dueDate": day(NEXT_MONTH)},
        # due this month, but paid
        {"id": "phone-bill", "billPayee": "phone-co", "type": "phone", "status": "completed",
         "amountDue": usd("45.00"), "dueDate": day(FIRST), "paymentDate": day(FIRST)},
    ],
}

#: The app-wide vocabulary: "power" is a synonym of the bill type electricity.
APP_VOCABULARY = {
    "parameterVocabularies": [
        {"parameter": "billType",
         "items": [{"id": "electricity", "synonyms": [{"phrase": "power"}],
                    "examples": ["pay my power bill"]}]},
    ],
    "examples": ["pay my bill with Tender"],
}

FEE = {"USD": "0.50"}


def open_engine(home, **config):
    config.setdefault("authentication", NO_AUTH)
    config.setdefault("dialog", {"transferFee": FEE})
    eng = tender.Engine(home, **config)
    eng.import_directory(copy.deepcopy(DOMAIN_DIRECTORY))
    return eng


@pytest.fixture
def engine(tmp_path):
    eng = open_engine(tmp_path / "home", vocabulary=APP_VOCABULARY)
    yield eng
    eng.close()


@pytest.fixture
def engine_factory(tmp_path):
    engines = []

    def factory(**config):
        eng = open_engine(tmp_path / f"home-{len(engines)}", **config)
        engines.append(eng)
        return eng

    yield factory
    for eng in engines:
        eng.close()


# ------------------------------------------------------------------ helpers


def unsaid(document):
    """`document` without what is said to the person: every "say" (an open question's
    sentence must be there), and the options offered instead of a refused or missing value.
    What is said is tested in test_speaking.py and Tests/TenderCoreTests/SpeakingTests.swift;
    here, the structure."""
    if isinstance(document, list):
        return [unsaid(item) for item in document]
    if not isinstance(document, dict):
        return document
    if document.get("result") in ("disambiguation", "confirmationRequired", "needsValue", "unsupported"):
        assert document.get("say"), document
    kept = {k: unsaid(v) for k, v in document.items() if k != "say"}
    if kept.get("result") in ("needsValue", "unsupported"):
        kept.pop("options", None)
    return kept


def param(resolution, name):
    found = [p for p in resolution["parameters"] if p["parameter"] == name]
    assert len(found) == 1, resolution
    return unsaid(found[0])


def results(resolution):
    """{parameter: result} in order."""
    return {p["parameter"]: p["result"] for p in resolution["parameters"]}


def assert_complete(resolution):
    assert resolution["complete"] is True, resolution
    for entry in resolution["parameters"]:
        assert entry["result"] in ("success", "notRequired"), resolution


def options(entry):
    return [(o["id"], o["label"]) for o in entry["options"]]


def balance(engine, account_id):
    for acc in engine.directory()["accounts"]:
        if acc["id"] == account_id:
            return acc["balance"]["amount"]
    raise AssertionError(f"no account {account_id!r}")


def balances(engine):
    return {acc["id"]: acc["balance"]["amount"] for acc in engine.directory()["accounts"]}


def bill(engine, bill_id):
    for item in engine.directory()["bills"]:
        if item["id"] == bill_id:
            return item
    return None


def send(payee=None, amount=None, **extra):
    doc = {"intent": "send_payment"}
    if payee is not None:
        doc["payee"] = payee
    if amount is not None:
        doc["currencyAmount"] = usd(amount)
    doc.update(extra)
    return doc


def pay(engine, intent):
    """A dialog that must resolve at once, confirm ready and succeed; the record."""
    with engine.session(intent) as session:
        assert_complete(session.resolve())
        code, response = session.confirm()
        assert code == ResponseCode.READY, response
        code, record = session.handle()
        assert code == ResponseCode.SUCCESS
        return record


def search(engine, intent):
    """A search that resolves at once: (confirm code, confirm response, handle outcome or None)."""
    with engine.session(intent) as session:
        assert_complete(session.resolve())
        code, response = session.confirm()
        if code != ResponseCode.READY:
            with pytest.raises(tender.WrongStateError):
                session.handle()
            return code, response, None
        return code, response, session.handle()


# ============================================= (a) the Electric Company, two addresses


def test_pay_the_electric_company_bill_at_one_of_two_addresses(engine):
    before = balances(engine)
    with engine.session({"intent": "pay_bill", "billPayee": {"name": "Electric Company"}}) as s:
        # turn 1: which Electric Company? (told apart by nickname)
        r = s.resolve()
        assert r["intent"] == "pay_bill" and r["complete"] is False
        assert list(results(r)) == ["billPayee", "fromAccount", "transactionAmount",
                                    "transactionScheduledDate", "dueDate", "transactionNote",
                                    "billType"]
        payee = param(r, "billPayee")
        assert payee["result"] == "disambiguation" and payee["prompt"] == "billPayee"
        assert options(payee) == [("electric-main", "Electric Company, 12 Main Street"),
                                  ("electric-lake", "Electric Company, 4 Lake Road")]
        # no bill yet, so neither the account nor the amount can be known
        assert results(r) == {"billPayee": "disambiguation", "fromAccount": "needsValue",
                              "transactionAmount": "needsValue",
                              "transactionScheduledDate": "notRequired", "dueDate": "notRequired",
                              "transactionNote": "notRequired", "billType": "notRequired"}
        with pytest.raises(tender.UnknownOptionError):
            s.choose("billPayee", "phone-co")
        with pytest.raises(tender.WrongStateError):
            s.confirm()

        s.choose("billPayee", "electric-lake")

        # turn 2: the bill's amount due is suggested
        r = s.resolve()
        assert r["complete"] is False
        assert param(r, "billPayee") == {"parameter": "billPayee", "result": "success",
                                         "value": ELECTRIC_LAKE}
        assert param(r, "fromAccount") == {"parameter": "fromAccount", "result": "success",
                                           "value": CHECKING_REF}
        assert param(r, "transactionAmount") == {
            "parameter": "transactionAmount", "result": "confirmationRequired",
            "value": {"amountType": "amountDue", "amount": usd("61.75")}}

        s.confirm_value("transactionAmount", True)

        # turn 3: complete
        r = s.resolve()
        assert_complete(r)
        assert param(r, "transactionAmount")["value"] == {"amountType": "amountDue",
                                                          "amount": usd("61.75")}

        code, response = s.confirm()
        assert code == ResponseCode.READY and response["code"] == "ready"
        details = response["billDetails"]
        assert details["id"] == "electric-lake-bill"
        assert details["billPayee"] == ELECTRIC_LAKE
        assert details["type"] == "electricity" and details["status"] == "unpaid"
        assert details["amountDue"] == usd("61.75") and details["minimumDue"] == usd("20.00")
        assert details["lateFee"] == usd("5.00")
        assert details["dueDate"] == day(LAST - datetime.timedelta(days=1))
        assert response["intent"]["intent"] == "pay_bill"
        assert response["intent"]["billPayee"] == ELECTRIC_LAKE
        assert response["intent"]["currencyAmount"] == usd("61.75")
        assert response["intent"]["account"] == CHECKING_REF
        assert balances(engine) == before  # confirm moves nothing

        outcome = s.handle()
        code, record = outcome
        assert code == ResponseCode.SUCCESS and outcome.result is None
        assert isinstance(record, tender.Record) and record.jws
        assert record["intent"] == "pay_bill" and record["status"] == "completed"
        assert record["billPayee"] == ELECTRIC_LAKE
        assert record["currencyAmount"] == usd("61.75")
        assert record["billDetailsWhenPaid"] == details  # the bill as it was when paid
        assert record["account"] == CHECKING_REF
        assert record["paymentMethod"] == {"type": "checking", "name": "Checking"}
        assert "fee" not in record

    # the bill is paid today, the other address's bill is not; checking is debited
    paid = bill(engine, "electric-lake-bill")
    assert paid["status"] == "completed" and paid["paymentDate"] == day(TODAY)
    assert bill(engine, "electric-main-bill")["status"] == "unpaid"
    after = balances(engine)
    assert after.pop("checking") == "2438.25"
    before.pop("checking")
    assert after == before
    assert engine.payments() == [record]
    assert engine.verify()["records"] == 2  # the directory's signed balances, the payment


def test_pay_bill_by_nickname_and_minimum_due_resolves_at_once(engine):
    intent = {"intent": "pay_bill",
              "billPayee": {"name": "Electric Company", "nickname": "Main Street"},
              "transactionAmount": {"amountType": "minimumDue"}}
    with engine.session(intent) as s:
        r = s.resolve()
        assert_complete(r)
        assert param(r, "billPayee")["value"] == ELECTRIC_MAIN
        assert param(r, "transactionAmount")["value"] == {"amountType": "minimumDue",
                                                          "amount": usd("25.00")}
        code, response = s.confirm()
        assert code == ResponseCode.READY
        # the earliest unpaid bill of the payee, not next month's
        assert response["billDetails"]["id"] == "electric-main-bill"
        code, record = s.handle()
    assert code == ResponseCode.SUCCESS and record["currencyAmount"] == usd("25.00")
    assert balance(engine, "checking") == "2475.00"
    # the minimum is less than the amount due: the bill stays unpaid, with its payment date
    paid = bill(engine, "electric-main-bill")
    assert paid["status"] == "unpaid" and paid["paymentDate"] == day(TODAY)
    assert bill(engine, "electric-main-next")["status"] == "unpaid"


def test_pay_bill_without_a_payee_offers_the_payees_with_unpaid_bills(engine):
    with engine.session({"intent": "pay_bill"}) as s:
        entry = param(s.resolve(), "billPayee")
        assert entry["result"] == "disambiguation" and entry["prompt"] == "billPayee"
        # the phone company's only bill is paid: not offered
        assert [o["id"] for o in entry["options"]] == ["electric-main", "electric-lake"]
    pay(engine, {"intent": "pay_bill", "billPayee": {"id": "electric-lake"},
                 "transactionAmount": {"amountType": "amountDue"}})
    with engine.session({"intent": "pay_bill"}) as s:
        entry = param(s.resolve(), "billPayee")
        assert entry == {"parameter": "billPayee", "result": "success", "value": ELECTRIC_MAIN}


@pytest.mark.parametrize("amount", [{"amountType": "minimumDue"}, {"amount": usd("25")}])
def test_pay_bill_retried_with_the_same_key_returns_the_original_record(engine, amount):
    intent = {"intent": "pay_bill", "billPayee": {"id": "electric-main"},
              "transactionAmount": amount, "idempotencyKey": "bill-retry"}
    first = pay(engine, intent)
    # another session (e.g. another process after a crash) retries the same payment
    with engine.session(intent) as s:
        assert_complete(s.resolve())
        assert s.confirm()[0] == ResponseCode.READY
        assert s.handle() == (ResponseCode.SUCCESS, first)
    assert engine.payments() == [first]
    assert balance(engine, "checking") == "2475.00"
    assert bill(engine, "electric-main-next")["status"] == "unpaid"
    # also while signed out: the payment was made before
    engine.set_signed_in(False)
    with engine.session(intent) as s:
        s.resolve()
        assert s.confirm()[0] == ResponseCode.READY
        assert s.handle() == (ResponseCode.SUCCESS, first)


def test_pay_bill_declined_amount_then_a_stated_one(engine):
    with engine.session({"intent": "pay_bill", "billPayee": {"id": "electric-main"}}) as s:
        entry = param(s.resolve(), "transactionAmount")
        assert entry["result"] == "confirmationRequired"
        assert entry["value"] == {"amountType": "amountDue", "amount": usd("84.20")}
        s.confirm_value("transactionAmount", False)
        assert param(s.resolve(), "transactionAmount")["result"] == "needsValue"
        s.supply("transactionAmount", {"amount": usd("30")})
        r = s.resolve()
        assert_complete(r)
        assert param(r, "transactionAmount")["value"] == {"amount": usd("30.00")}
        assert s.confirm()[0] == ResponseCode.READY
        code, record = s.handle()
    assert code == ResponseCode.SUCCESS and record["currencyAmount"] == usd("30.00")
    assert balance(engine, "checking") == "2470.00"


def test_pay_bill_scheduled_in_the_future_is_pending_and_a_past_date_unsupported(engine):
    base = {"intent": "pay_bill", "billPayee": {"id": "electric-main"},
            "transactionAmount": {"amountType": "minimumDue"}}
    with engine.session(dict(base, transactionScheduledDate=day(YESTERDAY))) as s:
        entry = param(s.resolve(), "transactionScheduledDate")
        assert entry == {"parameter": "transactionScheduledDate", "result": "unsupported",
                         "reason": "pastDate"}
    record = pay(engine, dict(base, transactionScheduledDate=day(TOMORROW)))
    assert record["status"] == "pending"
    assert record["transactionScheduledDate"] == day(TOMORROW)
    scheduled = bill(engine, "electric-main-bill")
    # only the minimum: the bill stays unpaid, dated the scheduled day
    assert scheduled["status"] == "unpaid" and scheduled["paymentDate"] == day(TOMORROW)
    assert balance(engine, "checking") == "2475.00"  # the funds are taken at handle
    whole = pay(engine, {"intent": "pay_bill", "billPayee": {"id": "electric-main"},
                         "transactionAmount": {"amountType": "amountDue"}, "transactionScheduledDate": day(TOMORROW)})
    assert whole["status"] == "pending"
    assert bill(engine, "electric-main-bill")["status"] == "pending"


# ============================================= (b) two Johns and the mobile handle


def test_send_to_john_chooses_the_person_then_the_mobile_handle(engine):
    intent = send({"name": "John"}, "50", note="dinner", idempotencyKey="john-dinner")
    with engine.session(intent) as s:
        r = s.resolve()
        assert r["intent"] == "send_payment" and r["complete"] is False
        payee = param(r, "payee")
        assert payee["result"] == "disambiguation" and payee["prompt"] == "person"
        assert options(payee) == [("john-appleseed", "John Appleseed"), ("john-baily", "John Baily")]
        assert param(r, "currencyAmount") == {"parameter": "currencyAmount", "result": "success",
                                              "value": usd("50.00")}
        assert param(r, "note") == {"parameter": "note", "result": "success", "value": "dinner"}

        s.choose("payee", "john-baily")

        r = s.resolve()
        assert r["complete"] is False
        payee = param(r, "payee")
        assert payee["result"] == "disambiguation" and payee["prompt"] == "handle"
        assert options(payee) == [("john-baily-home", "home"), ("john-baily-mobile", "mobile"),
                                  ("john-baily-work", "work")]

        s.choose("payee", "john-baily-mobile")

        r = s.resolve()
        assert_complete(r)
        assert param(r, "payee")["value"] == {"id": "john-baily", "displayName": "John Baily",
                                              "handle": JOHN_BAILY_MOBILE}
        code, response = s.confirm()
        assert code == ResponseCode.READY
        assert response["account"] == CHECKING_REF
        assert response["intent"]["payee"]["handle"] == JOHN_BAILY_MOBILE
        code, record = s.handle()
    assert code == ResponseCode.SUCCESS
    assert record["intent"] == "send_payment" and record["status"] == "completed"
    assert record["payee"]["id"] == "john-baily"
    assert record["payee"]["handle"] == JOHN_BAILY_MOBILE
    assert record["currencyAmount"] == usd("50.00") and record["note"] == "dinner"
    assert record["paymentMethod"] == {"type": "checking", "name": "Checking"}
    assert record["idempotencyKey"] == "john-dinner"
    assert balance(engine, "checking") == "2450.00"


def test_a_stated_handle_label_skips_the_handle_question(engine):
    with engine.session(send({"name": "John Baily", "handle": "Mobile"}, "5")) as s:
        r = s.resolve()
        assert_complete(r)
        assert param(r, "payee")["value"]["handle"] == JOHN_BAILY_MOBILE


# ============================================= (c) Tim Cook, Craig Federighi, two Phil Schillers


def test_duplicate_names_disambiguate_and_unique_names_resolve_directly(engine):
    with engine.session(send({"name": "Phil Schiller"}, "10")) as s:
        r = s.resolve()
        payee = param(r, "payee")
        assert payee["result"] == "disambiguation" and payee["prompt"] == "person"
        assert options(payee) == [("phil-schiller", "Phil Schiller"),
                                  ("phil-schiller-2", "Phil Schiller")]
        s.choose("payee", "phil-schiller-2")
        r = s.resolve()
        assert_complete(r)  # one handle: no handle question
        assert param(r, "payee")["value"] == {
            "id": "phil-schiller-2", "displayName": "Phil Schiller",
            "handle": {"id": "phil-schiller-2-email", "label": "home", "type": "email",
                       "value": "phil.s@example.org"}}
        assert s.confirm()[0] == ResponseCode.READY
        code, record = s.handle()
    assert code == ResponseCode.SUCCESS and record["payee"]["id"] == "phil-schiller-2"

    with engine.session(send({"name": "Tim Cook"}, "10")) as s:
        r = s.resolve()
        assert_complete(r)
        assert param(r, "payee") == {"parameter": "payee", "result": "success", "value": TIM_COOK}

    with engine.session(send({"name": "Craig"}, "10")) as s:
        r = s.resolve()
        assert_complete(r)
        assert param(r, "payee")["value"]["id"] == "craig-federighi"

    with engine.session(send({"name": "Phil"}, "10")) as s:
        assert [o["id"] for o in param(s.resolve(), "payee")["options"]] == [
            "phil-schiller", "phil-schiller-2"]


# ============================================= (d) the most recent payee


def test_without_a_payee_the_most_recent_payee_is_suggested(engine):
    with engine.session(send(amount="10")) as s:
        # nobody paid yet: nothing to suggest
        r = s.resolve()
        assert param(r, "payee") == {"parameter": "payee", "result": "needsValue"}

    first = pay(engine, send({"id": "john-baily", "handle": "mobile"}, "15"))
    assert first["payee"]["handle"]["id"] == "john-baily-mobile"
    pay(engine, send({"id": "tim-cook"}, "20"))

    # accepted: the most recent payee (Tim Cook), with his handle
    with engine.session(send(amount="10")) as s:
        r = s.resolve()
        assert r["complete"] is False
        assert param(r, "payee") == {"parameter": "payee", "result": "confirmationRequired",
                                     "value": TIM_COOK}
        s.confirm_value("payee", True)
        r = s.resolve()
        assert_complete(r)
        assert param(r, "payee") == {"parameter": "payee", "result": "success", "value": TIM_COOK}
        assert s.confirm()[0] == ResponseCode.READY
        code, record = s.handle()
        assert code == ResponseCode.SUCCESS and record["payee"] == TIM_COOK

    # declined: the payee is asked for, and a value answers it
    with engine.session(send(amount="10")) as s:
        assert param(s.resolve(), "payee")["result"] == "confirmationRequired"
        s.confirm_value("payee", False)
        r = s.resolve()
        assert param(r, "payee") == {"parameter": "payee", "result": "needsValue"}
        with pytest.raises(tender.WrongStateError):
            s.confirm()
        s.supply("payee", {"name": "Craig Federighi"})
        r = s.resolve()
        assert_complete(r)
        assert param(r, "payee")["value"]["id"] == "craig-federighi"
    assert balance(engine, "checking") == "2455.00"  # 15 + 20 + 10


# ============================================= (e) an amount below the minimum


def test_an_amount_below_the_minimum_is_unsupported_until_a_new_value(engine):
    with engine.session(send({"id": "tim-cook"}, "0.50")) as s:
        r = s.resolve()
        assert r["complete"] is False
        assert param(r, "currencyAmount") == {"parameter": "currencyAmount", "result": "unsupported",
                                              "reason": "paymentsAmountBelowMinimum"}
        code, response = s.confirm()
        assert code == ResponseCode.FAILURE_PAYMENTS_AMOUNT_BELOW_MINIMUM
        assert response == {"code": "failurePaymentsAmountBelowMinimum",
                            "parameter": "currencyAmount", "reason": "paymentsAmountBelowMinimum"}
        with pytest.raises(tender.WrongStateError):
            s.handle()

        s.supply("currencyAmount", usd("5"))

        r = s.resolve()
        assert_complete(r)
        assert param(r, "currencyAmount")["value"] == usd("5.00")
        assert s.confirm()[0] == ResponseCode.READY
        code, record = s.handle()
    assert code == ResponseCode.SUCCESS and record["currencyAmount"] == usd("5.00")
    assert balance(engine, "checking") == "2495.00"

    with engine.session(send({"id": "tim-cook"}, "20000")) as s:
        assert param(s.resolve(), "currencyAmount")["reason"] == "paymentsAmountAboveMaximum"
        assert s.confirm()[0] == ResponseCode.FAILURE_PAYMENTS_AMOUNT_ABOVE_MAXIMUM


# ============================================= (f) insufficient funds


def test_insufficient_funds_for_a_transfer_and_a_payment(engine):
    before = balances(engine)
    # Safe-to-Spend holds 412.35; the fee (0.50) counts too
    for amount in ["500", "412.35"]:
        intent = {"intent": "transfer_money", "fromAccount": {"nickname": "safe to spend"},
                  "toAccount": {"nickname": "savings"},
                  "transactionAmount": {"amount": usd(amount)}}
        with engine.session(intent) as s:
            r = s.resolve()
            assert_complete(r)
            assert param(r, "fromAccount")["value"]["id"] == "safe-to-spend"
            code, response = s.confirm()
            assert code == ResponseCode.FAILURE_INSUFFICIENT_FUNDS, amount
            assert response["code"] == "failureInsufficientFunds"
            assert response["fee"] == usd("0.50")
            with pytest.raises(tender.WrongStateError):
                s.handle()

    with engine.session(send({"id": "tim-cook"}, "2500.01")) as s:
        assert_complete(s.resolve())
        code, response = s.confirm()
        assert code == ResponseCode.FAILURE_INSUFFICIENT_FUNDS
        assert response["account"] == CHECKING_REF
        with pytest.raises(tender.WrongStateError):
            s.handle()

    assert balances(engine) == before
    assert engine.payments() == []

    # funds that left between confirm and handle
    with engine.session(send({"id": "tim-cook"}, "2000")) as s:
        assert_complete(s.resolve())
        assert s.confirm()[0] == ResponseCode.READY
        pay(engine, send({"id": "craig-federighi"}, "1000"))
        assert s.handle() == (ResponseCode.FAILURE_INSUFFICIENT_FUNDS, None)
    assert balance(engine, "checking") == "1500.00"
    assert [p["payee"]["id"] for p in engine.payments()] == ["craig-federighi"]

    # exactly the balance less the fee is enough
    record = pay(engine, {"intent": "transfer_money", "fromAccount": {"nickname": "safe to spend"},
                          "toAccount": {"nickname": "savings"},
                          "transactionAmount": {"amount": usd("411.85")}})
    assert record["fee"] == usd("0.50")
    assert balance(engine, "safe-to-spend") == "0.00"
    assert balance(engine, "savings") == "8411.85"


# ============================================= (g) a person not signed in


def test_a_person_not_signed_in_cannot_pay_until_signed_in_again(engine, tmp_path):
    intent = {"intent": "pay_bill", "billPayee": {"id": "electric-main"},
              "transactionAmount": {"amountType": "minimumDue"}}
    engine.set_signed_in(False)
    # kept in the store: another engine on the same home sees it
    with tender.Engine(engine.home, authentication=NO_AUTH) as other:
        with other.session(intent) as s:
            assert_complete(s.resolve())
            assert s.confirm()[0] == ResponseCode.FAILURE_CREDENTIALS_UNVERIFIED

    with engine.session(intent) as s:
        assert_complete(s.resolve())
        code, response = s.confirm()
        assert code == ResponseCode.FAILURE_CREDENTIALS_UNVERIFIED
        assert unsaid(response) == {"code": "failureCredentialsUnverified", "reason": "notSignedIn"} and response["say"]
        with pytest.raises(tender.WrongStateError):
            s.handle()

        engine.set_signed_in(True)

        code, response = s.confirm()
        assert code == ResponseCode.READY
        assert response["billDetails"]["id"] == "electric-main-bill"
        code, record = s.handle()
    assert code == ResponseCode.SUCCESS and record["currencyAmount"] == usd("25.00")
    assert balance(engine, "checking") == "2475.00"


# ============================================= (h) transfer between checking and savings


def test_transfer_from_checking_to_savings_moves_balances_and_charges_the_fee(engine):
    intent = {"intent": "transfer_money", "fromAccount": {"nickname": "checking"},
              "toAccount": {"nickname": "savings"},
              "transactionAmount": {"amount": usd("200")}, "transactionNote": "rainy day"}
    with engine.session(intent) as s:
        r = s.resolve()
        assert r["intent"] == "transfer_money"
        assert_complete(r)
        assert results(r) == {"fromAccount": "success", "toAccount": "success",
                              "transactionAmount": "success",
                              "transactionScheduledDate": "notRequired",
                              "transactionNote": "success"}
        assert param(r, "fromAccount")["value"] == CHECKING_REF
        assert param(r, "toAccount")["value"] == SAVINGS_REF
        assert param(r, "transactionAmount")["value"] == {"amount": usd("200.00")}

        code, response = s.confirm()
        assert code == ResponseCode.READY
        assert response["fee"] == usd("0.50")
        assert response["intent"]["fee"] == usd("0.50")
        assert response["intent"]["fromAccount"] == CHECKING_REF
        assert response["intent"]["toAccount"] == SAVINGS_REF
        assert response["intent"]["currencyAmount"] == usd("200.00")

        code, record = s.handle()
    assert code == ResponseCode.SUCCESS
    assert record["intent"] == "transfer_money" and record["status"] == "completed"
    assert record["fromAccount"] == CHECKING_REF and record["toAccount"] == SAVINGS_REF
    assert record["currencyAmount"] == usd("200.00")
    assert record["fee"] == usd("0.50")
    assert record["transactionNote"] == "rainy day"
    assert record["paymentMethod"] == {"type": "checking", "name": "Checking"}
    assert balance(engine, "checking") == "2299.50"  # amount plus fee
    assert balance(engine, "savings") == "8200.00"   # the amount
    assert engine.verify()["records"] == 2


def test_transfer_without_a_configured_fee_is_free_and_to_the_same_account_unsupported(
        engine_factory):
    engine = engine_factory(dialog={})
    record = pay(engine, {"intent": "transfer_money", "fromAccount": {"id": "savings"},
                          "toAccount": {"id": "checking"},
                          "transactionAmount": {"amount": usd("100")}})
    assert record["fee"] == usd("0.00")
    assert record["paymentMethod"] == {"type": "savings", "name": "Savings"}
    assert balance(engine, "savings") == "7900.00" and balance(engine, "checking") == "2600.00"

    with engine.session({"intent": "transfer_money", "fromAccount": {"id": "checking"},
                         "toAccount": {"id": "checking"},
                         "transactionAmount": {"amount": usd("1")}}) as s:
        assert param(s.resolve(), "toAccount") == {"parameter": "toAccount", "result": "unsupported",
                                                   "reason": "sameAccount"}


def test_a_transfer_scheduled_tomorrow_is_pending(engine):
    record = pay(engine, {"intent": "transfer_money", "fromAccount": {"id": "checking"},
                          "toAccount": {"id": "savings"},
                          "transactionAmount": {"amount": usd("10")},
                          "transactionScheduledDate": day(TOMORROW)})
    assert record["status"] == "pending"
    assert record["transactionScheduledDate"] == day(TOMORROW)


# ============================================= (i) account balances


def test_whats_my_safe_to_spend(engine):
    with engine.session({"intent": "search_for_accounts", "accountNickname": "safe to spend"}) as s:
        r = s.resolve()
        assert r["intent"] == "search_for_accounts"
        assert_complete(r)
        assert param(r, "accountNickname") == {"parameter": "accountNickname", "result": "success",
                                               "value": "Safe-to-Spend"}
        assert results(r) == {"accountNickname": "success", "accountType": "notRequired",
                              "organizationName": "notRequired",
                              "requestedBalanceType": "notRequired"}
        expected = {"accounts": [{"id": "safe-to-spend", "nickname": "Safe-to-Spend",
                                  "organizationName": "Simple Bank", "type": "checking",
                                  "balance": {"type": "money", "amount": usd("412.35")}}]}
        code, response = s.confirm()
        assert code == ResponseCode.READY
        assert response == {"code": "ready", "result": expected}
        outcome = s.handle()
        code, record = outcome
        assert code == ResponseCode.SUCCESS and record is None
        assert outcome.result == expected
        # handling again returns the same outcome
        assert s.handle().result == expected
    assert engine.payments() == []  # a search records nothing


def test_account_nicknames_in_compact_form_and_through_the_vocabulary(engine):
    code, response, outcome = search(engine, {"intent": "search_for_accounts",
                                              "accountNickname": "nest egg"})
    assert code == ResponseCode.READY
    assert [a["id"] for a in outcome.result["accounts"]] == ["nest-egg"]
    assert outcome.result["accounts"][0]["balance"] == {"type": "money", "amount": usd("15000.00")}

    said = {"intent": "search_for_accounts", "accountNickname": "rainy day fund"}
    with engine.session(said) as s:
        assert param(s.resolve(), "accountNickname") == {
            "parameter": "accountNickname", "result": "unsupported", "reason": "noMatchingAccount"}

    engine.set_vocabulary(tender.VocabularyKind.ACCOUNT_NICKNAME,
                          [{"id": "nest-egg", "phrase": "rainy day fund"}])
    code, response, outcome = search(engine, said)
    assert code == ResponseCode.READY
    assert [a["id"] for a in outcome.result["accounts"]] == ["nest-egg"]

    # the same words also name the account in a transfer
    record = pay(engine, {"intent": "transfer_money", "fromAccount": {"nickname": "rainy day fund"},
                          "toAccount": {"nickname": "checking"},
                          "transactionAmount": {"amount": usd("100")}})
    assert record["fromAccount"]["id"] == "nest-egg"


def test_points_and_miles_balances(engine):
    for kind, amount in [("miles", 42000), ("points", 1200)]:
        code, response, outcome = search(engine, {"intent": "search_for_accounts",
                                                  "requestedBalanceType": kind})
        assert code == ResponseCode.READY
        assert outcome.result == {"accounts": [{
            "id": "travel-card", "nickname": "Travel Card", "organizationName": "Sky Miles Bank",
            "type": "credit", "balance": {"type": kind, "amount": amount}}]}
    code, response, outcome = search(engine, {"intent": "search_for_accounts",
                                              "organizationName": "Simple Bank"})
    assert [a["id"] for a in outcome.result["accounts"]] == ["checking", "savings",
                                                             "safe-to-spend", "nest-egg"]


def test_an_account_search_that_finds_nothing(engine):
    code, response, outcome = search(engine, {"intent": "search_for_accounts",
                                              "accountType": "mortgage"})
    assert code == ResponseCode.FAILURE_ACCOUNT_NOT_FOUND
    assert unsaid(response) == {"code": "failureAccountNotFound", "result": {"accounts": []}} and response["say"]
    assert code.sirikit_name == "failureAccountNotFound"


# ============================================= (j) bills due this month


def test_bills_due_this_month(engine):
    intent = {"intent": "search_for_bills", "status": "unpaid",
              "dueDateRange": {"start": day(FIRST), "end": day(LAST)}}
    with engine.session(intent) as s:
        r = s.resolve()
        assert r["intent"] == "search_for_bills"
        assert_complete(r)
        assert param(r, "status") == {"parameter": "status", "result": "success", "value": "unpaid"}
        assert param(r, "dueDateRange")["value"] == {"start": day(FIRST), "end": day(LAST)}
        code, response = s.confirm()
        assert code == ResponseCode.READY
        bills = response["result"]["bills"]
        # earliest due first; next month's and the paid phone bill are left out
        assert [b["id"] for b in bills] == ["electric-lake-bill", "electric-main-bill"]
        assert bills[0]["billPayee"] == ELECTRIC_LAKE and bills[1]["billPayee"] == ELECTRIC_MAIN
        assert bills[1] == {"id": "electric-main-bill", "billPayee": ELECTRIC_MAIN,
                            "type": "electricity", "status": "unpaid", "amountDue": usd("84.20"),
                            "minimumDue": usd("25.00"), "lateFee": usd("5.00"),
                            "dueDate": day(LAST)}
        outcome = s.handle()
        assert outcome.code == ResponseCode.SUCCESS and outcome.record is None
        assert outcome.result == response["result"]


def test_a_bill_search_with_an_empty_range_finds_nothing(engine):
    year = TODAY.year + 2
    code, response, outcome = search(engine, {
        "intent": "search_for_bills",
        "dueDateRange": {"start": f"{year}-01-01", "end": f"{year}-01-31"}})
    assert code == ResponseCode.FAILURE_BILL_NOT_FOUND
    assert unsaid(response) == {"code": "failureBillNotFound", "result": {"bills": []}} and response["say"]


def test_paid_bills_by_payment_date(engine):
    code, response, outcome = search(engine, {
        "intent": "search_for_bills", "paymentDateRange": {"start": day(FIRST)}})
    assert [b["id"] for b in outcome.result["bills"]] == ["phone-bill"]
    assert outcome.result["bills"][0]["billPayee"] == PHONE_CO


# ============================================= matching: fuzzy names, n-best, host matches


def test_a_misheard_name_asks_did_you_mean(engine):
    with engine.session(send({"name": "Jon Bailey"}, "12")) as s:
        r = s.resolve()
        assert param(r, "payee") == {"parameter": "payee", "result": "confirmationRequired",
                                     "value": {"id": "john-baily", "displayName": "John Baily"}}
        s.confirm_value("payee", True)
        r = s.resolve()
        payee = param(r, "payee")
        assert payee["result"] == "disambiguation" and payee["prompt"] == "handle"
        s.choose("payee", "john-baily-work")
        r = s.resolve()
        assert_complete(r)
        assert param(r, "payee")["value"]["handle"]["id"] == "john-baily-work"
        assert s.confirm()[0] == ResponseCode.READY
        code, record = s.handle()
    assert code == ResponseCode.SUCCESS and record["payee"]["id"] == "john-baily"

    with engine.session(send({"name": "Jon Bailey"}, "12")) as s:
        s.resolve()
        s.confirm_value("payee", False)
        assert param(s.resolve(), "payee") == {"parameter": "payee", "result": "unsupported",
                                               "reason": "noMatchingContact"}


def test_alternative_hearings_are_considered(engine):
    with engine.session(send({"name": "Don Daily"}, "5")) as s:
        assert param(s.resolve(), "payee") == {"parameter": "payee", "result": "unsupported",
                                               "reason": "noMatchingContact"}
    with engine.session(send({"name": "Don Daily", "alternatives": ["Tim Cook"]}, "5")) as s:
        r = s.resolve()
        assert_complete(r)
        assert param(r, "payee")["value"] == TIM_COOK
    # every hearing counts: two people heard, two people offered
    with engine.session(send({"name": "Tim Cook", "alternatives": ["Craig Federighi"]}, "5")) as s:
        payee = param(s.resolve(), "payee")
        assert payee["result"] == "disambiguation" and payee["prompt"] == "person"
        assert [o["id"] for o in payee["options"]] == ["tim-cook", "craig-federighi"]


def test_the_hosts_matches_are_considered(engine):
    with engine.session(send({"name": "Jon"}, "5")) as s:
        assert param(s.resolve(), "payee")["result"] == "unsupported"
    with engine.session(send({"name": "Jon", "matches": ["john-baily"]}, "5")) as s:
        payee = param(s.resolve(), "payee")
        assert payee["result"] == "disambiguation" and payee["prompt"] == "handle"
        assert [o["id"] for o in payee["options"]] == ["john-baily-home", "john-baily-mobile",
                                                       "john-baily-work"]
    # an id that does not exist is no candidate
    with engine.session(send({"name": "Jon", "matches": ["nobody"]}, "5")) as s:
        assert param(s.resolve(), "payee")["result"] == "unsupported"


def test_a_contact_name_vocabulary_item_leads_to_its_contact(engine):
    said = send({"name": "Johnny B"}, "5")
    with engine.session(said) as s:
        assert param(s.resolve(), "payee")["reason"] == "noMatchingContact"

    engine.set_vocabulary("contactName", [
        {"id": "john-baily", "phrase": "Johnny B", "pronunciation": "jonny bee",
         "alternatives": ["JB"]}])
    for name in ["Johnny B", "johnny-b", "JB"]:
        with engine.session(send({"name": name, "handle": "mobile"}, "5")) as s:
            r = s.resolve()
            assert_complete(r)
            assert param(r, "payee")["value"] == {"id": "john-baily", "displayName": "John Baily",
                                                  "handle": JOHN_BAILY_MOBILE}, name

    # the vocabulary of a kind is replaced as a whole
    engine.set_vocabulary({"kind": "contactName", "items": []})
    with engine.session(said) as s:
        assert param(s.resolve(), "payee")["reason"] == "noMatchingContact"


def test_a_payment_organization_vocabulary_item_names_the_payee(engine):
    said = {"intent": "pay_bill", "billPayee": {"name": "the lake house lights"}}
    with engine.session(said) as s:
        assert param(s.resolve(), "billPayee")["result"] == "unsupported"
    engine.set_vocabulary(tender.VocabularyKind.PAYMENT_ORGANIZATION_NAME,
                          [{"id": "electric-lake", "phrase": "the lake house lights"}])
    with engine.session(said) as s:
        assert param(s.resolve(), "billPayee") == {"parameter": "billPayee", "result": "success",
                                                   "value": ELECTRIC_LAKE}


def test_the_app_vocabulary_maps_power_to_electricity(engine, engine_factory):
    intent = {"intent": "search_for_bills", "billType": "power", "status": "unpaid"}
    with engine.session(intent) as s:
        r = s.resolve()
        assert_complete(r)
        assert param(r, "billType") == {"parameter": "billType", "result": "success",
                                        "value": "electricity"}
        assert s.confirm()[0] == ResponseCode.READY
        assert [b["id"] for b in s.handle().result["bills"]] == [
            "electric-lake-bill", "electric-main-bill", "electric-main-next"]
    with engine.session({"intent": "pay_bill", "billPayee": {"id": "electric-main"},
                         "billType": "power"}) as s:
        assert param(s.resolve(), "billType")["value"] == "electricity"
    # a value that only sounds like one is suggested
    with engine.session({"intent": "search_for_bills", "billType": "electrisity"}) as s:
        assert param(s.resolve(), "billType") == {"parameter": "billType",
                                                  "result": "confirmationRequired",
                                                  "value": "electricity"}
    # without the app vocabulary, "power" names no bill type
    plain = engine_factory()
    with plain.session(intent) as s:
        assert param(s.resolve(), "billType") == {"parameter": "billType", "result": "unsupported",
                                                  "reason": "unknownValue"}


def test_the_app_vocabulary_from_a_file(engine_factory, tmp_path):
    path = tmp_path / "vocabulary.json"
    path.write_text(json.dumps(APP_VOCABULARY))
    engine = engine_factory(vocabularyFile=str(path))
    with engine.session({"intent": "search_for_bills", "billType": "power"}) as s:
        assert param(s.resolve(), "billType")["value"] == "electricity"
    with pytest.raises(tender.NotFoundError):
        tender.Engine(tmp_path / "other", authentication=NO_AUTH,
                      vocabularyFile=str(tmp_path / "missing.json"))
    with pytest.raises(tender.InvalidArgumentError):
        tender.Engine(tmp_path / "other", authentication=NO_AUTH,
                      vocabularyFile=str(path), vocabulary=APP_VOCABULARY)


# ============================================= the prompt limit


def test_a_parameter_unresolved_too_often_ends_the_dialog(engine_factory):
    engine = engine_factory(dialog={"maxPrompts": 2})
    with engine.session(send(amount="5")) as s:
        for _ in range(2):
            assert param(s.resolve(), "payee")["result"] == "needsValue"
        with pytest.raises(tender.DialogEndedError) as info:
            s.resolve()
        assert info.value.code == 204 == tender.ResultCode.DIALOG_ENDED
        assert info.value.name == "TENDER_E_DIALOG_ENDED"
        assert "payee" in info.value.message
        # the dialog stays ended
        with pytest.raises(tender.DialogEndedError):
            s.resolve()
        with pytest.raises(tender.DialogEndedError):
            s.supply("payee", {"id": "tim-cook"})
        with pytest.raises(tender.DialogEndedError):
            s.confirm()
        with pytest.raises(tender.DialogEndedError):
            s.handle()
    assert engine.payments() == []


def test_the_same_question_asked_too_often_ends_the_dialog(engine_factory):
    engine = engine_factory(dialog={"maxPrompts": 2})
    # answered each time, but the answer brings the same question back
    with engine.session(send(amount="5")) as s:
        assert results(s.resolve())["payee"] == "needsValue"
        s.supply("payee", {"name": "Nobody At All"})
        assert param(s.resolve(), "payee")["reason"] == "noMatchingContact"  # a new question
        s.supply("payee", {"name": "Nobody Else"})
        assert param(s.resolve(), "payee")["reason"] == "noMatchingContact"  # the same, twice
        s.supply("payee", {"name": "Still Nobody"})
        with pytest.raises(tender.DialogEndedError):
            s.resolve()  # the same a third time
    # a disambiguation left unanswered
    with engine.session(send({"name": "John"}, "5")) as s:
        for _ in range(2):
            assert param(s.resolve(), "payee")["prompt"] == "person"
        with pytest.raises(tender.DialogEndedError):
            s.resolve()


def test_progress_does_not_count_against_the_prompt_limit(engine_factory):
    engine = engine_factory(dialog={"maxPrompts": 1})
    with engine.session(send()) as s:
        assert results(s.resolve()) == {"payee": "needsValue", "currencyAmount": "needsValue",
                                        "note": "notRequired"}
        s.supply("payee", {"name": "John"})
        s.supply("currencyAmount", usd("7"))
        assert param(s.resolve(), "payee")["prompt"] == "person"   # a new question
        s.choose("payee", "john-baily")
        assert param(s.resolve(), "payee")["prompt"] == "handle"   # and another
        s.choose("payee", "john-baily-mobile")
        assert_complete(s.resolve())
        assert s.confirm()[0] == ResponseCode.READY
        code, record = s.handle()
    assert code == ResponseCode.SUCCESS and record["payee"]["handle"] == JOHN_BAILY_MOBILE


@pytest.mark.parametrize("bad", [0, 21, "5", -1])
def test_a_bad_prompt_limit_is_refused(tmp_path, bad):
    with pytest.raises(tender.InvalidArgumentError):
        tender.Engine(tmp_path / "h", authentication=NO_AUTH, dialog={"maxPrompts": bad})


# ============================================= removing from the directory


def test_remove_from_directory(engine):
    engine.remove_from_directory({"contacts": ["tim-cook"]})
    directory = engine.directory()
    assert "tim-cook" not in [c["id"] for c in directory["contacts"]]
    with engine.session(send({"name": "Tim Cook"}, "5")) as s:
        assert param(s.resolve(), "payee") == {"parameter": "payee", "result": "unsupported",
                                               "reason": "noMatchingContact"}

    # a bill payee takes its bills
    engine.remove_from_directory(bill_payees=["electric-main"], accounts=["travel-card"])
    directory = engine.directory()
    assert [p["id"] for p in directory["billPayees"]] == ["electric-lake", "phone-co"]
    assert [b["id"] for b in directory["bills"]] == ["electric-lake-bill", "phone-bill"]
    assert "travel-card" not in [a["id"] for a in directory["accounts"]]
    engine.remove_from_directory(bills=["phone-bill"])
    assert [b["id"] for b in engine.directory()["bills"]] == ["electric-lake-bill"]
    with engine.session({"intent": "pay_bill", "billPayee": {"name": "Electric Company"}}) as s:
        assert param(s.resolve(), "billPayee")["value"] == ELECTRIC_LAKE


def test_removing_an_unknown_id_removes_nothing(engine):
    before = engine.directory()
    with pytest.raises(tender.NotFoundError) as info:
        engine.remove_from_directory({"contacts": ["craig-federighi", "nobody"]})
    assert info.value.code == 303
    with pytest.raises(tender.NotFoundError):
        engine.remove_from_directory({"accounts": ["savings"], "bills": ["no-such-bill"]})
    assert engine.directory() == before
    with pytest.raises(tender.InvalidArgumentError):
        engine.remove_from_directory({})
    with pytest.raises(tender.InvalidArgumentError):
        engine.remove_from_directory({"people": ["tim-cook"]})
    with pytest.raises(TypeError):
        engine.remove_from_directory({"contacts": ["tim-cook"]}, accounts=["savings"])
    with pytest.raises(TypeError):
        engine.remove_from_directory(contacts="tim-cook")
    assert engine.directory() == before


# ============================================= request_payment, search_for_payments


def test_request_payment_records_a_pending_request(engine):
    pay(engine, send({"id": "john-baily", "handle": "mobile"}, "15"))
    before = balances(engine)
    intent = {"intent": "request_payment", "payer": {"name": "Tim"},
              "currencyAmount": usd("20"), "note": "lunch"}
    with engine.session(intent) as s:
        r = s.resolve()
        assert r["intent"] == "request_payment"
        assert_complete(r)
        assert param(r, "payer") == {"parameter": "payer", "result": "success", "value": TIM_COOK}
        assert param(r, "note")["value"] == "lunch"
        code, response = s.confirm()
        assert code == ResponseCode.READY and response["account"] == CHECKING_REF
        code, record = s.handle()
    assert code == ResponseCode.SUCCESS
    assert record["intent"] == "request_payment" and record["status"] == "pending"
    assert record["payer"] == TIM_COOK and record["currencyAmount"] == usd("20.00")
    assert record["note"] == "lunch" and record["account"] == CHECKING_REF
    assert balances(engine) == before  # nothing moves for a request
    # the payer does not become the most recent payee
    with engine.session(send(amount="1")) as s:
        assert param(s.resolve(), "payee")["value"]["id"] == "john-baily"
    # no payer: asked for, never suggested
    with engine.session({"intent": "request_payment", "currencyAmount": usd("20")}) as s:
        assert param(s.resolve(), "payer") == {"parameter": "payer", "result": "needsValue"}


def test_search_for_payments_by_party(engine):
    first = pay(engine, send({"id": "john-baily", "handle": "mobile"}, "15"))
    pay(engine, send({"id": "tim-cook"}, "20"))
    second = pay(engine, send({"id": "john-baily", "handle": "home"}, "25"))
    request = pay(engine, {"intent": "request_payment",
                           "payer": {"id": "john-baily", "handle": "work"},
                           "currencyAmount": usd("5")})

    with engine.session({"intent": "search_for_payments", "party": {"name": "John Baily"}}) as s:
        r = s.resolve()
        assert r["intent"] == "search_for_payments"
        assert_complete(r)
        assert param(r, "party") == {"parameter": "party", "result": "success",
                                     "value": {"id": "john-baily", "displayName": "John Baily"}}
        code, response = s.confirm()
        assert code == ResponseCode.READY
        # newest first, as recorded; a request's payer is a party too
        assert response["result"] == {"payments": [request, second, first]}
        outcome = s.handle()
        assert outcome.code == ResponseCode.SUCCESS and outcome.record is None
        assert outcome.result == {"payments": [request, second, first]}

    code, response, outcome = search(engine, {"intent": "search_for_payments",
                                              "party": {"name": "John Baily"},
                                              "status": "pending"})
    assert outcome.result == {"payments": [request]}

    paid_on = first["createdAt"][:10]  # the UTC day of createdAt counts
    code, response, outcome = search(engine, {"intent": "search_for_payments",
                                              "dateRange": {"start": paid_on, "end": paid_on}})
    assert len(outcome.result["payments"]) == 4
    later = (datetime.date.fromisoformat(paid_on) + datetime.timedelta(days=1)).isoformat()
    code, response, outcome = search(engine, {"intent": "search_for_payments",
                                              "dateRange": {"start": later}})
    assert code == ResponseCode.FAILURE_PAYMENT_NOT_FOUND

    code, response, outcome = search(engine, {"intent": "search_for_payments",
                                              "party": {"name": "Craig Federighi"}})
    assert code == ResponseCode.FAILURE_PAYMENT_NOT_FOUND
    assert unsaid(response) == {"code": "failurePaymentNotFound", "result": {"payments": []}} and response["say"]


# ============================================= the binding's new surface


def test_response_codes_of_the_whole_domain():
    assert ResponseCode.FAILURE_BILL_NOT_FOUND == 14
    assert ResponseCode.FAILURE_ACCOUNT_NOT_FOUND == 15
    assert ResponseCode.FAILURE_PAYMENT_NOT_FOUND == 16
    assert [ResponseCode(n).sirikit_name for n in (14, 15, 16)] == [
        "failureBillNotFound", "failureAccountNotFound", "failurePaymentNotFound"]
    assert ResponseCode(17).name == "UNKNOWN_17"
    assert tender.result_name(204) == "TENDER_E_DIALOG_ENDED"
    assert tender.errors.error_class(204) is tender.DialogEndedError
    assert issubclass(tender.DialogEndedError, tender.TenderError)


def test_handle_outcome_is_the_pair_code_record():
    outcome = tender.HandleOutcome(ResponseCode.SUCCESS, None, {"bills": []})
    assert outcome == (ResponseCode.SUCCESS, None)
    code, record = outcome
    assert (code, record) == (ResponseCode.SUCCESS, None)
    assert outcome.code == ResponseCode.SUCCESS and outcome.result == {"bills": []}
    copy_ = pickle.loads(pickle.dumps(outcome))
    assert copy_ == outcome and copy_.result == {"bills": []}
    assert "bills" in repr(outcome)


def test_set_vocabulary_arguments(engine):
    with pytest.raises(tender.InvalidArgumentError):
        engine.set_vocabulary("nickname", [{"id": "x", "phrase": "y"}])
    with pytest.raises(tender.InvalidArgumentError):
        engine.set_vocabulary("contactName", [{"id": "x"}])  # no phrase
    with pytest.raises(tender.InvalidArgumentError):
        engine.set_vocabulary("contactName", [{"id": "x", "phrase": "!!"}])
    with pytest.raises(TypeError):
        engine.set_vocabulary("contactName")
    with pytest.raises(TypeError):
        engine.set_vocabulary(42, [])
    with pytest.raises(TypeError):
        engine.set_vocabulary("contactName", {"id": "x", "phrase": "y"})
    # a generator of items is fine; the first item of an id wins
    engine.set_vocabulary("contactName", (item for item in [
        {"id": "tim-cook", "phrase": "the boss"}, {"id": "tim-cook", "phrase": "the chief"}]))
    with engine.session(send({"name": "the boss"}, "1")) as s:
        assert param(s.resolve(), "payee")["value"]["id"] == "tim-cook"
    with engine.session(send({"name": "the chief"}, "1")) as s:
        assert param(s.resolve(), "payee")["result"] == "unsupported"


def test_the_new_calls_on_a_closed_engine(tmp_path):
    engine = tender.Engine(tmp_path / "h", authentication=NO_AUTH)
    engine.close()
    for call in (lambda: engine.set_signed_in(True),
                 lambda: engine.set_vocabulary("contactName", []),
                 lambda: engine.remove_from_directory(contacts=["x"])):
        with pytest.raises(tender.ClosedError):
            call()


# ============================================= later status changes


def ledger_types(engine):
    return [entry["type"] for entry in engine.ledger()]


def test_a_request_completes_and_its_money_arrives(engine):
    from test_ledger import python_verify
    before = balance(engine, "checking")
    request = pay(engine, {"intent": "request_payment", "payer": {"id": "tim-cook"}, "currencyAmount": usd("20")})
    assert balance(engine, "checking") == before
    entry = engine.set_payment_status(request["idempotencyKey"], "completed")
    assert entry["type"] == "payment_status" and entry["payment"] == request["sequence"]
    assert entry["idempotencyKey"] == request["idempotencyKey"] and entry["id"] == request["id"]
    assert entry["previousStatus"] == "pending" and entry["status"] == "completed"
    assert float(balance(engine, "checking")) == float(before) + 20
    # the history shows the status it has now
    _, response, _ = search(engine, {"intent": "search_for_payments", "status": "completed"})
    assert [p["id"] for p in response["result"]["payments"]] == [request["id"]]
    # asking again records nothing; a final status does not change
    again = engine.set_payment_status(request["idempotencyKey"], "completed")
    assert again == entry and again.jws == entry.jws
    with pytest.raises(tender.WrongStateError):
        engine.set_payment_status(request["idempotencyKey"], "canceled")
    assert ledger_types(engine) == ["balances", "payment", "payment_status"]
    assert engine.verify()["valid"]
    # an independent JOSE library verifies the status entry like any record
    jwk = engine.public_key("jwk")
    payloads = python_verify([e["jws"] for e in engine.ledger()], {jwk["kid"]: jwk}, root=jwk["kid"])
    assert payloads[2] == dict(entry)


def test_canceling_a_scheduled_bill_payment_gives_the_money_back(engine):
    before = balance(engine, "checking")
    record = pay(engine, {"intent": "pay_bill", "billPayee": {"id": "electric-main"},
                          "transactionAmount": {"amountType": "amountDue"}, "transactionScheduledDate": day(TOMORROW)})
    assert record["status"] == "pending" and bill(engine, "electric-main-bill")["status"] == "pending"
    assert balance(engine, "checking") != before
    entry = engine.set_payment_status(record["idempotencyKey"], "canceled")
    assert entry["status"] == "canceled" and entry.jws.count(".") == 2
    assert balance(engine, "checking") == before
    assert bill(engine, "electric-main-bill")["status"] == "unpaid"
    assert "paymentDate" not in bill(engine, "electric-main-bill")
    # the bill can be paid again
    assert pay(engine, {"intent": "pay_bill", "billPayee": {"id": "electric-main"},
                        "transactionAmount": {"amountType": "amountDue"}})["status"] == "completed"
    assert engine.verify()["records"] == 4


def test_status_changes_that_cannot_be_made_change_nothing(engine):
    done = pay(engine, send({"id": "tim-cook"}, "5"))
    start = balances(engine)
    pending = pay(engine, {"intent": "transfer_money", "fromAccount": {"id": "checking"}, "toAccount": {"id": "savings"},
                           "transactionAmount": {"amount": usd("10")}, "transactionScheduledDate": day(TOMORROW)})
    before = balances(engine)
    with pytest.raises(tender.WrongStateError, match="is completed"):
        engine.set_payment_status(done["idempotencyKey"], "failed")
    with pytest.raises(tender.NotFoundError):
        engine.set_payment_status("no-such-key", "failed")
    with pytest.raises(tender.InvalidArgumentError):
        engine.set_payment_status(pending["idempotencyKey"], "refunded")
    with pytest.raises(tender.InvalidUTF8Error):
        engine.set_payment_status(b"\xff\xfe", "failed")
    with pytest.raises(TypeError):
        engine.set_payment_status(pending["idempotencyKey"], None)
    assert balances(engine) == before and ledger_types(engine) == ["balances", "payment", "payment"]
    # a failed scheduled transfer gives back both sides (and the fee)
    assert before != start
    engine.set_payment_status(pending["idempotencyKey"], "failed")
    assert balances(engine) == start
