# SPDX-License-Identifier: Apache-2.0
"""`tender ask`: the whole dialog from a request in words, driven with one
answer per line on standard input (the PAM password included), on a home
seeded by `tender demo` and its demo PAM stack (docs/understanding.md,
"tender ask").

With --json every turn is one JSON object per line: understood, resolve,
question, answer, rejected, confirm, the confirmation question and its
answer, authenticate, handle, declined, error. Exit status: 0
handled with success, 1 a failure code, 2 out of scope, 3 an error.
"""
import base64
import json
import os
import re
import subprocess

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
_EXPLICIT = os.environ.get("TENDER_CLI", "")
CLI = _EXPLICIT or os.path.join(HERE, "..", "..", "build", "bin", "tender")

if _EXPLICIT and not os.access(_EXPLICIT, os.X_OK):
    raise RuntimeError(f"TENDER_CLI={_EXPLICIT} is not an executable file")
pytestmark = pytest.mark.skipif(not os.access(CLI, os.X_OK), reason="the tender tool is not built")

PASSWORD = "demo-password"
WRONG_PASSWORD = "not-the-demo-password-7f3a"
RESULT_KEYS = {"intent", "parameters", "text", "language", "source", "score", "namedApp"}
OPEN = {"disambiguation", "confirmationRequired", "needsValue", "unsupported"}


def environment(**extra):
    env = {k: v for k, v in os.environ.items() if k != "TENDER_HOME"}
    env.update(extra)
    return env


def run(*args, stdin="", env=None):
    return subprocess.run([CLI, *args], input=stdin, capture_output=True, text=True, timeout=60,
                          env=env if env is not None else environment())


@pytest.fixture
def home(tmp_path):
    """A fresh home seeded by `tender demo`: 5 records in its ledger (the directory's signed
    balances, the mark of the demo's PAM stack, in testing mode, and 3 payments)."""
    path = str(tmp_path / "home")
    done = run("demo", "--home", path)
    assert done.returncode == 0, done.stdout + done.stderr
    return path


def pam(home):
    """No PAM option: the shipped tool has none. In a demo home it uses the demo's stack (testing mode)."""
    return []


def ask(home, *texts, answers=(), json_mode=True, home_flag=True, env=None):
    args = ["ask"]
    if home_flag:
        args += ["--home", home]
    if json_mode:
        args.append("--json")
    args += pam(home) + list(texts)
    return run(*args, stdin="".join(line + "\n" for line in answers), env=env)


def turns_of(done):
    """Every stdout line is one JSON turn."""
    lines = done.stdout.splitlines()
    assert lines, done.stderr
    turns = [json.loads(line) for line in lines]
    assert all(isinstance(t, dict) and "turn" in t for t in turns), done.stdout
    return turns


def no_secret(done, *secrets):
    for secret in secrets:
        assert secret not in done.stdout, f"{secret!r} appears on stdout"
        assert secret not in done.stderr, f"{secret!r} appears on stderr"


def check_protocol(turns, answers):
    """The turn order of docs/understanding.md, and that each question is the
    first open parameter of the resolve before it, answered with the next
    line read."""
    assert turns[0]["turn"] == "understood"
    assert RESULT_KEYS <= set(turns[0])
    said = iter(answers)
    last_resolve = None
    confirmed = False
    for previous, turn in zip(turns, turns[1:]):
        kind = turn["turn"]
        if kind == "resolve":
            assert previous["turn"] in ("understood", "answer"), (previous, turn)
            assert isinstance(turn["complete"], bool) and isinstance(turn["parameters"], list)
            last_resolve = turn
        elif kind == "question" and turn["parameter"] == "confirmation":
            # The person is asked before money moves, in words.
            assert previous["turn"] == "confirm" and previous["code"] == "ready", (previous, turn)
            assert turn["question"] == previous["response"]["question"]
            assert turn["result"] == "confirmation" and turn["options"] == ["yes", "no"]
        elif kind == "question":
            assert previous is last_resolve and not last_resolve["complete"], (previous, turn)
            first_open = next(p for p in last_resolve["parameters"] if p["result"] in OPEN)
            assert {k: v for k, v in turn.items() if k != "turn"} == first_open
        elif kind == "answer":
            assert previous["turn"] in ("question", "rejected") and turn["parameter"] == previous["parameter"]
            assert set(turn) == {"turn", "parameter", "said"}
            assert turn["said"] == next(said)
        elif kind == "rejected":
            # A reply that fits no option is refused, naming the options, and asked again.
            assert previous["turn"] == "answer" and turn["parameter"] == previous["parameter"]
            assert set(turn) == {"turn", "parameter", "message"}
        elif kind == "declined":
            assert previous["turn"] == "answer" and previous["parameter"] == "confirmation"
            assert turn is turns[-1] and turn["say"]
        elif kind == "cancelled":
            # "cancel", "never mind", "olvídalo": the dialog ends with nothing paid, in the person's words.
            assert previous["turn"] == "answer" and turn is turns[-1] and turn["say"]
        elif kind == "confirm":
            assert previous is last_resolve and last_resolve["complete"], (previous, turn)
            assert turn["code"] == turn["response"]["code"]
            confirmed = True
        elif kind == "authenticate":
            assert previous["turn"] in ("confirm", "answer", "authenticate")
            assert set(turn) == {"turn", "kind", "message"}
            assert turn["kind"] in ("secret", "text", "info", "error")
        elif kind == "handle":
            assert confirmed and previous["turn"] in ("confirm", "answer", "authenticate"), (previous, turn)
            assert turn is turns[-1]
        elif kind == "error":
            assert turn is turns[-1] and set(turn) == {"turn", "message"}
        else:
            raise AssertionError(f"unknown turn {turn!r}")


def of_kind(turns, kind):
    return [t for t in turns if t["turn"] == kind]


def jws_payload(jws):
    part = jws.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))


def directory(home):
    listed = run("directory", "list", "--home", home)
    assert listed.returncode == 0, listed.stderr
    return json.loads(listed.stdout)


def ledger_records(home):
    """The number of records `tender verify` finds valid."""
    done = run("verify", "--home", home)
    assert done.returncode == 0, done.stdout + done.stderr
    found = re.search(r"ledger valid: (\d+) record", done.stdout)
    assert found, done.stdout
    return int(found.group(1))


# ----------------------------------------------------------------------- success


def test_send_payment_turn_by_turn_to_a_signed_record(home):
    answers = ["John Baily", "mobile", "yes", PASSWORD]
    done = ask(home, "send $20 to John for lunch", answers=answers)
    assert done.returncode == 0, done.stdout + done.stderr
    turns = turns_of(done)
    check_protocol(turns, answers)
    understood = turns[0]
    assert understood["intent"] == "send_payment"
    assert understood["parameters"] == {"payee": {"name": "john"},
                                        "currencyAmount": {"amount": "20.00", "currency": "USD"},
                                        "note": "lunch"}
    assert (understood["text"], understood["language"], understood["source"]) == (
        "send $20 to John for lunch", "en", "model")
    assert [t["turn"] for t in turns] == ["understood", "resolve", "question", "answer", "resolve", "question",
                                          "answer", "resolve", "confirm", "question", "answer", "authenticate", "handle"]
    questions = of_kind(turns, "question")
    assert [(q["parameter"], q["result"], q.get("prompt")) for q in questions] == [
        ("payee", "disambiguation", "person"), ("payee", "disambiguation", "handle"), ("confirmation", "confirmation", None)]
    assert questions[2]["question"] == "Send $20 to John Baily from Checking? There is no fee."
    assert [o["id"] for o in questions[0]["options"]] == ["john-appleseed", "john-baily"]
    assert [a["said"] for a in of_kind(turns, "answer")] == ["John Baily", "mobile", "yes"]  # never the password
    confirm = of_kind(turns, "confirm")[0]
    assert confirm["code"] == "ready"
    assert confirm["response"]["intent"]["payee"]["id"] == "john-baily"
    [authenticate] = of_kind(turns, "authenticate")
    assert authenticate["kind"] == "secret" and authenticate["message"].strip()
    handle = turns[-1]
    assert handle["code"] == "success"
    record = handle["record"]
    assert record["intent"] == "send_payment" and record["status"] == "completed"
    assert record["payee"]["id"] == "john-baily"
    assert record["payee"]["handle"]["id"] == "john-baily-mobile"
    assert record["currencyAmount"] == {"amount": "20.00", "currency": "USD"}
    assert record["note"] == "lunch"
    assert record["sequence"] == 6
    assert jws_payload(handle["jws"]) == record
    assert ledger_records(home) == 6
    no_secret(done, PASSWORD)


def test_pay_bill_with_a_choice_and_a_confirmation_in_words(home):
    answers = ["12 Main Street", "yes", "yes", PASSWORD]
    done = ask(home, "pay my electric company bill", answers=answers)
    assert done.returncode == 0, done.stdout + done.stderr
    turns = turns_of(done)
    check_protocol(turns, answers)
    assert turns[0]["intent"] == "pay_bill"
    questions = of_kind(turns, "question")
    assert [(q["parameter"], q["result"]) for q in questions] == [
        ("billPayee", "disambiguation"), ("transactionAmount", "confirmationRequired"), ("confirmation", "confirmation")]
    assert questions[1]["value"] == {"amountType": "amountDue", "amount": {"amount": "84.20", "currency": "USD"}}
    handle = turns[-1]
    assert handle["code"] == "success"
    assert handle["record"]["billPayee"]["id"] == "electric-main"
    assert handle["record"]["currencyAmount"] == {"amount": "84.20", "currency": "USD"}
    assert jws_payload(handle["jws"]) == handle["record"]
    bills = {b["id"]: b for b in directory(home)["bills"]}
    assert bills["electric-main-bill"]["status"] == "completed"
    no_secret(done, PASSWORD)


def test_a_search_answers_a_result_without_a_password(home):
    done = ask(home, "how much money is in my NestEgg account")
    assert done.returncode == 0, done.stdout + done.stderr
    turns = turns_of(done)
    check_protocol(turns, [])
    assert turns[0]["intent"] == "search_for_accounts"
    assert [t["turn"] for t in turns] == ["understood", "resolve", "confirm", "handle"]
    handle = turns[-1]
    assert handle["code"] == "success"
    assert "record" not in handle and "jws" not in handle
    [account] = handle["result"]["accounts"]
    assert account["id"] == "nest-egg"
    assert account["balance"] == {"type": "money", "amount": {"amount": "15000.00", "currency": "USD"}}


def test_the_best_in_scope_alternative_is_played(home):
    done = ask(home, "what's the weather in Boston", "send $5 to Tim Cook", answers=["yes", PASSWORD])
    assert done.returncode == 0, done.stdout + done.stderr
    turns = turns_of(done)
    check_protocol(turns, ["yes"])
    assert turns[0]["text"] == "send $5 to Tim Cook"
    assert turns[-1]["code"] == "success"
    assert turns[-1]["record"]["payee"]["id"] == "tim-cook"
    no_secret(done, PASSWORD)


# ----------------------------------------------------------------------- failure


def test_a_wrong_password_is_a_failure_code_and_pays_nothing(home):
    done = ask(home, "send $5 to Tim Cook", answers=["yes", WRONG_PASSWORD])
    assert done.returncode == 1, done.stdout + done.stderr
    turns = turns_of(done)
    check_protocol(turns, ["yes"])
    assert of_kind(turns, "authenticate")
    assert turns[-1] == {"turn": "handle", "code": "failureCredentialsUnverified", "denied": "wrongCredentials",
                         "say": "That password didn't work. Nothing was paid."}
    assert ledger_records(home) == 5
    no_secret(done, WRONG_PASSWORD, PASSWORD)


def test_a_confirm_failure_ends_the_dialog_with_status_1(home):
    done = ask(home, "transfer $9000 from savings to checking")
    assert done.returncode == 1, done.stdout + done.stderr
    turns = turns_of(done)
    check_protocol(turns, [])
    assert turns[0]["intent"] == "transfer_money"
    assert turns[-1]["turn"] == "confirm" and turns[-1]["code"] == "failureInsufficientFunds"
    assert not of_kind(turns, "authenticate") and not of_kind(turns, "handle")
    assert ledger_records(home) == 5


def test_out_of_scope_is_status_2_after_the_understood_turn_only(home):
    done = ask(home, "what's the weather like", answers=["John Baily", PASSWORD])
    assert done.returncode == 2, done.stdout + done.stderr
    assert turns_of(done) == [{"turn": "understood", "intent": "out_of_scope", "parameters": None,
                               "text": "what's the weather like", "language": "en", "source": "model",
                               "score": turns_of(done)[0]["score"], "namedApp": False}]
    assert ledger_records(home) == 5
    no_secret(done, PASSWORD)


def test_a_transfer_that_names_nobody_starts_with_where_the_money_goes(home):
    answers = ["own"]
    done = ask(home, "can you do a transfer for me", answers=answers)
    turns = turns_of(done)
    check_protocol(turns, answers)
    assert turns[0]["parameters"]["askDestination"] is True
    questions = of_kind(turns, "question")
    assert (questions[0]["parameter"], questions[0]["prompt"]) == ("intent", "destination")
    assert questions[0]["message"] == "To someone else, or between your own accounts?"
    # "own" is part of one label only: between your own accounts; the transfer's own questions follow.
    assert of_kind(turns, "answer")[0]["said"] == "own"
    assert questions[1]["parameter"] in ("fromAccount", "toAccount", "transactionAmount"), questions
    # No answer is left for it: the dialog ends there, and nothing was paid.
    assert done.returncode == 3 and turns[-1]["turn"] == "error"
    assert ledger_records(home) == 5


# ------------------------------------------------------------------------ errors


def test_no_home_is_an_error_turn_and_status_3(home):
    done = ask(home, "send $5 to Tim Cook", answers=[PASSWORD], home_flag=False)
    assert done.returncode == 3, done.stdout + done.stderr
    [error] = turns_of(done)
    assert error["turn"] == "error" and error["message"]
    # with TENDER_HOME the same command finds the home
    found = ask(home, "what's the weather like", home_flag=False, env=environment(TENDER_HOME=home))
    assert found.returncode == 2, found.stdout + found.stderr


def test_an_unusable_home_is_an_error(home, tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    done = run("ask", "--json", "--home", str(blocker / "home"), *pam(home), "send $5 to Tim Cook",
               stdin=PASSWORD + "\n")
    assert done.returncode == 3, done.stdout + done.stderr
    [error] = turns_of(done)
    assert error["turn"] == "error" and error["message"]
    no_secret(done, PASSWORD)


def test_an_answer_that_fits_no_option_is_asked_again_naming_the_options(home):
    """The refusal is the library's sentence: the question again, with its options."""
    answers = ["nobody", "John Baily", "mobile", "maybe", "yes", PASSWORD]
    done = ask(home, "send $20 to John", answers=answers)
    assert done.returncode == 0, done.stdout + done.stderr
    turns = turns_of(done)
    check_protocol(turns, answers[:-1])
    rejected = of_kind(turns, "rejected")
    assert [r["parameter"] for r in rejected] == ["payee", "confirmation"]
    assert rejected[0]["message"] == "Sorry, I didn't get that. Which person: John Appleseed or John Baily?"
    assert "yes or no" in rejected[1]["message"]
    assert turns[-1]["code"] == "success"
    assert ledger_records(home) == 6
    no_secret(done, PASSWORD)


def test_wrong_replies_up_to_max_prompts_end_the_dialog(home):
    done = ask(home, "send $20 to John", answers=["nobody"] * 5 + ["John Baily", "mobile", "yes", PASSWORD])
    assert done.returncode == 3, done.stdout + done.stderr
    turns = turns_of(done)
    check_protocol(turns, ["nobody"] * 5)
    assert len(of_kind(turns, "rejected")) == 4  # the fifth wrong reply (maxPrompts 5) ends it
    assert turns[-1]["turn"] == "error" and "after 5 tries" in turns[-1]["message"]
    assert ledger_records(home) == 5
    no_secret(done, PASSWORD)


def test_no_to_the_confirmation_question_pays_nothing(home):
    done = ask(home, "send $5 to Tim Cook", answers=["no", PASSWORD])
    assert done.returncode == 1, done.stdout + done.stderr
    turns = turns_of(done)
    check_protocol(turns, ["no"])
    [question] = of_kind(turns, "question")
    assert question["parameter"] == "confirmation"
    assert question["question"] == "Send $5 to Tim Cook from Checking? There is no fee."
    assert turns[-1]["turn"] == "declined"
    assert not of_kind(turns, "authenticate") and not of_kind(turns, "handle")
    assert ledger_records(home) == 5
    no_secret(done, PASSWORD)


def test_the_password_prompt_comes_in_order_on_one_pipe(home):
    """stdout and stderr on one pipe: PAM's prompt follows the question and precedes handle's outcome."""
    done = subprocess.run([CLI, "ask", "--home", home, *pam(home), "send $5 to Tim Cook"], input="yes\n" + PASSWORD + "\n",
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=60, env=environment())
    assert done.returncode == 0, done.stdout
    out = done.stdout
    question = out.index("Send $5 to Tim Cook from Checking?")
    prompt = out.index("Password")
    assert question < prompt < out.index("Sent $5 to Tim Cook."), out


def test_running_out_of_answers_is_an_error(home):
    done = ask(home, "send $20 to John")
    assert done.returncode == 3, done.stdout + done.stderr
    turns = turns_of(done)
    check_protocol(turns, [])
    assert [t["turn"] for t in turns] == ["understood", "resolve", "question", "error"]


# ------------------------------------------------------------------------- words


def test_without_json_the_dialog_is_in_words(home):
    answers = ["Baily", "2", "yes", PASSWORD]
    done = ask(home, "send $20 to John for lunch", answers=answers, json_mode=False)
    assert done.returncode == 0, done.stdout + done.stderr
    for line in done.stdout.splitlines():
        assert not line.lstrip().startswith("{"), line
    # Only what the person hears (test_ask_conversation.py holds the whole transcripts).
    assert done.stdout.splitlines()[0] == "Which person: John Appleseed or John Baily?"
    assert "Which of their contacts: home, mobile or work?" in done.stdout
    assert "Send $20 to John Baily from Checking?" in done.stdout
    assert done.stdout.splitlines()[-1] == "Sent $20 to John Baily."
    assert "understood" not in done.stdout and "→" not in done.stdout
    assert "Password" in done.stderr  # PAM's prompt goes to standard error
    assert ledger_records(home) == 6
    no_secret(done, PASSWORD)


def test_without_json_a_wrong_password_is_status_1(home):
    done = ask(home, "send $5 to Tim Cook", answers=["yes", WRONG_PASSWORD], json_mode=False)
    assert done.returncode == 1, done.stdout + done.stderr
    assert done.stdout.splitlines()[-1] == "That password didn't work. Nothing was paid."
    assert ledger_records(home) == 5
    no_secret(done, WRONG_PASSWORD, PASSWORD)
