# SPDX-License-Identifier: Apache-2.0
"""Understanding requests in words through the Python binding: ``tender.parse``
(no engine), ``Engine.parse``, ``Engine.parse_alternatives``, shortcuts and
``Engine.session_from_text`` (docs/understanding.md, include/tender.h
"understanding").

Dates are computed here, independently of the library, relative to
``datetime.date.today()`` (the library counts days in the process's local
time zone, as Python does). A result that looks wrong (a defect of
understanding, not of the test) is a failing test, never a weakened one.
"""
import base64
import calendar
import copy
import datetime
import json
from ctypes import byref, c_size_t, c_void_p

import pytest

import libtender as tender

NO_AUTH = {"restrictedIntents": []}

DIRECTORY = {
    "contacts": [
        {"id": "john-appleseed", "displayName": "John Appleseed",
         "handles": [{"id": "john-appleseed-mobile", "label": "mobile", "type": "phone",
                      "value": "+1 408 555 0100"}]},
        {"id": "john-baily", "displayName": "John Baily",
         "handles": [{"id": "john-baily-home", "label": "home", "type": "phone", "value": "+1 408 555 0111"},
                     {"id": "john-baily-mobile", "label": "mobile", "type": "phone",
                      "value": "+1 408 555 0112"}]},
        {"id": "tim-cook", "displayName": "Tim Cook",
         "handles": [{"id": "tim-cook-work", "label": "work", "type": "email", "value": "tim@example.com"}]},
    ],
    "accounts": [
        {"id": "checking", "nickname": "Checking", "organizationName": "Simple Bank", "type": "checking",
         "balance": {"amount": "2500.00", "currency": "USD"}, "default": True},
        {"id": "safe-to-spend", "nickname": "Safe-to-Spend", "organizationName": "Simple Bank",
         "type": "checking", "balance": {"amount": "412.35", "currency": "USD"}},
        {"id": "nest-egg", "nickname": "NestEgg", "organizationName": "Simple Bank", "type": "saving",
         "balance": {"amount": "15000.00", "currency": "USD"}},
        {"id": "travel-card", "nickname": "Travel Card", "organizationName": "Sky Miles Bank",
         "type": "credit", "balance": {"amount": "0.00", "currency": "USD"}, "miles": 42000, "points": 1200},
    ],
    "billPayees": [
        {"id": "electric", "organizationName": "Electric Company", "accountNumber": "EC-1001"},
        {"id": "city-water", "organizationName": "City Water", "accountNumber": "CW-77"},
    ],
    "bills": [
        {"id": "electric-bill", "billPayee": "electric", "type": "electricity", "status": "unpaid",
         "amountDue": {"amount": "84.20", "currency": "USD"}, "minimumDue": {"amount": "25.00", "currency": "USD"},
         "dueDate": "2099-01-31"},
        {"id": "water-bill", "billPayee": "city-water", "type": "water", "status": "unpaid",
         "amountDue": {"amount": "30.00", "currency": "USD"}, "dueDate": "2099-02-28"},
    ],
}

RESULT_KEYS = {"intent", "parameters", "text", "language", "source", "score", "namedApp"}


def new_engine(home):
    eng = tender.Engine(home, authentication=NO_AUTH)
    eng.import_directory(copy.deepcopy(DIRECTORY))
    return eng


@pytest.fixture(scope="module")
def engine(tmp_path_factory):
    """One engine with the directory above, for tests that only parse and
    resolve (nothing is handled on it)."""
    eng = new_engine(tmp_path_factory.mktemp("understanding") / "home")
    yield eng
    eng.close()


@pytest.fixture
def fresh_engine(tmp_path):
    """An engine of its own, for tests that change the store."""
    eng = new_engine(tmp_path / "home")
    yield eng
    eng.close()


def on_a_stable_day(parse):
    """(result of parse(), the day it ran on), retried across midnight."""
    for _ in range(3):
        before = datetime.date.today()
        result = parse()
        if datetime.date.today() == before:
            return result, before
    raise AssertionError("the date kept changing")


def first_of_next_month(day):
    return (day.replace(day=28) + datetime.timedelta(days=4)).replace(day=1)


def parameter(resolution, name):
    return next(p for p in resolution["parameters"] if p["parameter"] == name)


def resolve_text(engine, text):
    with engine.session_from_text(text) as session:
        return session.resolve()


def name_of(person):
    return person["name"].lower()


# ------------------------------------------------------------------ the result


def test_the_result_is_a_dict_with_attribute_access():
    result = tender.parse("send $50 to Sam for dinner")
    assert isinstance(result, tender.ParseResult) and isinstance(result, dict)
    assert set(result) == RESULT_KEYS
    assert result == json.loads(json.dumps(result))  # plain JSON values
    assert result.intent == result["intent"] == "send_payment"
    assert result.parameters == result["parameters"]
    assert result.text == "send $50 to Sam for dinner"
    assert result.language == "en"
    assert result.source == "model"
    assert isinstance(result.score, float) and 0.99 <= result.score <= 1.0  # send_payment's probability
    assert result.named_app is False and result["namedApp"] is False
    assert result.in_scope
    document = result.intent_document()
    assert document == {"intent": "send_payment", **result["parameters"]}
    document["payee"]["name"] = "changed"  # a copy: the result is untouched
    assert result.parameters["payee"]["name"] == "sam"


def test_an_out_of_scope_result_has_no_parameters_and_no_intent_document():
    result = tender.parse("what's the weather like tomorrow")
    assert set(result) == RESULT_KEYS
    assert result.intent == "out_of_scope"
    assert result.parameters is None
    assert not result.in_scope
    assert result.intent_document() is None


def test_a_parse_result_starts_the_same_session_as_session_from_text(engine):
    text = "send $20 to John Baily for dinner"
    result = engine.parse(text)
    with engine.session(result.intent_document()) as a, engine.session_from_text(text) as b:
        assert a.resolve() == b.resolve()


def test_a_transfer_that_names_nobody_asks_where_the_money_goes(engine):
    # docs/dialog.md, "Where the money goes": the sentences of issue 31, refused as out of scope before.
    for text in ["can you do a transfer for me", "I'd like to do a money transfer", "Could you set up a transfer?"]:
        result = engine.parse(text)
        assert result.intent in ("send_payment", "transfer_money"), (text, result)
        assert result.parameters.get("askDestination") is True, (text, result)
        assert result.intent_document()["askDestination"] is True
        with engine.session_from_text(text) as session:
            [question] = session.resolve()["parameters"]
            assert question == {"parameter": "intent", "result": "disambiguation", "prompt": "destination",
                                "options": [{"id": "send_payment", "label": "To someone else", "say": "To someone else"},
                                            {"id": "transfer_money", "label": "Between your own accounts",
                                             "say": "Between your own accounts"}],
                                "message": "To someone else, or between your own accounts?",
                                "say": "To someone else, or between your own accounts?"}
            with pytest.raises(tender.WrongStateError):
                session.confirm()
            session.choose("intent", "send_payment")
            resolution = session.resolve()
            assert resolution["intent"] == "send_payment"
            assert parameter(resolution, "payee")["result"] == "needsValue"


def test_text_without_words_is_out_of_scope_with_source_none(engine):
    for text in ["", "   ", "$50", "!!!"]:
        for result in (tender.parse(text), engine.parse(text)):
            assert result.intent == "out_of_scope", text
            assert result.parameters is None
            assert result.source == "none"
            assert result.score == 0


# --------------------------------------------------------------------- amounts


@pytest.mark.parametrize("said, amount, currency", [
    ("$50", "50.00", "USD"),
    ("50 bucks", "50.00", "USD"),
    ("fifty dollars", "50.00", "USD"),
    ("$1,250.50", "1250.50", "USD"),
    ("1,250.50 dollars", "1250.50", "USD"),
    ("twelve dollars and 5 cents", "12.05", "USD"),
    ("twelve dollars and five cents", "12.05", "USD"),
    ("€20", "20.00", "EUR"),
    ("20 euros", "20.00", "EUR"),
    ("£5", "5.00", "GBP"),
    ("a hundred bucks", "100.00", "USD"),
    ("one hundred and fifty dollars", "150.00", "USD"),
    ("$0.99", "0.99", "USD"),
    ("¥500", "500", "JPY"),
])
def test_amounts_are_exact_decimal_strings(said, amount, currency):
    result = tender.parse(f"send {said} to Sam")
    assert result.intent == "send_payment", result
    money = result.parameters["currencyAmount"]
    assert money == {"amount": amount, "currency": currency}
    assert isinstance(money["amount"], str)
    assert result.parameters["payee"] == {"name": "sam"}  # as said, in lower case (docs/understanding.md)


def test_a_bare_grouped_number_counts_for_a_person_the_directory_knows(engine):
    result = engine.parse("pay John Baily 1,250.50")
    assert result.intent == "send_payment", result
    assert result.parameters["currencyAmount"] == {"amount": "1250.50", "currency": "USD"}
    assert name_of(result.parameters["payee"]) == "john baily"


def test_a_bare_number_to_a_stranger_is_a_payment_to_resolve():
    # docs/understanding.md: no currency said is no reason to refuse; resolution then looks for "sam" and asks.
    result = tender.parse("send 1,250.50 to Sam")
    assert result.intent == "send_payment" and result.parameters["payee"] == {"name": "sam"}
    assert result.parameters["currencyAmount"] == {"amount": "1250.50", "currency": "USD"}
    assert tender.parse("send 1,250.50 dollars to Sam").intent == "send_payment"


def test_an_amount_with_too_many_decimals_is_never_rounded():
    result = tender.parse("send $5.999 to Sam")
    assert not (result.parameters or {}).get("currencyAmount"), result


# ----------------------------------------------------------------------- dates


def test_pay_my_electric_bill_tomorrow(engine):
    result, today = on_a_stable_day(lambda: engine.parse("pay my electric bill tomorrow"))
    assert result.intent == "pay_bill", result
    assert result.parameters["transactionScheduledDate"] == (today + datetime.timedelta(days=1)).isoformat()
    assert result.parameters["billType"] == "electricity"


def test_pay_on_the_15th_is_the_next_15th():
    result, today = on_a_stable_day(lambda: tender.parse("pay my electric bill on the 15th"))
    expected = today.replace(day=15) if today.day <= 15 else first_of_next_month(today).replace(day=15)
    assert result.intent == "pay_bill", result
    assert result.parameters["transactionScheduledDate"] == expected.isoformat()


def test_next_friday_is_the_coming_friday():
    result, today = on_a_stable_day(lambda: tender.parse("pay my water bill next Friday"))
    ahead = (4 - today.weekday()) % 7 or 7  # strictly after today
    assert result.intent == "pay_bill", result
    assert result.parameters["transactionScheduledDate"] == (today + datetime.timedelta(days=ahead)).isoformat()
    assert datetime.date.fromisoformat(result.parameters["transactionScheduledDate"]).weekday() == 4


def test_what_bills_are_due_this_month(engine):
    result, today = on_a_stable_day(lambda: engine.parse("what bills are due this month"))
    last = calendar.monthrange(today.year, today.month)[1]
    assert result.intent == "search_for_bills", result
    assert result.parameters["dueDateRange"] == {"start": today.replace(day=1).isoformat(),
                                                 "end": today.replace(day=last).isoformat()}


def test_payments_last_week_are_last_monday_to_sunday(engine):
    result, today = on_a_stable_day(lambda: engine.parse("show my payments from last week"))
    monday = today - datetime.timedelta(days=today.weekday() + 7)
    assert result.intent == "search_for_payments", result
    assert result.parameters["dateRange"] == {"start": monday.isoformat(),
                                              "end": (monday + datetime.timedelta(days=6)).isoformat()}


def test_a_past_day_is_not_a_scheduled_date():
    result = tender.parse("pay my electric bill yesterday")
    assert result.intent == "pay_bill", result
    assert "transactionScheduledDate" not in result.parameters


# ------------------------------------------------- people, payees and accounts


def test_a_contact_of_the_directory_resolves_at_once(engine):
    result = engine.parse("send $20 to John Baily for dinner")
    assert result.intent == "send_payment"
    assert name_of(result.parameters["payee"]) == "john baily"
    assert result.parameters["note"] == "dinner"
    resolution = resolve_text(engine, "send $20 to John Baily for dinner")
    payee = parameter(resolution, "payee")
    assert payee["result"] == "disambiguation" and payee["prompt"] == "handle"  # the person is settled
    assert {o["id"] for o in payee["options"]} == {"john-baily-home", "john-baily-mobile"}


def test_a_first_name_shared_by_two_contacts_asks_which(engine):
    result = engine.parse("send $20 to John")
    assert name_of(result.parameters["payee"]) == "john"
    payee = parameter(resolve_text(engine, "send $20 to John"), "payee")
    assert payee["result"] == "disambiguation" and payee["prompt"] == "person"
    assert [o["id"] for o in payee["options"]] == ["john-appleseed", "john-baily"]


def test_a_known_person_needs_no_currency(engine):
    result = engine.parse("send John 20")
    assert result.intent == "send_payment", result
    assert result.parameters["currencyAmount"] == {"amount": "20.00", "currency": "USD"}


def test_a_request_names_the_payer_and_the_note(engine):
    result = engine.parse("ask Tim for $20 for lunch")
    assert result.intent == "request_payment", result
    assert name_of(result.parameters["payer"]) == "tim"
    assert result.parameters["note"] == "lunch"
    payer = parameter(resolve_text(engine, "ask Tim for $20 for lunch"), "payer")
    assert payer["result"] == "success" and payer["value"]["id"] == "tim-cook"


def test_pay_my_electric_company_bill_finds_the_payee(engine):
    result = engine.parse("pay my Electric Company bill")
    assert result.intent == "pay_bill", result
    assert name_of(result.parameters["billPayee"]) == "electric company"
    payee = parameter(resolve_text(engine, "pay my Electric Company bill"), "billPayee")
    assert payee["result"] == "success" and payee["value"]["id"] == "electric"


def test_the_safe_to_spend_balance(engine):
    result = engine.parse("what's my safe to spend balance")
    assert result.intent == "search_for_accounts", result
    assert result.parameters["accountNickname"] == "Safe-to-Spend"  # the directory's spelling
    with engine.session_from_text("what's my safe to spend balance") as session:
        code, response = session.confirm()
    assert code == tender.ResponseCode.READY
    accounts = response["result"]["accounts"]
    assert [a["id"] for a in accounts] == ["safe-to-spend"]
    assert accounts[0]["balance"] == {"type": "money", "amount": {"amount": "412.35", "currency": "USD"}}


@pytest.mark.parametrize("text", ["what's my NestEgg balance", "how much is in my nest egg"])
def test_an_account_nickname_said_in_any_spacing(engine, text):
    result = engine.parse(text)
    assert result.intent == "search_for_accounts", result
    assert result.parameters["accountNickname"] == "NestEgg"


def test_how_many_miles_do_i_have(engine):
    result = engine.parse("how many miles do I have")
    assert result.intent == "search_for_accounts", result
    assert result.parameters["requestedBalanceType"] == "miles"
    with engine.session_from_text("how many miles do I have") as session:
        code, response = session.confirm()
    assert code == tender.ResponseCode.READY
    assert response["result"]["accounts"] == [
        {"id": "travel-card", "nickname": "Travel Card", "organizationName": "Sky Miles Bank", "type": "credit",
         "balance": {"type": "miles", "amount": 42000}}]


def test_a_transfer_between_accounts_of_the_directory(engine):
    result = engine.parse("move $100 from checking to NestEgg")
    assert result.intent == "transfer_money", result
    assert result.parameters["fromAccount"] == {"id": "checking"}
    assert result.parameters["toAccount"] == {"id": "nest-egg"}
    assert result.parameters["transactionAmount"] == {"amount": {"amount": "100.00", "currency": "USD"}}


@pytest.mark.parametrize("text", ["transfer $200 from checking to NestEgg", "transfer $200 from checking to nest egg",
                                  "transfer $200 to NestEgg", "send $200 to NestEgg"])
def test_an_account_nickname_after_to_is_not_a_person(engine, text):
    result = engine.parse(text)
    assert result.intent == "transfer_money", result
    assert result.parameters["toAccount"] == {"id": "nest-egg"}
    assert result.parameters["transactionAmount"] == {"amount": {"amount": "200.00", "currency": "USD"}}


def test_the_documented_safe_to_spend_question(engine):
    result = engine.parse("What's my Safe-to-Spend?")
    assert result.intent == "search_for_accounts", result
    assert result.parameters["accountNickname"] == "Safe-to-Spend"


def test_pay_a_bill_payee_by_name(engine):
    result = engine.parse("pay Electric Company $50")
    assert result.intent == "pay_bill", result
    assert name_of(result.parameters["billPayee"]) == "electric company"
    assert result.parameters["transactionAmount"] == {"amount": {"amount": "50.00", "currency": "USD"}}


def test_a_misheard_surname_is_kept(engine):
    result = engine.parse("send $20 to John Bailey")
    assert name_of(result.parameters["payee"]) == "john bailey"


# ------------------------------------------------ bill types and amount types


@pytest.mark.parametrize("text, bill_type, payee_id", [
    ("pay my water bill", "water", "city-water"),
    ("pay my electric bill", "electricity", "electric"),
])
def test_bill_types(engine, text, bill_type, payee_id):
    result = engine.parse(text)
    assert result.intent == "pay_bill", result
    assert result.parameters["billType"] == bill_type
    assert parameter(resolve_text(engine, text), "billPayee")["value"]["id"] == payee_id


@pytest.mark.parametrize("text, amount_type, amount", [
    ("pay the minimum on my electric bill", "minimumDue", "25.00"),
    ("pay the full balance on my electric bill", "amountDue", "84.20"),
])
def test_amount_types(engine, text, amount_type, amount):
    result = engine.parse(text)
    assert result.intent == "pay_bill", result
    assert result.parameters["transactionAmount"] == {"amountType": amount_type}
    resolution = resolve_text(engine, text)
    assert resolution["complete"], resolution
    assert parameter(resolution, "transactionAmount")["value"] == {
        "amountType": amount_type, "amount": {"amount": amount, "currency": "USD"}}


# ----------------------------------------------------------- notes, app name


@pytest.mark.parametrize("text, note", [
    ("send $20 to Sam for dinner", "dinner"),
    ("send $20 to Sam for the dinner tomorrow", "dinner"),
    ("send $20 to Sam", None),
])
def test_notes(text, note):
    result = tender.parse(text)
    assert result.intent == "send_payment", result
    assert result.parameters.get("note") == note


@pytest.mark.parametrize("text, named", [
    ("send $20 to Tim with Tender", True),
    ("send $20 to Tim using Tender", True),
    ("Tender, send $20 to Tim", True),
    ("send $20 to Tim", False),
])
def test_the_app_name_is_noted_and_never_part_of_the_payee(engine, text, named):
    for result in (engine.parse(text), tender.parse(text)):
        assert result.intent == "send_payment", result
        assert result.named_app is named
        assert name_of(result.parameters["payee"]) == "tim"
        assert result.text == text
    payee = parameter(resolve_text(engine, text), "payee")
    assert payee["result"] == "success" and payee["value"]["id"] == "tim-cook"


# ----------------------------------------------------------------- n-best lists


def test_the_in_scope_hearing_wins_over_an_out_of_scope_one(engine):
    result = engine.parse_alternatives(["what's the weather in Boston", "send $5 to Tim Cook"])
    assert result.intent == "send_payment", result
    assert result.text == "send $5 to Tim Cook"
    assert name_of(result.parameters["payee"]) == "tim cook"


def test_other_hearings_of_the_name_are_kept_as_alternatives(engine):
    result = engine.parse_alternatives([("send $20 to Jon", 0.9), ("send $20 to Jonah", 0.8),
                                        ("send $20 to Joan", 0.5)])
    assert result.intent == "send_payment", result
    assert result.text == "send $20 to Jon"
    payee = result.parameters["payee"]
    assert name_of(payee) == "jon"
    assert [a.lower() for a in payee["alternatives"]] == ["jonah", "joan"]


def test_the_host_score_orders_hearings_of_the_same_kind(engine):
    result = engine.parse_alternatives([("send $20 to Jonah", 0.2), ("send $20 to Jon", 0.9)])
    assert result.text == "send $20 to Jon"
    assert [a.lower() for a in result.parameters["payee"]["alternatives"]] == ["jonah"]


def test_alternatives_as_dicts_and_as_a_document(engine):
    a = engine.parse_alternatives([{"text": "send $5 to Tim", "score": 0.7}])
    b = engine.parse_alternatives({"alternatives": [{"text": "send $5 to Tim"}]})
    c = engine.parse_alternatives(b'{"alternatives": [{"text": "send $5 to Tim"}]}')
    assert a.intent == b.intent == c.intent == "send_payment"
    assert a.parameters == b.parameters == c.parameters == engine.parse("send $5 to Tim").parameters


def test_no_hearing_in_scope_is_out_of_scope(engine):
    result = engine.parse_alternatives(["play some music", "pay some music"])
    assert result.intent == "out_of_scope" and result.parameters is None


def test_alternatives_keep_whole_names(engine):
    result = engine.parse_alternatives(["send $20 to John Baily", "send $20 to John Bailey",
                                        "send $20 to Jon Baily"])
    assert [a.lower() for a in result.parameters["payee"]["alternatives"]] == ["john bailey", "jon baily"]


@pytest.mark.parametrize("bad, error", [
    ([], tender.InvalidArgumentError),
    (["send $5 to Tim"] * 11, tender.InvalidArgumentError),
    ([("send $5 to Tim", 1.5)], tender.InvalidArgumentError),
    ([("send $5 to Tim", -0.1)], tender.InvalidArgumentError),
    ([("send $5 to Tim", "0.5")], tender.InvalidArgumentError),
    ([{"text": "send $5 to Tim", "extra": 1}], tender.InvalidArgumentError),
    (["x" * 1001], tender.InvalidArgumentError),
    (b'{"alternatives": [', tender.InvalidJSONError),
    (b'{"alternatives": [{"text": "\xff"}]}', tender.InvalidUTF8Error),
    ("send $5 to Tim", TypeError),
    ([42], TypeError),
])
def test_bad_alternatives_are_refused(engine, bad, error):
    with pytest.raises(error):
        engine.parse_alternatives(bad)


def test_ten_alternatives_are_accepted(engine):
    result = engine.parse_alternatives([f"send ${n} to Tim" for n in range(1, 11)])
    assert result.parameters["currencyAmount"] == {"amount": "1.00", "currency": "USD"}


# ------------------------------------------------------------------- shortcuts


COFFEE = {"intent": "send_payment", "payee": {"name": "Tim Cook"},
          "currencyAmount": {"amount": "4.50", "currency": "USD"}, "note": "coffee"}


def test_a_shortcut_wins_before_anything_else(fresh_engine):
    eng = fresh_engine
    assert eng.parse("coffee expense").intent == "out_of_scope"
    eng.add_shortcut("coffee expense", COFFEE)
    for said in ["coffee expense", "Coffee-Expense!", "  COFFEE   expense. "]:
        result = eng.parse(said)
        assert result.source == "shortcut", said
        assert result.intent == "send_payment"
        assert result.intent_document() == COFFEE
        assert result.score == 1.0
    assert eng.parse("coffee expense with Tender").named_app is True
    assert eng.parse("coffee expense with Tender").source == "shortcut"
    # before the models: a phrase the models read as a send_payment
    assert eng.parse("send $50 to John").intent == "send_payment"
    eng.add_shortcut("send $50 to John", {"intent": "request_payment", "payer": {"id": "tim-cook"},
                                          "currencyAmount": {"amount": "1", "currency": "USD"}})
    result = eng.parse("send $50 to John")
    assert (result.intent, result.source) == ("request_payment", "shortcut")
    assert result.parameters == {"payer": {"id": "tim-cook"}, "currencyAmount": {"amount": "1", "currency": "USD"}}
    # only the whole phrase
    assert eng.parse("coffee expense please").source != "shortcut"
    # engine-less parsing has no shortcuts
    assert tender.parse("coffee expense").intent == "out_of_scope"


def test_a_shortcut_is_replaced_removed_and_kept_in_the_store(tmp_path):
    home = tmp_path / "home"
    eng = new_engine(home)
    eng.add_shortcut("coffee expense", COFFEE)
    eng.add_shortcut({"phrase": "Coffee  Expense", "intent": {"intent": "search_for_accounts",
                                                              "accountNickname": "Checking"}})
    assert eng.parse("coffee expense").intent_document() == {"intent": "search_for_accounts",
                                                             "accountNickname": "Checking"}
    eng.add_shortcut("water", json.dumps({"intent": "pay_bill", "billPayee": {"id": "city-water"}}))
    eng.close()

    eng = tender.Engine(home, authentication=NO_AUTH)  # reopened: the shortcuts are in the store
    try:
        assert eng.parse("Coffee expense").intent == "search_for_accounts"
        assert eng.parse("water").intent_document() == {"intent": "pay_bill", "billPayee": {"id": "city-water"}}
        with eng.session_from_text("water") as session:
            assert parameter(session.resolve(), "billPayee")["value"]["id"] == "city-water"
        eng.remove_shortcut("COFFEE EXPENSE")
        assert eng.parse("coffee expense").source != "shortcut"
        with pytest.raises(tender.NotFoundError):
            eng.remove_shortcut("coffee expense")
        with pytest.raises(tender.NotFoundError):
            eng.remove_shortcut("never registered")
        assert eng.parse("water").source == "shortcut"  # the other one stays
    finally:
        eng.close()


@pytest.mark.parametrize("phrase, intent, error", [
    ("", COFFEE, tender.InvalidArgumentError),
    ("!!!", COFFEE, tender.InvalidArgumentError),
    ("x" * 201, COFFEE, tender.InvalidArgumentError),
    ("ok", {"intent": "fly_to_the_moon"}, tender.UnknownIntentError),
    ("ok", {"intent": "send_payment", "currencyAmount": {"amount": "-5", "currency": "USD"}},
     tender.InvalidAmountError),
    ("ok", {"intent": "send_payment", "currencyAmount": {"amount": "5", "currency": "XYZ"}},
     tender.UnknownCurrencyError),
    ("ok", {"intent": "send_payment", "bogus": 1}, tender.InvalidArgumentError),
    ("ok", "{not json", tender.InvalidJSONError),
    ("ok", 42, TypeError),
    ("ok", None, TypeError),
])
def test_bad_shortcuts_are_refused_and_register_nothing(fresh_engine, phrase, intent, error):
    with pytest.raises(error):
        fresh_engine.add_shortcut(phrase, intent)
    assert fresh_engine.parse("ok").source != "shortcut"


def test_bad_shortcut_documents_are_refused(fresh_engine):
    with pytest.raises(tender.InvalidJSONError):
        fresh_engine.add_shortcut(b'{"phrase": "ok", ')
    with pytest.raises(tender.InvalidArgumentError):
        fresh_engine.add_shortcut({"phrase": "ok"})
    with pytest.raises(tender.InvalidArgumentError):
        fresh_engine.add_shortcut({"phrase": "ok", "intent": COFFEE, "extra": True})
    with pytest.raises(tender.InvalidUTF8Error):
        fresh_engine.add_shortcut(b'{"phrase": "\xff", "intent": {"intent": "search_for_bills"}}')


# --------------------------------------------------------------------- Spanish


def test_spanish_send_payment():
    result = tender.parse("envía 50 dólares a Juan para la cena")
    assert result.intent == "send_payment", result
    assert result.language == "es"
    assert result.source == "model"
    assert name_of(result.parameters["payee"]) == "juan"
    assert result.parameters["currencyAmount"] == {"amount": "50.00", "currency": "USD"}
    assert result.parameters["note"] == "cena"


def test_spanish_pay_bill(engine):
    for result in (tender.parse("paga mi factura de la luz"), engine.parse("paga mi factura de la luz")):
        assert result.intent == "pay_bill", result
        assert result.language == "es"
        assert result.parameters["billType"] == "electricity"


@pytest.mark.parametrize("text", ["quiero reservar una mesa para dos personas", "pon música de la radio",
                                  "envía un mensaje a Juan"])
def test_unrelated_spanish_is_out_of_scope(engine, text):
    for result in (tender.parse(text), engine.parse(text)):
        assert result.intent == "out_of_scope", result
        assert result.parameters is None
        assert result.language == "es"


def test_a_spanish_weather_question_is_spanish():
    result = tender.parse("¿qué tiempo hace hoy en Madrid?")
    assert result.intent == "out_of_scope"
    assert result.language == "es"


# ----------------------------------------------------------------- out of scope


@pytest.mark.parametrize("text", [
    "what's the weather like tomorrow", "play some jazz music", "freeze my card", "change my PIN",
    "send a text to John", "send a message to John Baily saying I'm late",
])
def test_requests_tender_does_not_handle_start_nothing(fresh_engine, text):
    result = fresh_engine.parse(text)
    assert result.intent == "out_of_scope", result
    assert result.parameters is None
    with pytest.raises(tender.OutOfScopeError) as caught:
        fresh_engine.session_from_text(text)
    assert caught.value.code == 108 == tender.ResultCode.OUT_OF_SCOPE
    assert caught.value.name == "TENDER_E_OUT_OF_SCOPE"
    assert fresh_engine.payments() == []
    assert [e["type"] for e in fresh_engine.ledger()] == ["balances"]  # the directory's, nothing more


UNRELATED = [
    "will it rain on the 15th", "play the next song", "set an alarm for 7 am", "what time is it in Tokyo",
    "how tall is the Eiffel tower", "text Tim that I'm on my way", "call John Appleseed",
    "remind me to pay attention in class", "order a pizza for dinner", "book a table for two tomorrow",
    "give me directions to the bank", "turn off the lights", "send the photos to John", "tell me a joke",
    "translate fifty dollars into Spanish", "who won the game last week", "open the garage door",
    "lock my card", "cancel my card", "report my card stolen", "increase my credit limit",
    "what is my credit score", "how do I pay for college", "Sam owes me an apology",
    "I paid a visit to my grandmother last week", "give John a call tomorrow", "send my love to John",
    "find a nearby ATM", "what's the exchange rate for euros", "convert 20 euros to dollars",
    "how much is $50 in euros", "I need 5 dollars worth of gas", "open a new checking account",
    "dispute a charge on my card", "how many miles is it to Boston",
]

# Sentences that once started an intent (false accepts of the old rules).
ONCE_ACCEPTED = [
    "transfer the files to my laptop",
    "what's the balance of power in congress",
    "pay it forward",
    "what are the best savings accounts",
]


def test_unrelated_sentences_are_out_of_scope_but_for_a_measured_few(engine):
    # The model is measured on these look-alikes as a whole, never tuned sentence by sentence
    # (docs/understanding.md): at most one in five may start an intent (3 of 39 when last trained).
    texts = UNRELATED + ONCE_ACCEPTED
    accepted = []
    for text in texts:
        for result in (engine.parse(text), tender.parse(text)):
            assert (result.intent == "out_of_scope") == (result.parameters is None), result
            if result.intent != "out_of_scope" and text not in accepted:
                accepted.append(text)
    print(f"accepted {len(accepted)} of {len(texts)}: {accepted}")
    assert len(accepted) * 5 <= len(texts), accepted


# ------------------------------------------------------ a whole dialog from text


def test_session_from_text_runs_a_dialog_to_a_signed_record(fresh_engine):
    eng = fresh_engine
    with eng.session_from_text("send $20 to John for dinner") as session:
        assert isinstance(session, tender.Session) and session.engine is eng
        assert parameter(session.resolve(), "payee")["prompt"] == "person"
        session.choose("payee", "john-baily")
        assert parameter(session.resolve(), "payee")["prompt"] == "handle"
        session.choose("payee", "john-baily-mobile")
        assert session.resolve()["complete"]
        code, response = session.confirm()
        assert code == tender.ResponseCode.READY, response
        code, record = session.handle()
    assert code == tender.ResponseCode.SUCCESS
    assert record["intent"] == "send_payment"
    assert record["payee"]["id"] == "john-baily"
    assert record["payee"]["handle"]["id"] == "john-baily-mobile"
    assert record["currencyAmount"] == {"amount": "20.00", "currency": "USD"}
    assert record["note"] == "dinner"
    payload = record.jws.split(".")[1]
    assert json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4))) == record
    assert eng.verify()["records"] == 2
    assert eng.payments() == [record]
    balances = {a["id"]: a["balance"]["amount"] for a in eng.directory()["accounts"]}
    assert balances["checking"] == "2480.00"


def test_session_from_text_pays_a_bill_in_one_go(fresh_engine):
    with fresh_engine.session_from_text("pay the minimum on my electric bill") as session:
        code, _ = session.confirm()
        assert code == tender.ResponseCode.READY
        code, record = session.handle()
    assert code == tender.ResponseCode.SUCCESS
    assert record["intent"] == "pay_bill"
    assert record["billPayee"]["id"] == "electric"
    assert record["currencyAmount"] == {"amount": "25.00", "currency": "USD"}


def test_session_from_text_answers_a_search(fresh_engine):
    with fresh_engine.session_from_text("what bills are due this month") as session:
        code, response = session.confirm()
    # the directory's bills are due in 2099: none this month
    assert code == tender.ResponseCode.FAILURE_BILL_NOT_FOUND, response
    assert response["result"] == {"bills": []}


def test_out_of_scope_error_is_a_tender_error():
    assert tender.ResultCode.OUT_OF_SCOPE == 108
    assert tender.errors.error_class(108) is tender.OutOfScopeError
    assert issubclass(tender.OutOfScopeError, tender.TenderError)
    assert tender.result_name(108) == "TENDER_E_OUT_OF_SCOPE"
    assert "OutOfScopeError" in tender.__all__ and "parse" in tender.__all__


# ------------------------------------------------------------------ bad input


@pytest.mark.parametrize("bad", [b"send \xff$5 to Tim", b"\xc3", "send $5 to \ud800"])
def test_invalid_utf8_is_refused(engine, bad):
    with pytest.raises(tender.InvalidUTF8Error):
        tender.parse(bad)
    with pytest.raises(tender.InvalidUTF8Error):
        engine.parse(bad)
    with pytest.raises(tender.InvalidUTF8Error):
        engine.session_from_text(bad)
    with pytest.raises(tender.InvalidUTF8Error):
        engine.remove_shortcut(bad)


@pytest.mark.parametrize("bad", [None, 42, ["send $5 to Tim"], {"text": "send $5 to Tim"}])
def test_text_of_another_type_is_a_type_error(engine, bad):
    for call in (tender.parse, engine.parse, engine.session_from_text, engine.remove_shortcut):
        with pytest.raises(TypeError):
            call(bad)


def test_text_over_1000_characters_is_refused(engine):
    limit = "send $5 to Tim " + "a" * (1000 - len("send $5 to Tim "))
    assert len(limit) == 1000
    assert tender.parse(limit).intent in ("send_payment", "out_of_scope")
    assert engine.parse("é" * 1000).intent == "out_of_scope"  # characters, not bytes
    for text in (limit + "a", "é" * 1001):
        with pytest.raises(tender.InvalidArgumentError):
            tender.parse(text)
        with pytest.raises(tender.InvalidArgumentError):
            engine.parse(text)
        with pytest.raises(tender.InvalidArgumentError):
            engine.session_from_text(text)
        with pytest.raises(tender.InvalidArgumentError):
            engine.parse_alternatives([text])
    with pytest.raises(tender.TooLargeError):
        engine.parse("a" * (tender.MAX_INPUT_BYTES + 1))


def test_null_arguments_give_clean_errors_and_leave_outputs_untouched(engine):
    lib = tender._clib
    out, length = c_void_p(), c_size_t(7)
    with engine._use() as handle:
        assert lib.tender_parse(None, 5, byref(out), byref(length)) == 100
        assert lib.tender_parse(b"send $5 to Tim", 14, None, None) == 100
        assert lib.tender_engine_parse(None, b"send $5 to Tim", 14, byref(out), byref(length)) == 100
        assert lib.tender_engine_parse(handle, None, 3, byref(out), byref(length)) == 100
        assert lib.tender_engine_parse(handle, b"x", 1, None, byref(length)) == 100
        assert lib.tender_engine_parse_alternatives(handle, None, 3, byref(out), byref(length)) == 100
        assert lib.tender_engine_add_shortcut(None, b"{}", 2) == 100
        assert lib.tender_engine_add_shortcut(handle, None, 2) == 100
        assert lib.tender_engine_remove_shortcut(handle, None, 2) == 100
        assert lib.tender_engine_remove_shortcut(None, b"ok", 2) == 100
        assert lib.tender_session_new_from_text(handle, None, 3, byref(out)) == 100
        assert lib.tender_session_new_from_text(handle, b"send $5 to Tim", 14, None) == 100
        assert lib.tender_session_new_from_text(None, b"send $5 to Tim", 14, byref(out)) == 100
    assert out.value is None and length.value == 7
    assert tender.result_name(100) == "TENDER_E_NULL_ARGUMENT"


def test_a_closed_engine_is_not_called(tmp_path):
    eng = new_engine(tmp_path / "home")
    eng.close()
    for call in (lambda: eng.parse("send $5 to Tim"), lambda: eng.parse_alternatives(["send $5 to Tim"]),
                 lambda: eng.add_shortcut("ok", COFFEE), lambda: eng.remove_shortcut("ok"),
                 lambda: eng.session_from_text("send $5 to Tim")):
        with pytest.raises(tender.ClosedError):
            call()
