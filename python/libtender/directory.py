# SPDX-License-Identifier: Apache-2.0
"""The directory calls of an engine: import, remove, read, vocabulary,
signed-in flag."""

from __future__ import annotations

from collections.abc import Mapping
from ctypes import byref, c_size_t, c_void_p
from typing import Any, Dict, Iterable, Optional, Union

from ._engine_base import _EngineBase
from ._native import JSONInput, _clib, _encode, _raise, _take_json
from .enums import VocabularyKind


class _DirectoryCalls(_EngineBase):
    """The directory calls of an engine: import, remove, read, vocabulary, (mixed into :class:`~libtender.Engine`)."""

    def import_directory(self, directory: JSONInput) -> None:
        """Adds or replaces contacts (with their handles), accounts (with
        their balances), bill payees and bills from a directory document
        ``{"contacts", "accounts", "billPayees", "bills"}`` (each optional;
        docs/json.md), in one transaction: on any error nothing changes.

        Raises :class:`InvalidUTF8Error`, :class:`InvalidJSONError`,
        :class:`TooLargeError`, :class:`InvalidArgumentError`,
        :class:`InvalidAmountError`, :class:`UnknownCurrencyError`,
        :class:`NotFoundError` (a bill's payee does not exist),
        :class:`StoreError`, :class:`StoreBusyError`; :class:`ClosedError`
        after :meth:`close`. Thread-safe.
        """
        data = _encode(directory, "directory")
        with self._use() as handle:
            code = _clib.tender_engine_import_directory(handle, data, len(data))
            if code:
                _raise(code)

    def remove_from_directory(self, removal: Optional[JSONInput] = None, *,
                              contacts: Optional[Iterable[str]] = None,
                              accounts: Optional[Iterable[str]] = None,
                              bill_payees: Optional[Iterable[str]] = None,
                              bills: Optional[Iterable[str]] = None) -> None:
        """Removes directory items by id, in one transaction: either a
        removal document ``{"contacts": [ids], "accounts": [...],
        "billPayees": [...], "bills": [...]}`` or the keyword lists, e.g.
        ``remove_from_directory(contacts=["tim-cook"])``. A bill payee takes
        its bills with it; a contact its handles.

        Raises :class:`NotFoundError` (an id does not exist: nothing is
        removed), :class:`InvalidArgumentError` (e.g. no id at all),
        :class:`InvalidUTF8Error`, :class:`InvalidJSONError`,
        :class:`TooLargeError`, :class:`StoreError`, :class:`StoreBusyError`;
        :class:`TypeError` for both a document and keyword lists;
        :class:`ClosedError` after :meth:`close`. Thread-safe.
        """
        lists = {"contacts": contacts, "accounts": accounts, "billPayees": bill_payees, "bills": bills}
        given = {key: value for key, value in lists.items() if value is not None}
        if removal is not None and given:
            raise TypeError("give a removal document or keyword lists, not both")
        if removal is None:
            for key, ids in given.items():
                if isinstance(ids, (str, bytes)):
                    raise TypeError(f"{key} must be a list of ids, not a single {type(ids).__name__}")
            removal = {key: list(ids) for key, ids in given.items()}
        data = _encode(removal, "removal")
        with self._use() as handle:
            code = _clib.tender_engine_remove_from_directory(handle, data, len(data))
            if code:
                _raise(code)

    def set_vocabulary(self, kind: Union[str, "VocabularyKind", JSONInput],
                       items: Optional[Iterable[Mapping[str, Any]]] = None) -> None:
        """Replaces the person's whole vocabulary of one kind, as SiriKit's
        ``setVocabularyStrings`` does: ``set_vocabulary("contactName",
        [{"id": "john-baily", "phrase": "Johnny B", "pronunciation": ...,
        "alternatives": [...]}])``, or one document ``{"kind": ...,
        "items": [...]}``. ``kind`` is a :class:`VocabularyKind` or its
        name (``"contactName"``, ``"paymentOrganizationName"``,
        ``"accountNickname"``); the items are an ordered set (earlier wins),
        each ``id`` naming the contact, bill payee (or organization) or
        account it stands for. An empty list clears that kind.

        Raises :class:`InvalidArgumentError` (an unknown kind, a bad item),
        :class:`InvalidUTF8Error`, :class:`InvalidJSONError`,
        :class:`TooLargeError`, :class:`StoreError`, :class:`StoreBusyError`;
        :class:`TypeError` for arguments of other types; :class:`ClosedError`
        after :meth:`close`. Thread-safe.
        """
        if items is None:
            if isinstance(kind, str) and not isinstance(kind, VocabularyKind) and not kind.lstrip().startswith("{"):
                raise TypeError("set_vocabulary(kind, items) needs items; or pass one document")
            document: Any = kind
        else:
            if isinstance(kind, VocabularyKind):
                name = kind.value
            elif isinstance(kind, str):
                name = kind
            else:
                raise TypeError(f"kind must be a VocabularyKind or str, not {type(kind).__name__}")
            if isinstance(items, (str, bytes, Mapping)):
                raise TypeError("items must be a list of vocabulary items")
            document = {"kind": name, "items": list(items)}
        data = _encode(document, "vocabulary")
        with self._use() as handle:
            code = _clib.tender_engine_set_vocabulary(handle, data, len(data))
            if code:
                _raise(code)

    def set_signed_in(self, signed_in: bool) -> None:
        """Records whether the person is signed in to the payment service
        (True by default). Kept in the store, so every process using the
        home sees it. While it is False, :meth:`Session.confirm` answers
        :attr:`ResponseCode.FAILURE_CREDENTIALS_UNVERIFIED`.

        Raises :class:`StoreError`, :class:`StoreBusyError`;
        :class:`ClosedError` after :meth:`close`. Thread-safe.
        """
        with self._use() as handle:
            code = _clib.tender_engine_set_signed_in(handle, 1 if signed_in else 0)
            if code:
                _raise(code)

    def directory(self) -> Dict[str, Any]:
        """The whole directory (contacts, handles, accounts with their current
        balances, bill payees, bills) as a dict.

        Raises :class:`StoreError`, :class:`StoreBusyError`;
        :class:`ClosedError` after :meth:`close`. Thread-safe.
        """
        ptr, length = c_void_p(), c_size_t()
        with self._use() as handle:
            code = _clib.tender_engine_directory(handle, byref(ptr), byref(length))
            if code:
                _raise(code)
        result: Dict[str, Any] = _take_json(ptr, length)
        return result
