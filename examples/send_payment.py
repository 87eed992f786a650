#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Send $50 to John with Tender: a complete dialog, ready to copy.

    python3 examples/send_payment.py [HOME]

HOME is the Tender home directory (created when missing); without it a
temporary directory is used and removed afterwards. The program imports a
small directory, starts the intent "send $50 to John", answers every question
(choosing John Baily, then his mobile; the first option for anything else),
confirms, handles and prints the payment record with its signature (a compact
JWS), then verifies the signed ledger. It exits with 0 when the payment was
made, 1 when Tender declined it (including a failed re-authentication), 2 on
an error.

Sending money is restricted: by default handle re-authenticates the person
through the system login (PAM service "tender", which `make install` as root,
`sudo make install-pam` or the libtender1 package installs as /etc/pam.d/tender) before anything is paid, asking through the
session's conversation. This example answers PAM's password prompt from the
environment variable TENDER_EXAMPLE_PASSWORD; a real host asks the person,
e.g. with getpass.getpass(message) (see `conversation` below). With that
variable set it uses the default policy; without it, it configures an engine
that restricts nothing ({"restrictedIntents": []}), so it also runs where
/etc/pam.d/tender is not installed. It prints which mode it uses. To try the
real PAM calls without touching /etc/pam.d, run it under pam_wrapper:

    LD_PRELOAD=libpam_wrapper.so PAM_WRAPPER=1 PAM_WRAPPER_SERVICE_DIR=DIR \
        TENDER_EXAMPLE_PASSWORD=secret python3 examples/send_payment.py

where DIR holds a service file named "tender" (e.g. one loading pam_matrix
with a password file `USER:secret:tender`).

The `libtender` package must be importable (`pip install ./python`) and find
libtender (set TENDER_LIBRARY=/path/to/libtender.so.1 if it is not installed).
"""

import json
import os
import sys
import tempfile

import libtender as tender

DIRECTORY = {
    "contacts": [
        {"id": "john-appleseed", "displayName": "John Appleseed", "handles": [
            {"id": "john-appleseed-mobile", "label": "mobile", "type": "phone",
             "value": "+1 408 555 0100"}]},
        {"id": "john-baily", "displayName": "John Baily", "handles": [
            {"id": "john-baily-home", "label": "home", "type": "phone", "value": "+1 408 555 0101"},
            {"id": "john-baily-mobile", "label": "mobile", "type": "phone", "value": "+1 408 555 0102"}]},
    ],
    "accounts": [
        {"id": "checking", "nickname": "Checking", "type": "checking",
         "balance": {"amount": "1000.00", "currency": "USD"}, "default": True},
    ],
}

INTENT = {
    "intent": "send_payment",
    "payee": {"name": "John"},
    "currencyAmount": {"amount": "50", "currency": "USD"},
    "note": "Dinner",
}

# What the "user" says when Tender asks: the option label to pick for each
# kind of disambiguation prompt. Anything else gets the first option.
PREFERRED = {"person": "John Baily", "handle": "mobile"}

MAX_TURNS = 10

PASSWORD_VARIABLE = "TENDER_EXAMPLE_PASSWORD"
#: What never asks: for machines without the PAM service "tender".
NO_AUTHENTICATION = {"restrictedIntents": []}


def show(value):
    return json.dumps(value, ensure_ascii=False)


def answer_one(session, resolution):
    """Answer one open question; False if there is none we can answer."""
    for entry in resolution["parameters"]:
        name, result = entry["parameter"], entry["result"]
        if result == "disambiguation":
            options = entry["options"]
            wanted = PREFERRED.get(entry.get("prompt"))
            choice = next((o for o in options if o["label"] == wanted), options[0])
            print(f"  {name}: which one ({entry.get('prompt')})? "
                  f"{', '.join(o['label'] for o in options)} -> {choice['label']}")
            session.choose(name, choice["id"])
            return True
        if result == "confirmationRequired":
            print(f"  {name}: did you mean {show(entry.get('value'))}? -> yes")
            session.confirm_value(name, True)
            return True
        if result in ("needsValue", "unsupported"):
            why = entry.get("reason", "no value")
            print(f"  {name}: {result} ({why}); this example has nothing to offer")
            return False
    return False


def make_conversation(password):
    """The host's side of PAM: answer the password prompt, show messages.

    A real host asks the person instead:

        def conversation(kind, message):
            if kind == tender.PromptKind.SECRET:
                return getpass.getpass(message)      # no echo
            if kind == tender.PromptKind.TEXT:
                return input(message)
            print(message)                           # INFO, ERROR
            return None

    Returning None for a question cancels; so does raising. The answer is
    copied into memory the library wipes, but a Python str cannot be wiped.
    """
    def conversation(kind, message):
        if not kind.needs_answer:  # PromptKind.INFO, PromptKind.ERROR
            print(f"  pam ({kind.name.lower()}): {message}")
            return None
        if kind == tender.PromptKind.SECRET and password is not None:
            print(f"  tender asks: {message.strip()} (answered from ${PASSWORD_VARIABLE})")
            return password  # never printed
        print(f"  tender asks: {message.strip()} (nothing to answer with: cancelled)")
        return None
    return conversation


def run(home):
    print(f"libtender {tender.version()} ({tender.library_path}), home {home}")
    password = os.environ.get(PASSWORD_VARIABLE)
    if password is not None:
        print('authentication: the default policy (PAM service "tender"), '
              f"password from ${PASSWORD_VARIABLE}")
        authentication = None  # the default: every payment re-authenticates
    else:
        print(f"authentication: off (restrictedIntents []); set {PASSWORD_VARIABLE} "
              "to re-authenticate through PAM")
        authentication = NO_AUTHENTICATION
    with tender.Engine(home, authentication=authentication) as engine:
        engine.import_directory(DIRECTORY)
        with engine.session(INTENT) as session:
            session.set_conversation(make_conversation(password))
            print(f"intent: {show(INTENT)}")
            for turn in range(1, MAX_TURNS + 1):
                resolution = session.resolve()
                print(f"turn {turn}:")
                for entry in resolution["parameters"]:
                    if "options" in entry:
                        detail = f"({entry.get('prompt')}) " + ", ".join(o["label"] for o in entry["options"])
                    elif "value" in entry:
                        detail = show(entry["value"])
                    else:
                        detail = entry.get("reason", "")
                    print(f"  {entry['parameter']}: {entry['result']} {detail}".rstrip())
                if resolution["complete"]:
                    break
                if not answer_one(session, resolution):
                    return 1
            else:
                print("the dialog did not finish", file=sys.stderr)
                return 1

            code, response = session.confirm()
            print(f"confirm: {code.name} ({code.sirikit_name})")
            if code != tender.ResponseCode.READY:
                return 1
            # A real host asks the person this question; this one plays a person who says yes.
            print(f"tender: {response['question']} (yes/no)")
            print("person: yes")
            session.agree(True)
            code, record = session.handle()
            print(f"handle: {code.name} ({code.sirikit_name})")
            if code == tender.ResponseCode.FAILURE_CREDENTIALS_UNVERIFIED:
                # Nothing was paid; the session stays confirmed, so a host
                # may ask again and call handle() once more.
                print(f"not authenticated: {session.last_denial}")
                return 1
            if code != tender.ResponseCode.SUCCESS:
                return 1
            print(json.dumps(record, indent=2, ensure_ascii=False))
            # The record is also a ledger entry, signed with Ed25519 as a
            # compact JWS that any JOSE library verifies with this JWK.
            print(f"jws: {record.jws}")
            print(f"signed by key {record.kid}: {show(engine.public_key('jwk'))}")

        for acc in engine.directory()["accounts"]:
            print(f"balance of {acc['id']}: {acc['balance']['amount']} {acc['balance']['currency']}")
        report = engine.verify()
        print(f"ledger verified: {report['records']} record(s), head {report['headHash']}")
        for entry in engine.audit():  # the authentication audit log: never a secret
            print(f"audit: {entry['event']} {entry['intent']} ({entry['detail']})")
    return 0


def main(argv):
    try:
        if len(argv) > 1:
            return run(argv[1])
        with tempfile.TemporaryDirectory(prefix="tender-example-") as tmp:
            return run(tmp + "/home")
    except tender.TenderError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
