# SPDX-License-Identifier: Apache-2.0
"""The person's yes before money moves (Session.agree, TENDER_E_NOT_AGREED):
confirm asks in words, handle refuses without a yes, a no pays nothing."""
import pytest

import libtender as tender
from libtender import ResponseCode

pytestmark = pytest.mark.person_answers

SEND = {"intent": "send_payment", "payee": {"id": "tim-cook"},
        "currencyAmount": {"amount": "20", "currency": "USD"}}


def checking(engine):
    return next(a for a in engine.directory()["accounts"] if a["id"] == "checking")["balance"]["amount"]


def test_confirm_carries_the_question_in_words(engine):
    with engine.session(SEND) as s:
        code, response = s.confirm()
        assert code == ResponseCode.READY
        assert response["question"] == "Send $20 to Tim Cook from Checking? There is no fee."


def test_handle_without_a_yes_is_refused_and_pays_nothing(engine):
    with engine.session(SEND) as s:
        s.confirm()
        with pytest.raises(tender.NotAgreedError, match="the confirmation question") as refused:
            s.handle()
        assert "Tim Cook" not in str(refused.value) and "$20" not in str(refused.value)  # tender.h: no payment data
        assert checking(engine) == "1000.00"
        s.agree(True)
        code, record = s.handle()
        assert code == ResponseCode.SUCCESS and record["status"] == "completed"
    assert checking(engine) == "980.00"


def test_no_ends_the_dialog_and_pays_nothing(engine):
    with engine.session(SEND) as s:
        s.confirm()
        s.agree(False)
        with pytest.raises(tender.DialogEndedError):
            s.handle()
    assert checking(engine) == "1000.00"
    assert engine.payments() == []


def test_agree_before_confirm_is_wrong_state(engine):
    with engine.session(SEND) as s:
        with pytest.raises(tender.WrongStateError):
            s.agree(True)


def test_a_search_asks_nothing(engine):
    with engine.session({"intent": "search_for_accounts"}) as s:
        code, response = s.confirm()
        assert code == ResponseCode.READY and "question" not in response
        with pytest.raises(tender.WrongStateError):
            s.agree(True)
        assert s.handle().code == ResponseCode.SUCCESS


def test_a_host_that_asks_itself_may_turn_it_off(engine_factory):
    engine = engine_factory(dialog={"requireAgreement": False})
    with engine.session(SEND) as s:
        s.confirm()
        assert s.handle().code == ResponseCode.SUCCESS
