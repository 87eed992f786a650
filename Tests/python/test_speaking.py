# SPDX-License-Identifier: Apache-2.0
"""What the person hears, through the binding: the `say` sentences of the
resolution, confirm and handle documents in the person's language, the
engine's `locale`, `Session.reply` reading the person's words, and the chat
loop of python/README.md, which speaks only `say` (docs/dialog.md)."""
import os
import re

import pytest

import libtender as tender

from conftest import NO_AUTH

README = os.path.join(os.path.dirname(__file__), "..", "..", "python", "README.md")


def readme_chat():
    """The `chat` function of python/README.md, as written there."""
    with open(README, encoding="utf-8") as f:
        blocks = re.findall(r"^```python\n(.*?)^```$", f.read(), flags=re.S | re.M)
    [code] = [b for b in blocks if "def chat(" in b]
    namespace = {"tender": tender}
    exec(compile(code, README, "exec"), namespace)  # noqa: S102 - the README's own example
    return namespace["chat"]


@pytest.mark.person_answers
@pytest.mark.parametrize("text, replies, heard", [
    ("envía 50 dólares a John", ["y", "la segunda", "móvil", "sí"], [
        "¿Qué persona: John Appleseed o John Baily?", "Perdona, no te entendí. ¿Qué persona: John Appleseed o John Baily?",
        "¿Qué contacto: casa, móvil o trabajo?", "¿Envío 50 $ a John Baily desde Checking?", "Enviaste 50 $ a John Baily."]),
    ("send $50 to John", ["baily", "work", "no"], [
        "Which person: John Appleseed or John Baily?", "Which of their contacts: home, mobile or work?",
        "Send $50 to John Baily from Checking?", "OK, I won't. Nothing was paid."]),
    ("envía 50 dólares a John", ["olvídalo"], ["¿Qué persona: John Appleseed o John Baily?", "Cancelado. No se pagó nada."]),
])
def test_the_readme_chat_loop_speaks_only_say(engine, text, replies, heard):
    said = []
    answers = iter(replies)
    readme_chat()(engine, text, listen=lambda: next(answers), speak=said.append)
    assert said == heard
    assert next(answers, None) is None
    paid = heard[-1].startswith("Enviaste")
    assert len(engine.payments()) == (1 if paid else 0)


@pytest.mark.person_answers
def test_the_engines_locale_and_the_documents(engine_factory):
    engine = engine_factory(locale="es-ES")
    session = engine.session({"intent": "send_payment", "payee": {"id": "tim-cook"}})
    amount = next(p for p in session.resolve()["parameters"] if p["parameter"] == "currencyAmount")
    assert amount["say"] == "¿Cuánto?"
    assert session.reply("20 dólares") == {"reply": "answer", "answer": {
        "parameter": "currencyAmount", "value": {"amount": "20.00", "currency": "USD"}}}
    session = engine.session({"intent": "send_payment", "payee": {"id": "tim-cook"},
                              "currencyAmount": {"amount": "250.5", "currency": "USD"}, "language": "en"})
    assert all("say" not in p for p in session.resolve()["parameters"])
    code, response = session.confirm()
    assert code == tender.ResponseCode.READY and response["say"] == "Send $250.50 to Tim Cook from Checking?"
    assert session.reply("yes") == {"reply": "agree", "yes": True}
    outcome = session.handle()
    assert outcome.say == "Sent $250.50 to Tim Cook." and outcome.record is not None
    with pytest.raises(tender.WrongStateError):
        session.reply("yes")
    with pytest.raises(tender.InvalidArgumentError):
        engine_factory(locale="fr-FR")
