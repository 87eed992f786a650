# SPDX-License-Identifier: Apache-2.0
"""The engine: :class:`Engine`."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any, Callable, Dict, Iterable, List, Optional, Union

from .directory import _DirectoryCalls
from .intents import Definition, _IntentCalls
from .ledger import _LedgerCalls
from .understanding import _UnderstandingCalls


class Engine(_DirectoryCalls, _LedgerCalls, _UnderstandingCalls, _IntentCalls):
    """An engine: one store (a home directory holding ``tender.sqlite3``) and
    the payment policy.

    ``Engine(home, limits=None, authentication=None, host=None, **config)``
    builds the configuration document ``{"home": home, "limits": limits,
    "authentication": authentication, **config}`` (docs/json.md; ``limits``
    and ``authentication`` left out when None) and opens the engine. The home
    directory is created (mode 0700) when missing. ``home`` may be a ``str``,
    ``bytes`` or path-like object. Other configuration members go in
    ``config``: ``dialog={"maxPrompts": 5, "transferFee": {"USD": "0.50"}}``
    (the prompt limit, transfer fees), the app-wide vocabulary
    ``vocabulary={"parameterVocabularies": [...]}`` or
    ``vocabularyFile="/path"`` (docs/intents.md).

    ``host`` (see :class:`Host`) opens the engine with host callbacks
    (``tender_engine_new_with_host``): the directory (contacts, accounts,
    bill payees, bills) comes from ``host.lookup`` and payments go through
    ``host.can_send`` and ``host.send``; the store keeps the signed ledger,
    the user vocabulary, the signed-in flag and the authentication records,
    but no balances. The engine keeps ``host`` (as :attr:`host`) and the
    ctypes callbacks alive for as long as it or any of its sessions lives.

    ``intents`` lists custom intent definition documents (docs/custom-intents.md),
    each a dict or the path of a JSON file, loaded in order
    (:meth:`add_intents`); ``handle_intent`` and ``intent_values`` are the
    callables that handle them (:meth:`set_intent_host`). A definition that
    cannot work closes the engine and raises :class:`InvalidArgumentError`.

    ``authentication`` is the re-authentication policy, every member
    optional: ``{"restrictedIntents": ["send_payment"], "aboveAmount":
    {"USD": "100.00"}, "newPayee": False, "newDevice": False,
    "reuseSeconds": 0, "service": "tender", "pamConfigDirectory": "/path",
    "throttle": {"freeAttempts": 3, "baseDelaySeconds": 30,
    "maxDelaySeconds": 900}}``. Left out, every payment (send_payment,
    request_payment, pay_bill, transfer_money) asks through the PAM service
    ``"tender"``. When the policy can ask anything, that service must
    have a file in ``pamConfigDirectory`` (else in
    ``$PAM_WRAPPER_SERVICE_DIR`` when ``PAM_WRAPPER=1``, else in
    ``/etc/pam.d``), or :class:`AuthServiceError` is raised: on a machine
    without ``/etc/pam.d/tender``, ``Engine(home)`` fails, and an engine that
    must not ask passes ``authentication={"restrictedIntents": []}``.

    Raises :class:`InvalidArgumentError` (e.g. an unknown configuration key,
    bad limits or a bad policy), :class:`InvalidAmountError`,
    :class:`UnknownCurrencyError`, :class:`HomeError` (the home cannot be
    used), :class:`StoreError`, :class:`AuthServiceError` (the PAM service
    has no file, or the process user is unknown), :class:`NotFoundError`
    (the ``vocabularyFile`` cannot be read) and the other
    :class:`TenderError` subclasses listed for ``tender_engine_new``;
    :class:`TypeError` for a ``host`` without callable ``lookup`` and
    ``send``.

    Thread safety: an engine may be shared by any number of threads and
    sessions. :meth:`close` releases this object's reference; sessions already
    open keep the underlying engine alive and keep working. Calls made after
    :meth:`close` raise :class:`ClosedError`. Usable as a context manager
    (closes on exit).
    """

    def __init__(self, home: Union[str, bytes, "os.PathLike[Any]"], limits: Optional[Mapping[str, Any]] = None,
                 authentication: Optional[Mapping[str, Any]] = None, *, host: Any = None,
                 intents: Optional[List[Definition]] = None,
                 handle_intent: Optional[Callable[[Dict[str, Any]], Any]] = None,
                 intent_values: Optional[Callable[[str, str], Iterable[str]]] = None, **config: Any):
        super().__init__(home, limits, authentication, host=host, **config)
        try:
            self._open_intents(intents, handle_intent, intent_values)
        except BaseException:
            self.close()
            raise
