# SPDX-License-Identifier: Apache-2.0
"""Re-authentication through PAM before a payment (the binding's side).

Each test builds a PAM stack of its own in a temporary directory: a service
file "tender-test" that loads pam_matrix (from libpam-wrapper, by absolute
path) with a password file ``USER:PASSWORD:tender-test`` for the user this
process runs as, given to the engine as ``pamConfigDirectory`` (the library
then uses ``pam_start_confdir``). Nothing in /etc/pam.d is read or changed.
"""

import ctypes
import gc
import json
import os
import pwd
import time

import pytest

import libtender as tender
from conftest import DIRECTORY, NO_AUTH

PAM_MATRIX = "/usr/lib/x86_64-linux-gnu/pam_wrapper/pam_matrix.so"
PAM_CHATTY = "/usr/lib/x86_64-linux-gnu/pam_wrapper/pam_chatty.so"
SERVICE = "tender-test"
RIGHT = "right-Horse-Battery-7"
WRONG = "wrong-Staple-Cloud-9"
USER = pwd.getpwuid(os.geteuid()).pw_name
EVENTS = {"authenticated", "reused", "denied", "throttled", "notRequired"}
TESTING = f"testing mode (PAM service {SERVICE} in "

pytestmark = pytest.mark.skipif(
    not os.path.exists(PAM_MATRIX),
    reason=f"{PAM_MATRIX} is missing: install libpam-wrapper (Debian/Ubuntu: apt-get install libpam-wrapper)")


# ---------------------------------------------------------------- helpers


def write_stack(directory, service=SERVICE, password=RIGHT, before=(), after=()):
    """A PAM configuration directory with `service` loading pam_matrix;
    `before`/`after`: extra "auth" lines around it."""
    directory.mkdir(parents=True, exist_ok=True)
    passdb = directory / "passdb"
    passdb.write_text(f"{USER}:{password}:{service}\n")
    lines = [*before, f"auth required {PAM_MATRIX} passdb={passdb}", *after,
             f"account required {PAM_MATRIX} passdb={passdb}"]
    (directory / service).write_text("\n".join(lines) + "\n")
    return directory


@pytest.fixture
def pam_dir(tmp_path):
    return write_stack(tmp_path / "pam.d")


@pytest.fixture
def auth_engine(tmp_path, pam_dir):
    """Opens engines with the test stack and a policy: auth_engine(**policy),
    home= to share a home."""
    engines = []

    def factory(home=None, directory=pam_dir, **policy):
        config = {"service": SERVICE, "pamConfigDirectory": os.fspath(directory), **policy}
        home = home or tmp_path / f"home-{len(engines)}"
        engine = tender.Engine(home, authentication=config, testing=True)
        if not engine.directory().get("contacts"):
            engine.import_directory(DIRECTORY)
        engines.append(engine)
        return engine

    yield factory
    for engine in engines:
        if not engine.closed:
            assert_no_secrets(engine)  # whatever the test did
        engine.close()


class Person:
    """A conversation callable: answers SECRET/TEXT prompts with the next of
    `answers` (the last one repeats), records every call."""

    def __init__(self, *answers):
        self.answers = list(answers)
        self.calls = []

    def __call__(self, kind, message):
        self.calls.append((kind, message))
        if not kind.needs_answer:
            return "ignored"
        answer = self.answers[0]
        if len(self.answers) > 1:
            self.answers.pop(0)
        if isinstance(answer, BaseException) or (isinstance(answer, type) and issubclass(answer, BaseException)):
            raise answer
        return answer

    @property
    def prompts(self):
        return [kind for kind, _ in self.calls if kind.needs_answer]


def start(engine, payee="tim-cook", amount="10.00", device=None, conversation=None, key=None):
    """A session resolved and confirmed READY."""
    intent = {"intent": "send_payment", "payee": {"id": payee},
              "currencyAmount": {"amount": amount, "currency": "USD"}}
    if device is not None:
        intent["device"] = device
    if key is not None:
        intent["idempotencyKey"] = key
    session = engine.session(intent)
    if conversation is not None:
        session.set_conversation(conversation)
    for _ in range(5):
        resolution = session.resolve()
        if resolution["complete"]:
            break
        entry = next(p for p in resolution["parameters"] if p["result"] == "disambiguation")
        session.choose(entry["parameter"], entry["options"][0]["id"])
    code, _ = session.confirm()
    assert code == tender.ResponseCode.READY
    return session


def pay(engine, answer=RIGHT, **kwargs):
    """Starts, confirms and handles a payment with a Person answering
    `answer`. Returns (code, record, person, session); the session is closed."""
    person = Person(answer)
    with start(engine, conversation=person, **kwargs) as session:
        code, record = session.handle()
        assert (record is not None) == (code == tender.ResponseCode.SUCCESS)
        if code == tender.ResponseCode.SUCCESS:
            assert session.last_denial is None
        return code, record, person, session


def asked(engine, **kwargs):
    """Pays (right password) and tells whether the person was asked."""
    code, _, person, _ = pay(engine, **kwargs)
    assert code == tender.ResponseCode.SUCCESS
    assert len(person.prompts) <= 1
    return bool(person.prompts)


def balance(engine):
    return engine.directory()["accounts"][0]["balance"]["amount"]


def snapshot(engine):
    return engine.payments(), engine.ledger(), balance(engine)


def assert_no_secrets(engine, *secrets):
    entries = engine.audit()
    for entry in entries:
        assert set(entry) == {"id", "at", "user", "event", "intent", "detail"}, entry
        assert entry["event"] in EVENTS and entry["user"] == USER, entry
        text = json.dumps(entry)
        for secret in (RIGHT, WRONG, *secrets):
            assert secret not in text, entry
    assert [e["id"] for e in entries] == sorted(e["id"] for e in entries)
    return entries


def events(engine):
    return [entry["event"] for entry in engine.audit()]


def details(engine, event=None):
    """The audit details, without the testing-mode prefix, of `event` (every event's when None)."""
    return [e["detail"].split("): ", 1)[1] for e in engine.audit() if event is None or e["event"] == event]


# ------------------------------------------------------ the policy's rules


def test_a_restricted_intent_asks_and_the_right_password_pays(auth_engine):
    engine = auth_engine()  # restrictedIntents: ["send_payment"] by default
    code, record, person, session = pay(engine, amount="25.00")
    assert code == tender.ResponseCode.SUCCESS and record["currencyAmount"]["amount"] == "25.00"
    assert person.prompts == [tender.PromptKind.SECRET]
    kind, message = person.calls[-1]
    assert type(kind) is tender.PromptKind and isinstance(message, str) and message.strip()
    assert session.last_denial is None and session.denial_reason is None
    assert session.conversation_error is None
    assert balance(engine) == "975.00"
    [entry] = assert_no_secrets(engine)
    assert entry["event"] == "authenticated" and entry["intent"] == "send_payment"
    assert entry["detail"].startswith(TESTING) and entry["detail"].endswith("): restrictedIntent: PAM service tender-test")


def test_an_unrestricted_engine_never_asks(auth_engine, tmp_path):
    engine = auth_engine(restrictedIntents=[])
    assert not asked(engine)
    with start(engine) as session:  # no conversation at all
        assert session.handle()[0] == tender.ResponseCode.SUCCESS
    # every payment leaves an audit entry saying why it did not ask
    entries = engine.audit()
    assert len(entries) == 2 and all(e["event"] == "notRequired" and "policy unrestricted" in e["detail"] for e in entries), entries
    # a policy that can ask nothing needs no PAM service file at all
    with tender.Engine(tmp_path / "other", authentication={"restrictedIntents": [], "service": "no-such-service",
                                                           "pamConfigDirectory": os.fspath(tmp_path / "empty")}, testing=True):
        pass


def test_above_amount_asks_only_above_the_threshold(auth_engine):
    engine = auth_engine(restrictedIntents=[], aboveAmount={"USD": "100.00"})
    assert not asked(engine, amount="99.99")
    assert not asked(engine, amount="100.00")  # strictly above
    assert asked(engine, amount="100.01")
    assert asked(engine, amount="500")
    assert details(engine, "authenticated") == ["aboveAmount: PAM service tender-test"] * 2
    assert events(engine) == ["notRequired", "notRequired", "authenticated", "authenticated"]


def test_new_payee_asks_only_for_a_payee_never_paid(auth_engine):
    engine = auth_engine(restrictedIntents=[], newPayee=True)
    # a denied payment does not make the payee "paid"
    code, _, person, _ = pay(engine, WRONG, payee="tim-cook")
    assert code == tender.ResponseCode.FAILURE_CREDENTIALS_UNVERIFIED and person.prompts
    assert asked(engine, payee="tim-cook")
    assert not asked(engine, payee="tim-cook")
    assert not asked(engine, payee="tim-cook", amount="300.00")
    assert asked(engine, payee="john-appleseed")
    assert not asked(engine, payee="john-appleseed")


def test_new_device_asks_until_a_successful_authentication_from_it(auth_engine):
    engine = auth_engine(restrictedIntents=[], newDevice=True)
    assert asked(engine, device="laptop-1")
    assert not asked(engine, device="laptop-1")
    assert not asked(engine, device="laptop-1", payee="john-appleseed")
    assert asked(engine, device="phone-2")
    assert asked(engine)  # no device named: asks every time
    assert asked(engine)
    # a failed authentication does not make a device known
    code, _, _, _ = pay(engine, WRONG, device="tablet-3")
    assert code == tender.ResponseCode.FAILURE_CREDENTIALS_UNVERIFIED
    assert asked(engine, device="tablet-3")
    assert not asked(engine, device="tablet-3")
    # known devices are kept in the store
    engine.close()
    again = auth_engine(home=engine.home, restrictedIntents=[], newDevice=True)
    assert not asked(again, device="laptop-1")
    assert asked(again, device="desktop-4")


def test_the_reuse_window_does_not_spare_a_new_device(auth_engine):
    engine = auth_engine(restrictedIntents=[], newDevice=True, reuseSeconds=60)
    assert asked(engine, device="laptop-1")
    assert asked(engine, device="stolen-phone")


def test_the_reuse_window(auth_engine):
    engine = auth_engine(reuseSeconds=2)
    assert asked(engine, payee="tim-cook", amount="10.00")
    authenticated_at = time.monotonic()
    assert asked(engine, payee="john-appleseed", amount="10.00")  # another payee
    assert asked(engine, payee="tim-cook", amount="10.01")  # more than authenticated
    assert not asked(engine, payee="tim-cook", amount="10.00")  # a grant covers it: same payee, up to its amount
    assert not asked(engine, payee="tim-cook", amount="1.00")  # the other grant
    assert asked(engine, payee="tim-cook", amount="1.00")  # each grant's one payment is spent
    assert time.monotonic() - authenticated_at < 2, "too slow to test a 2 s window"
    assert events(engine) == ["authenticated", "authenticated", "authenticated", "reused", "reused", "authenticated"]
    time.sleep(2.1)  # every grant above is older than 2 s now
    assert asked(engine, payee="tim-cook", amount="10.00")
    assert asked(engine, payee="tim-cook", amount="2.00") is False  # the new grant
    # grants live in one engine object: another one on the same home asks
    other = auth_engine(home=engine.home, reuseSeconds=2)
    assert asked(other, payee="tim-cook", amount="2.00")


def test_the_reuse_window_is_a_budget(auth_engine):
    """Issue 20.1: one $300 authentication used to cover $300 and 3 x $100 more with no prompt."""
    engine = auth_engine(reuseSeconds=60, reuseCount=3)
    assert asked(engine, amount="300.00")
    assert not asked(engine, amount="100.00")
    assert not asked(engine, amount="150.00")
    assert asked(engine, amount="100.00")  # 50.00 left: not enough
    assert not asked(engine, amount="50.00")  # the first grant's rest and its third payment
    assert not asked(engine, amount="100.00")  # the second grant, whole
    assert asked(engine, amount="1.00")  # both spent: $300 + $100 authenticated covered $300 + $100 more, no more
    entries = [(e["event"], e["detail"].split("): ", 1)[1]) for e in engine.audit()]
    assert entries[0] == ("authenticated", "restrictedIntent: PAM service tender-test; reuse budget USD 300.00 over at most 3 "
                                           "more payment(s) within 60 s")
    assert entries[1] == ("reused", "restrictedIntent: reuse window budget left USD 200.00 and 2 payment(s)")
    assert entries[2] == ("reused", "restrictedIntent: reuse window budget left USD 50.00 and 1 payment(s)")
    assert entries[3][0] == "authenticated"


def test_the_reuse_count_defaults_to_one(auth_engine):
    engine = auth_engine(reuseSeconds=60)
    assert asked(engine, amount="300.00")
    assert not asked(engine, amount="100.00")
    assert asked(engine, amount="100.00")  # one payment per authentication by default
    for bad in (0, 6, 1.5, "2"):
        with pytest.raises(tender.InvalidArgumentError, match="reuseCount"):
            auth_engine(reuseSeconds=60, reuseCount=bad)


def test_reuse_seconds_bounds(tmp_path, pam_dir):
    for bad in (-1, 301, 1.5, "2", True):
        with pytest.raises(tender.InvalidArgumentError):
            tender.Engine(tmp_path / "h", authentication={
                "service": SERVICE, "pamConfigDirectory": os.fspath(pam_dir), "reuseSeconds": bad}, testing=True)
    for good in (0, 300):
        tender.Engine(tmp_path / "h", authentication={
            "service": SERVICE, "pamConfigDirectory": os.fspath(pam_dir), "reuseSeconds": good}, testing=True).close()


# ------------------------------------------------------------- denials


def test_a_wrong_password_pays_nothing_and_the_session_may_retry(auth_engine):
    engine = auth_engine()
    before = snapshot(engine)
    person = Person(WRONG, RIGHT)
    with start(engine, conversation=person) as session:
        code, record = session.handle()
        assert (code, record) == (tender.ResponseCode.FAILURE_CREDENTIALS_UNVERIFIED, None)
        assert session.last_denial.startswith("wrongCredentials: "), session.last_denial
        assert session.denial_reason == "wrongCredentials"
        assert WRONG not in session.last_denial and RIGHT not in session.last_denial
        assert person.prompts == [tender.PromptKind.SECRET]
        assert snapshot(engine) == before  # payments, ledger, balance
        entries = assert_no_secrets(engine)
        assert [e["event"] for e in entries] == ["denied"]
        assert entries[0]["detail"].startswith(TESTING) and "): wrongCredentials: " in entries[0]["detail"]
        # the session stays confirmed: handling again asks again
        code, record = session.handle()
        assert code == tender.ResponseCode.SUCCESS and record is not None
        assert session.last_denial is None
        assert person.prompts == [tender.PromptKind.SECRET] * 2
        # handled: handling again returns the same record, asks nothing
        assert session.handle() == (code, record)
        assert len(person.prompts) == 2
    assert [p["id"] for p in engine.payments()] == [p["id"] for p in before[0]] + [record["id"]]
    assert balance(engine) == "990.00"
    assert events(engine) == ["denied", "authenticated"]
    # the directory's signed balances, the mark of this test stack (testing mode), the payment
    assert engine.verify()["records"] == 3


def test_a_retry_with_another_conversation(auth_engine):
    engine = auth_engine()
    with start(engine, conversation=Person(WRONG)) as session:
        assert session.handle()[0] == tender.ResponseCode.FAILURE_CREDENTIALS_UNVERIFIED
        session.set_conversation(Person(RIGHT))
        assert session.handle()[0] == tender.ResponseCode.SUCCESS


@pytest.mark.parametrize("answer", ["", b"", bytearray()], ids=["str", "bytes", "bytearray"])
def test_an_empty_password_is_denied(auth_engine, answer):
    engine = auth_engine()
    code, record, person, session = pay(engine, answer)
    assert (code, record) == (tender.ResponseCode.FAILURE_CREDENTIALS_UNVERIFIED, None)
    assert person.prompts == [tender.PromptKind.SECRET]
    assert session.denial_reason == "wrongCredentials", session.last_denial
    assert engine.payments() == [] and balance(engine) == "1000.00"
    assert events(engine) == ["denied"]


def test_cancelling_is_denied(auth_engine):
    engine = auth_engine()
    code, record, person, session = pay(engine, None)
    assert (code, record) == (tender.ResponseCode.FAILURE_CREDENTIALS_UNVERIFIED, None)
    assert person.prompts == [tender.PromptKind.SECRET]
    assert session.last_denial.startswith("cancelled: "), session.last_denial
    assert session.conversation_error is None
    assert engine.payments() == []
    [entry] = assert_no_secrets(engine)
    assert entry["event"] == "denied" and entry["detail"].split("): ", 1)[1].startswith("cancelled")


def test_a_callable_that_raises_cancels(auth_engine):
    engine = auth_engine()
    boom = RuntimeError("no keyboard")
    person = Person(boom, RIGHT)
    with start(engine, conversation=person) as session:
        assert session.handle() == (tender.ResponseCode.FAILURE_CREDENTIALS_UNVERIFIED, None)
        assert session.denial_reason == "cancelled", session.last_denial
        assert session.conversation_error is boom
        assert engine.payments() == []
        # nothing escaped, the session still works
        code, record = session.handle()
        assert code == tender.ResponseCode.SUCCESS and session.conversation_error is None


def test_a_keyboard_interrupt_cancels_and_is_raised_after_the_call(auth_engine):
    engine = auth_engine()
    with start(engine, conversation=Person(KeyboardInterrupt, RIGHT)) as session:
        with pytest.raises(KeyboardInterrupt):
            session.handle()
        assert session.denial_reason == "cancelled"
        assert engine.payments() == []
        assert session.handle()[0] == tender.ResponseCode.SUCCESS


def test_no_conversation_is_denied(auth_engine):
    engine = auth_engine()
    with start(engine) as session:
        assert session.handle() == (tender.ResponseCode.FAILURE_CREDENTIALS_UNVERIFIED, None)
        assert session.denial_reason == "cancelled", session.last_denial
        assert "conversation" in session.last_denial
        # set, then removed again
        session.set_conversation(Person(RIGHT))
        session.set_conversation(None)
        assert session.handle()[0] == tender.ResponseCode.FAILURE_CREDENTIALS_UNVERIFIED
    assert engine.payments() == []
    # The same denial again within 60 s is counted, not written again (issue 30.14; docs/audit.md).
    assert [(e["event"], e["detail"].split("): ", 1)[1].split(":")[0]) for e in engine.audit()] == [("denied", "cancelled")]


def test_cancels_and_missing_conversations_do_not_count_toward_throttling(auth_engine):
    engine = auth_engine(throttle={"freeAttempts": 1, "baseDelaySeconds": 60, "maxDelaySeconds": 60})
    for answer in (None, None, RuntimeError("x")):
        assert pay(engine, answer)[0] == tender.ResponseCode.FAILURE_CREDENTIALS_UNVERIFIED
    with start(engine) as session:
        assert session.handle()[0] == tender.ResponseCode.FAILURE_CREDENTIALS_UNVERIFIED
    assert pay(engine, RIGHT)[0] == tender.ResponseCode.SUCCESS
    assert "throttled" not in events(engine)


# ------------------------------------------------------------ the service


def test_a_missing_service_is_refused_when_the_engine_opens(tmp_path, pam_dir):
    home = tmp_path / "home"
    with pytest.raises(tender.AuthServiceError) as info:
        tender.Engine(home, authentication={"service": "tender-missing", "pamConfigDirectory": os.fspath(pam_dir)}, testing=True)
    error = info.value
    assert isinstance(error, tender.TenderError)
    assert error.code == 500 == tender.ResultCode.AUTH_SERVICE and error.name == "TENDER_E_AUTH_SERVICE"
    assert '"tender-missing"' in error.message and os.fspath(pam_dir) in error.message
    assert "other" in error.message  # why it refuses: Linux-PAM would fall back to "other"
    assert tender.errors.error_class(500) is tender.AuthServiceError
    # the default service name, in a directory without it
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(tender.AuthServiceError, match='"tender"'):
        tender.Engine(home, authentication={"pamConfigDirectory": os.fspath(empty)}, testing=True)
    # a directory named like the service is not a service file
    (empty / "tender").mkdir()
    with pytest.raises(tender.AuthServiceError):
        tender.Engine(home, authentication={"pamConfigDirectory": os.fspath(empty)}, testing=True)
    # any rule that can ask needs the file
    for policy in ({"restrictedIntents": [], "newPayee": True}, {"restrictedIntents": [], "newDevice": True},
                   {"restrictedIntents": [], "aboveAmount": {"USD": "1.00"}}):
        with pytest.raises(tender.AuthServiceError):
            tender.Engine(home, authentication={"service": "tender-missing",
                                                "pamConfigDirectory": os.fspath(pam_dir), **policy}, testing=True)


@pytest.mark.skipif(os.path.exists("/etc/pam.d/tender") or os.environ.get("PAM_WRAPPER") == "1",
                    reason="/etc/pam.d/tender is installed (or pam_wrapper redirects PAM)")
def test_the_default_policy_needs_etc_pam_d_tender(tmp_path):
    with pytest.raises(tender.AuthServiceError) as info:
        tender.Engine(tmp_path / "home")
    assert '"tender"' in info.value.message and "/etc/pam.d" in info.value.message
    tender.Engine(tmp_path / "home", authentication=NO_AUTH).close()


@pytest.mark.parametrize("service", ["", "../pam.d/x", "a/b", ".", "..", "x" * 65, 42])
def test_a_bad_service_name_is_refused(tmp_path, pam_dir, service):
    with pytest.raises(tender.InvalidArgumentError):
        tender.Engine(tmp_path / "h", authentication={"service": service, "pamConfigDirectory": os.fspath(pam_dir)}, testing=True)


def test_an_unknown_policy_key_is_refused(tmp_path, pam_dir):
    with pytest.raises(tender.InvalidArgumentError):
        tender.Engine(tmp_path / "h", authentication={"restrictedIntents": [], "bogus": 1})
    # A custom intent's name is a name (issue 30): what is refused is no name, or a built-in's in other case.
    for names in (["order pizza"], ["Send_Payment"], [""]):
        with pytest.raises(tender.InvalidArgumentError):
            tender.Engine(tmp_path / "h", authentication={"restrictedIntents": names})
    with pytest.raises(tender.InvalidArgumentError, match="aboveAmount lists no currency"):
        tender.Engine(tmp_path / "h", authentication={"restrictedIntents": [], "aboveAmount": {}})


# ------------------------------------------------------------ throttling


THROTTLE = {"freeAttempts": 2, "baseDelaySeconds": 1, "maxDelaySeconds": 60}


def test_throttling(auth_engine):
    engine = auth_engine(throttle=THROTTLE)
    for _ in range(2):
        code, _, person, session = pay(engine, WRONG)
        assert code == tender.ResponseCode.FAILURE_CREDENTIALS_UNVERIFIED
        assert session.denial_reason == "wrongCredentials" and person.prompts
    last_failure = time.monotonic()
    # the right password, but too soon: refused without asking PAM
    code, _, person, session = pay(engine, RIGHT)
    assert code == tender.ResponseCode.FAILURE_CREDENTIALS_UNVERIFIED, (
        f"not throttled {time.monotonic() - last_failure:.2f} s after the second failure")
    assert person.calls == []
    assert session.last_denial.startswith("throttled: "), session.last_denial
    assert "try again in 1 s" in session.last_denial
    assert engine.payments() == []
    assert events(engine) == ["denied", "denied", "throttled"]
    time.sleep(max(0.0, 1.1 - (time.monotonic() - last_failure)))
    code, _, person, _ = pay(engine, RIGHT)
    assert code == tender.ResponseCode.SUCCESS and person.prompts == [tender.PromptKind.SECRET]
    # the success reset the count: one failure is free again
    assert pay(engine, WRONG)[0] == tender.ResponseCode.FAILURE_CREDENTIALS_UNVERIFIED
    assert pay(engine, RIGHT)[0] == tender.ResponseCode.SUCCESS
    assert events(engine) == ["denied", "denied", "throttled", "authenticated", "denied", "authenticated"]
    assert len(engine.payments()) == 2


def test_the_delay_doubles(auth_engine):
    engine = auth_engine(throttle=THROTTLE)
    for _ in range(2):
        pay(engine, WRONG)
    time.sleep(1.1)
    assert pay(engine, WRONG)[3].denial_reason == "wrongCredentials"  # a third failure: 2 s
    code, _, person, session = pay(engine, RIGHT)
    assert session.denial_reason == "throttled" and "try again in 2 s" in session.last_denial
    assert person.calls == []


def test_the_throttle_holds_across_engines(auth_engine):
    first = auth_engine(throttle=THROTTLE)
    for _ in range(2):
        pay(first, WRONG)
    last_failure = time.monotonic()
    first.close()
    second = auth_engine(home=first.home, throttle=THROTTLE)
    code, _, person, session = pay(second, RIGHT)
    assert session.denial_reason == "throttled" and person.calls == [], (
        f"{session.last_denial} {time.monotonic() - last_failure:.2f} s after the second failure")
    time.sleep(max(0.0, 1.1 - (time.monotonic() - last_failure)))
    assert pay(second, RIGHT)[0] == tender.ResponseCode.SUCCESS
    assert events(second) == ["denied", "denied", "throttled", "authenticated"]


# ------------------------------------------------------------------ audit


def test_the_audit_log_holds_no_secret(auth_engine):
    engine = auth_engine(throttle={"freeAttempts": 4, "baseDelaySeconds": 1, "maxDelaySeconds": 60},
                         reuseSeconds=60)
    secret_like = ["p\u00e4ss-\u00fcnicode-\u2603", "x" * 500, WRONG.upper()]
    for answer in [WRONG, *secret_like, RIGHT]:  # four failures, then throttled
        pay(engine, answer)
    time.sleep(1.1)
    pay(engine, RIGHT)
    pay(engine, RIGHT)  # reused
    entries = assert_no_secrets(engine, *secret_like)
    assert {e["event"] for e in entries} == EVENTS - {"notRequired"}
    for entry in entries:
        assert entry["at"].endswith("Z") and isinstance(entry["id"], int)


def test_audit_on_a_closed_engine(auth_engine):
    engine = auth_engine()
    engine.close()
    with pytest.raises(tender.ClosedError):
        engine.audit()


# ------------------------------------------------------- the conversation


def test_prompt_kind():
    assert [(k.name, int(k)) for k in tender.PromptKind] == [("SECRET", 0), ("TEXT", 1), ("INFO", 2), ("ERROR", 3)]
    assert [k.needs_answer for k in tender.PromptKind] == [True, True, False, False]


@pytest.mark.parametrize("answer", [RIGHT.encode(), bytearray(RIGHT.encode()), memoryview(RIGHT.encode())],
                         ids=["bytes", "bytearray", "memoryview"])
def test_answers_as_bytes(auth_engine, answer):
    engine = auth_engine()
    assert pay(engine, answer)[0] == tender.ResponseCode.SUCCESS


def test_a_non_ascii_password(tmp_path, auth_engine):
    password = "p\u00e4ss-\u2603-\u00fcnicode"
    directory = write_stack(tmp_path / "unicode.d", password=password)
    engine = auth_engine(directory=directory)
    assert pay(engine, password)[0] == tender.ResponseCode.SUCCESS
    assert pay(engine, password.encode("latin-1", "replace"))[0] != tender.ResponseCode.SUCCESS
    assert_no_secrets(engine, password)


def test_a_bytearray_answer_can_be_wiped_afterwards(auth_engine):
    engine = auth_engine()
    secret = bytearray(RIGHT.encode())
    with start(engine, conversation=lambda kind, message: secret) as session:
        assert session.handle()[0] == tender.ResponseCode.SUCCESS
    secret[:] = bytes(len(secret))
    assert secret == bytes(len(RIGHT))


@pytest.mark.parametrize("answer, why", [
    ("x" * 511, "511 bytes; at most 510"),
    ("\u00e9" * 256, "512 bytes; at most 510"),
    (RIGHT + "\0tail", "NUL"),
    (42, "must be a str"),
    ("\udc80", "surrogate"),
])
def test_answers_that_cannot_be_sent_cancel(auth_engine, answer, why):
    engine = auth_engine()
    code, _, _, session = pay(engine, answer)
    assert code == tender.ResponseCode.FAILURE_CREDENTIALS_UNVERIFIED
    assert session.denial_reason == "cancelled"
    assert why in str(session.conversation_error)
    assert engine.payments() == []


def test_the_longest_answer_that_fits_is_sent(auth_engine, tmp_path):
    password = "y" * 510
    engine = auth_engine(directory=write_stack(tmp_path / "long.d", password=password))
    assert pay(engine, password)[0] == tender.ResponseCode.SUCCESS


def test_the_callback_survives_garbage_collection(auth_engine):
    engine = auth_engine()
    with start(engine) as session:
        session.set_conversation(Person(RIGHT))  # no other reference to it
        gc.collect()
        gc.collect()
        assert session.handle()[0] == tender.ResponseCode.SUCCESS


def test_set_conversation_errors(auth_engine):
    engine = auth_engine()
    session = start(engine)
    with pytest.raises(TypeError):
        session.set_conversation("not callable")
    session.close()
    with pytest.raises(tender.ClosedError):
        session.set_conversation(Person(RIGHT))
    session.close()  # idempotent


def test_the_callable_must_not_use_its_session(auth_engine):
    engine = auth_engine()
    with start(engine) as session:
        def reentrant(kind, message):
            session.resolve()  # would deadlock or re-enter the library
            return RIGHT
        session.set_conversation(reentrant)
        assert session.handle()[0] == tender.ResponseCode.FAILURE_CREDENTIALS_UNVERIFIED
        assert isinstance(session.conversation_error, RuntimeError)
        # it may use the engine
        seen = []
        session.set_conversation(lambda kind, message: seen.append(len(engine.audit())) or RIGHT)
        assert session.handle()[0] == tender.ResponseCode.SUCCESS
        assert seen == [1]


def test_info_and_error_messages_reach_the_callable(tmp_path, auth_engine):
    if not os.path.exists(PAM_CHATTY):
        pytest.skip(f"{PAM_CHATTY} is missing")
    directory = write_stack(tmp_path / "chatty.d", before=[f"auth optional {PAM_CHATTY} info",
                                                          f"auth optional {PAM_CHATTY} error"])
    engine = auth_engine(directory=directory)
    code, _, person, _ = pay(engine, RIGHT)
    assert code == tender.ResponseCode.SUCCESS
    kinds = [kind for kind, _ in person.calls]
    assert tender.PromptKind.INFO in kinds and tender.PromptKind.ERROR in kinds
    assert kinds[-1] == tender.PromptKind.SECRET
    assert all(message for _, message in person.calls)


def test_an_exception_at_a_message_cancels_the_prompts_after_it(tmp_path, auth_engine):
    if not os.path.exists(PAM_CHATTY):
        pytest.skip(f"{PAM_CHATTY} is missing")
    engine = auth_engine(directory=write_stack(tmp_path / "chatty.d", before=[f"auth optional {PAM_CHATTY} info"]))
    calls = []

    def failing_display(kind, message):
        calls.append(kind)
        if kind == tender.PromptKind.INFO:
            raise OSError("the display is gone")
        return RIGHT

    with start(engine, conversation=failing_display) as session:
        assert session.handle()[0] == tender.ResponseCode.FAILURE_CREDENTIALS_UNVERIFIED
        assert isinstance(session.conversation_error, OSError)
        assert calls == [tender.PromptKind.INFO]  # the password was never asked
    assert engine.payments() == []


def _raw_conversation(session, function):
    """Sets a raw C conversation, bypassing the binding's wrapper."""
    callback = tender._loader.CONVERSATION_FN(function)
    with session._use() as handle:
        assert tender._clib.tender_session_set_conversation(handle, callback, None) == 0
    session._keep = callback
    return callback


def test_a_cancel_at_a_message_after_the_password_cancels(tmp_path, auth_engine):
    if not os.path.exists(PAM_CHATTY):
        pytest.skip(f"{PAM_CHATTY} is missing")
    engine = auth_engine(directory=write_stack(tmp_path / "chatty.d", after=[f"auth optional {PAM_CHATTY} info"]))
    password = RIGHT.encode()
    kinds = []

    def raw(userdata, kind, message, answer, size):
        kinds.append(kind)
        if kind in (tender.PromptKind.INFO, tender.PromptKind.ERROR):
            return 1  # cancel
        ctypes.memmove(answer, password, len(password))
        ctypes.memset(answer + len(password), 0, 1)
        return 0

    with start(engine) as session:
        _raw_conversation(session, raw)
        code, _ = session.handle()
        assert kinds[0] == tender.PromptKind.SECRET and tender.PromptKind.INFO in kinds
        assert code == tender.ResponseCode.FAILURE_CREDENTIALS_UNVERIFIED
    assert engine.payments() == []


def test_the_intent_accepts_a_device(auth_engine):
    engine = auth_engine(restrictedIntents=[])
    with pytest.raises(tender.InvalidArgumentError):
        engine.session({"intent": "send_payment", "device": 42})
    with pytest.raises(tender.InvalidArgumentError):
        engine.session({"intent": "send_payment", "device": "d" * 129})
    engine.session({"intent": "send_payment", "device": "d" * 128}).close()
