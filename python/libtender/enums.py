# SPDX-License-Identifier: Apache-2.0
"""The enums of the C API: response codes, prompt kinds, key formats and
vocabulary kinds."""

from __future__ import annotations

import enum
from typing import Optional

from ._native import response_code_name


class PromptKind(enum.IntEnum):
    """What an authentication step asks of the person (``tender_prompt_kind``,
    PAM's message styles); the first argument of a conversation callable
    (:meth:`Session.set_conversation`)."""

    #: Ask without echo (a password): return the answer.
    SECRET = 0
    #: Ask with echo (e.g. a user name or a code shown on screen): return the answer.
    TEXT = 1
    #: Show a message; the return value is ignored.
    INFO = 2
    #: Show an error message; the return value is ignored.
    ERROR = 3

    @property
    def needs_answer(self) -> bool:
        """True for :attr:`SECRET` and :attr:`TEXT`."""
        return self in (PromptKind.SECRET, PromptKind.TEXT)


#: A conversation callable: ``(kind, message) -> answer``, the answer a
#: ``str`` (sent as UTF-8), ``bytes``/``bytearray`` (sent unchanged) or None
#: (cancel). See :meth:`Session.set_conversation`.


class VocabularyKind(str, enum.Enum):
    """The kinds of user vocabulary (SiriKit's ``INVocabularyStringType``),
    for :meth:`Engine.set_vocabulary`. An item's ``id`` names what it stands
    for: a contact id, a bill payee id (or an organization name), an account
    id."""

    CONTACT_NAME = "contactName"
    PAYMENT_ORGANIZATION_NAME = "paymentOrganizationName"
    ACCOUNT_NICKNAME = "accountNickname"


class KeyFormat(enum.IntEnum):
    """The forms of a public key :meth:`Engine.public_key` returns
    (``tender_key_format``)."""

    #: SubjectPublicKeyInfo PEM, as ``openssl`` reads it.
    PEM = 0
    #: An RFC 8037 OKP JWK with its RFC 7638 thumbprint as ``kid``.
    JWK = 1


class ResponseCode(enum.IntEnum):
    """The outcome of :meth:`Session.confirm` and :meth:`Session.handle` for
    every intent, with SiriKit's names: 0 to 13 are
    ``INSendPaymentIntentResponseCode``'s numbers, the codes only other
    intents have follow (docs/intents.md lists which codes each intent
    answers).

    A number the binding does not know becomes a pseudo-member named
    ``UNKNOWN_<n>`` rather than an error. :attr:`sirikit_name` gives the
    library's SiriKit name (``"ready"``).
    """

    UNSPECIFIED = 0
    READY = 1
    IN_PROGRESS = 2
    SUCCESS = 3
    FAILURE = 4
    FAILURE_REQUIRING_APP_LAUNCH = 5
    FAILURE_CREDENTIALS_UNVERIFIED = 6
    FAILURE_PAYMENTS_AMOUNT_BELOW_MINIMUM = 7
    FAILURE_PAYMENTS_AMOUNT_ABOVE_MAXIMUM = 8
    FAILURE_PAYMENTS_CURRENCY_UNSUPPORTED = 9
    FAILURE_INSUFFICIENT_FUNDS = 10
    FAILURE_NO_BANK_ACCOUNT = 11
    FAILURE_NOT_ELIGIBLE = 12
    FAILURE_TERMS_AND_CONDITIONS_ACCEPTANCE_REQUIRED = 13
    #: search_for_bills: no bill matches.
    FAILURE_BILL_NOT_FOUND = 14
    #: search_for_accounts: no account matches.
    FAILURE_ACCOUNT_NOT_FOUND = 15
    #: search_for_payments: no payment matches.
    FAILURE_PAYMENT_NOT_FOUND = 16

    @classmethod
    def _missing_(cls, value: object) -> Optional["ResponseCode"]:
        if isinstance(value, int) and not isinstance(value, bool):
            member = int.__new__(cls, value)
            member._name_ = f"UNKNOWN_{value}"
            member._value_ = value
            return member
        return None

    @property
    def sirikit_name(self) -> str:
        """The SiriKit name from ``tender_response_code_str`` (``"ready"``)."""
        return response_code_name(int(self))
