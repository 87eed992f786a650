# SPDX-License-Identifier: Apache-2.0
"""Custom intents end to end through the binding (docs/custom-intents.md):
both shipped examples from text, with the host's callables; the restricted,
money-moving round-up through a real PAM stack (pam_matrix) to a signed
record the ledger verifies; callback failures become CallbackError."""

import json
import os
import pwd

import pytest

import libtender as tender
from conftest import NO_AUTH

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXPENSE = os.path.join(ROOT, "examples", "intents", "expense.json")
ROUND_UP = os.path.join(ROOT, "examples", "intents", "round-up.json")
PAM_MATRIX = "/usr/lib/x86_64-linux-gnu/pam_wrapper/pam_matrix.so"
SERVICE = "tender-test"
PASSWORD = "right-Horse-Battery-7"
USER = pwd.getpwuid(os.geteuid()).pw_name
EXPENSES = {"vacation": "120.00", "groceries": "85.50", "coffee shop": "20.00", "coffee beans": "12.00"}


class ExpenseHost:
    """The host's side: the person's expenses, and a savings pot it moves money into."""

    def __init__(self):
        self.requests = []
        self.saved = 0

    def handle(self, request):
        self.requests.append(request)
        parameters = request["parameters"]
        if request["intent"] == "expense":
            left = EXPENSES.get(parameters["expense"])
            if left is None:
                return {"code": "failure"}
            return {"code": "success", "values": {"amountLeft": {"amount": left, "currency": "USD"}}}
        self.saved += int(parameters["amount"]["amount"].replace(".", ""))
        return {"code": "success"}

    def values(self, intent, parameter):
        assert (intent, parameter) == ("expense", "expense")
        return sorted(EXPENSES)


def open_engine(home, host, **kwargs):
    kwargs.setdefault("authentication", NO_AUTH)
    engine = tender.Engine(home, intents=[EXPENSE], handle_intent=host.handle, intent_values=host.values, **kwargs)
    engine.import_directory({"accounts": [{"id": "checking", "nickname": "Checking", "type": "checking",
                                           "balance": {"amount": "1000.00", "currency": "USD"}, "default": True}]})
    return engine


def test_expense_from_text_answers_in_the_persons_words(tmp_path):
    host = ExpenseHost()
    with open_engine(tmp_path / "home", host) as engine:
        parsed = engine.parse("how much can I still spend on vacation")
        assert parsed.intent == "expense" and parsed.parameters == {"expense": "vacation"}
        session = engine.session_from_text("how much can I still spend on vacation")
        assert session.resolve()["complete"]
        code, response = session.confirm()
        assert code == tender.ResponseCode.READY and "question" not in response
        outcome = session.handle()
        assert outcome.code == tender.ResponseCode.SUCCESS and outcome.record is None  # information: not recorded
        assert outcome.response["text"] == "You have $120 left in vacation."
        assert host.requests[0]["parameters"] == {"expense": "vacation"} and host.requests[0]["idempotencyKey"]
        assert engine.payments() == []


def test_expense_asks_in_the_definitions_words(tmp_path):
    host = ExpenseHost()
    with open_engine(tmp_path / "home", host) as engine:
        session = engine.session({"intent": "expense"})
        (item,) = session.resolve()["parameters"]
        assert item["result"] == "needsValue" and item["message"] == "Which expense?"
        session.supply("expense", "coffee")
        (item,) = session.resolve()["parameters"]
        assert item["result"] == "disambiguation" and item["message"] == "Which expense: coffee beans or coffee shop?"
        session.choose("expense", "coffee beans")
        assert session.resolve()["complete"]
        session.confirm()
        assert session.handle().response["text"] == "You have $12 left in coffee beans."
        unknown = engine.session({"intent": "expense", "expense": "yacht"})
        (item,) = unknown.resolve()["parameters"]
        assert item["result"] == "unsupported" and item["reason"] == "unknownExpense"
        assert item["message"] == "You have no expense called yacht."


def test_callback_exceptions_become_callback_errors(tmp_path):
    host = ExpenseHost()
    with open_engine(tmp_path / "home", host) as engine:
        def broken(intent, parameter):
            raise KeyError("the expenses service is down")
        engine.set_intent_host(host.handle, broken)
        with pytest.raises(tender.CallbackError) as raised:
            engine.session({"intent": "expense", "expense": "groceries"}).resolve()
        assert isinstance(raised.value.__cause__, KeyError)

        def wrong_code(request):
            return {"code": "splendid"}
        engine.set_intent_host(wrong_code, host.values)
        session = engine.session({"intent": "expense", "expense": "groceries"})
        session.resolve()
        session.confirm()
        with pytest.raises(tender.CallbackError, match="no code expense knows"):
            session.handle()

        def raising(request):
            raise RuntimeError("boom")
        engine.set_intent_host(raising, host.values)
        with pytest.raises(tender.CallbackError) as raised:
            session.handle()
        assert isinstance(raised.value.__cause__, RuntimeError)
        engine.set_intent_host(host.handle, host.values)
        assert session.handle().response["text"] == "You have $85.50 left in groceries."  # still confirmed: try again


def test_a_bad_definition_is_refused_and_opens_nothing(tmp_path):
    bad = json.loads(open(EXPENSE).read())
    bad["intents"][0]["shortcutTypes"] = []
    with pytest.raises(tender.InvalidArgumentError, match="no shortcut type uses every parameter"):
        tender.Engine(tmp_path / "home", authentication=NO_AUTH, intents=[bad])
    with tender.Engine(tmp_path / "home2", authentication=NO_AUTH, intents=[EXPENSE]) as engine:
        with pytest.raises(tender.InvalidArgumentError, match="already defined"):
            engine.add_intents(EXPENSE)
        with pytest.raises(tender.UnknownIntentError):
            engine.session({"intent": "round_up_savings"})
        engine.add_intents(json.loads(open(ROUND_UP).read()))
        engine.session({"intent": "round_up_savings"}).close()


def test_shortcut_to_a_custom_intent(tmp_path):
    host = ExpenseHost()
    with open_engine(tmp_path / "home", host) as engine:
        engine.add_shortcut("coffee money", {"intent": "expense", "expense": "coffee shop"})
        parsed = engine.parse("coffee money")
        assert parsed.source == "shortcut" and parsed.intent == "expense"
        session = engine.session_from_text("coffee money")
        session.resolve()
        session.confirm()
        assert session.handle().response["text"] == "You have $20 left in coffee shop."


@pytest.mark.skipif(not os.path.exists(PAM_MATRIX), reason=f"{PAM_MATRIX} is missing: install libpam-wrapper")
@pytest.mark.person_answers
def test_round_up_is_restricted_and_signed(tmp_path):
    pam = tmp_path / "pam.d"
    pam.mkdir()
    passdb = pam / "passdb"
    passdb.write_text(f"{USER}:{PASSWORD}:{SERVICE}\n")
    (pam / SERVICE).write_text(f"auth required {PAM_MATRIX} passdb={passdb}\naccount required {PAM_MATRIX} passdb={passdb}\n")
    host = ExpenseHost()
    policy = {"restrictedIntents": [], "service": SERVICE, "pamConfigDirectory": os.fspath(pam)}
    with open_engine(tmp_path / "home", host, authentication=policy, testing=True) as engine:
        engine.add_intents(ROUND_UP)
        session = engine.session_from_text("round up by $5")
        first = session.resolve()["parameters"][0]
        assert first["result"] == "confirmationRequired" and first["message"] == "Did I hear $5 right?"
        session.confirm_value("amount", True)
        assert session.resolve()["complete"]
        code, response = session.confirm()
        assert code == tender.ResponseCode.READY and response["question"] == "Move $5?"  # Tender's words, not the definition's
        with pytest.raises(tender.NotAgreedError):
            session.handle()
        session.agree(True)
        asked = []
        session.set_conversation(lambda kind, message: asked.append(kind) or PASSWORD)
        outcome = session.handle()
        assert outcome.code == tender.ResponseCode.SUCCESS and asked  # PAM asked through the conversation
        assert outcome.response["text"] == "Done: $5 moved into your savings."
        assert outcome.record["intent"] == "round_up_savings" and outcome.record.jws.count(".") == 2
        assert host.saved == 500
        assert session.handle().record == outcome.record  # handled once
        assert [p["intent"] for p in engine.payments()] == ["round_up_savings"]
        engine.verify()
        assert any(e["event"] == "authenticated" and e["intent"] == "round_up_savings" for e in engine.audit())

        # The same key again (another session, another process) returns the record; the host is not asked again.
        key = outcome.record["idempotencyKey"]
        again = engine.session({"intent": "round_up_savings", "amount": {"amount": "5", "currency": "USD"}, "idempotencyKey": key})
        assert again.resolve()["parameters"][0]["result"] == "confirmationRequired"
        again.confirm_value("amount", True)
        again.resolve()
        again.confirm()
        again.agree(True)
        assert again.handle().record == outcome.record and host.saved == 500

        wrong = engine.session({"intent": "round_up_savings", "amount": {"amount": "5", "currency": "USD"}})
        wrong.resolve()
        wrong.confirm_value("amount", True)
        wrong.resolve()
        wrong.confirm()
        wrong.agree(True)
        wrong.set_conversation(lambda kind, message: "wrong-password")
        denied = wrong.handle()
        assert denied.code == tender.ResponseCode.FAILURE_CREDENTIALS_UNVERIFIED and host.saved == 500


def test_an_information_intent_is_recorded_only_when_its_definition_asks(tmp_path):
    recorded = json.loads(open(EXPENSE).read())
    recorded["intents"][0]["recorded"] = True
    host = ExpenseHost()
    with tender.Engine(tmp_path / "home", authentication=NO_AUTH, intents=[recorded],
                       handle_intent=host.handle, intent_values=host.values) as engine:
        session = engine.session({"intent": "expense", "expense": "vacation"})
        session.resolve()
        session.confirm()
        outcome = session.handle()
        assert outcome.record["type"] == "intent" and outcome.record["expense"] == "vacation"
        assert outcome.record["response"]["values"]["amountLeft"]["amount"] == "120.00"
        assert engine.payments() == []  # no money moved: not a payment
        assert [entry["type"] for entry in engine.ledger()] == ["intent"]
        engine.verify()  # signed and chained like every entry
