# SPDX-License-Identifier: Apache-2.0
"""Fixtures for the Python binding tests.

The binding under test is the installed ``tender`` package (``pip install
./python``); when none is installed, the one in this checkout
(``<repo>/python``). It finds libtender the documented way:
``$TENDER_LIBRARY`` (set by the test runner, e.g.
``TENDER_LIBRARY=$PWD/build/lib/libtender.so.1``), else pkg-config, else the
soname through the dynamic loader.

Engines here are opened with ``authentication=NO_AUTH`` (a policy that never
asks): the default policy re-authenticates every payment through the PAM
service "tender" and refuses to open an engine on a machine without
``/etc/pam.d/tender``. The re-authentication tests (test_auth.py,
test_pam_wrapper.py) configure their own PAM stack.

Tests about other things than the confirmation question play a person who
says yes: ``Session.handle`` first records the yes (``agree(True)``) when a
confirmation question is open. Tests marked ``person_answers``
(test_agreement.py) record the person's answer themselves.
"""

import copy
import importlib.util
import os
import sys

import pytest

_REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
if importlib.util.find_spec("libtender") is None:
    sys.path.insert(0, os.path.join(_REPO, "python"))

import libtender as tender  # noqa: E402  (after the path set-up)

#: An authentication policy that never asks (and so needs no PAM service).
NO_AUTH = {"restrictedIntents": []}

DIRECTORY = {
    "contacts": [
        {
            "id": "john-appleseed",
            "displayName": "John Appleseed",
            "handles": [
                {"id": "john-appleseed-mobile", "label": "mobile", "type": "phone",
                 "value": "+1 408 555 0100"},
            ],
        },
        {
            "id": "john-baily",
            "displayName": "John Baily",
            "handles": [
                {"id": "john-baily-home", "label": "home", "type": "phone",
                 "value": "+1 408 555 0101"},
                {"id": "john-baily-mobile", "label": "mobile", "type": "phone",
                 "value": "+1 408 555 0102"},
                {"id": "john-baily-work", "label": "work", "type": "phone",
                 "value": "+1 408 555 0103"},
            ],
        },
        {
            "id": "tim-cook",
            "displayName": "Tim Cook",
            "handles": [
                {"id": "tim-cook-email", "label": "work", "type": "email",
                 "value": "tim@example.com"},
            ],
        },
    ],
    "accounts": [
        {
            "id": "checking",
            "nickname": "Checking",
            "type": "checking",
            "balance": {"amount": "1000.00", "currency": "USD"},
            "default": True,
        },
    ],
}


@pytest.fixture
def directory_doc():
    """A fresh copy of the test directory document."""
    return copy.deepcopy(DIRECTORY)


@pytest.fixture
def home(tmp_path):
    """A home directory that does not exist yet (the engine creates it)."""
    return tmp_path / "home"


@pytest.fixture
def engine(home, directory_doc):
    """An engine on a temporary home with the test directory imported (no
    re-authentication)."""
    eng = tender.Engine(home, authentication=NO_AUTH)
    eng.import_directory(directory_doc)
    yield eng
    eng.close()


def make_engine(home, directory_doc, **kwargs):
    """An engine with the test directory; no re-authentication unless
    ``authentication=`` is given."""
    kwargs.setdefault("authentication", NO_AUTH)
    eng = tender.Engine(home, **kwargs)
    eng.import_directory(directory_doc)
    return eng


@pytest.fixture
def engine_factory(tmp_path, directory_doc):
    """Opens engines (with the test directory) on fresh homes, with options."""
    engines = []

    def factory(**kwargs):
        eng = make_engine(tmp_path / f"home-{len(engines)}", directory_doc, **kwargs)
        engines.append(eng)
        return eng

    yield factory
    for eng in engines:
        eng.close()


def pytest_configure(config):
    config.addinivalue_line("markers", "person_answers: the test records the person's yes or no itself")


@pytest.fixture(autouse=True)
def person_says_yes(request, monkeypatch):
    """Before every handle, the person says yes to the confirmation question
    (when one is open: confirm answered ready for a payment)."""
    if request.node.get_closest_marker("person_answers"):
        yield
        return
    handle = tender.Session.handle

    def agree_then_handle(self):
        try:
            self.agree(True)
        except tender.WrongStateError:
            pass  # no question open: a search, or not confirmed (handle says which)
        return handle(self)

    monkeypatch.setattr(tender.Session, "handle", agree_then_handle)
    yield
