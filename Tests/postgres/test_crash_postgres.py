# SPDX-License-Identifier: Apache-2.0
"""The PostgreSQL crash test itself, attacked (adversarial review): a round whose clients get no payment through kills
tenderd under nothing, and must fail the run, not count as a round survived. Run as root, like test_postgres.py."""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from test_postgres import pytestmark  # noqa: E402,F401  (the same skips)
import crash_postgres  # noqa: E402


def test_a_round_with_nothing_acknowledged_fails_the_crash_test(monkeypatch):
    # The second round's clients pay nothing (as when they are broken, or every payment is refused): the kill lands on an
    # idle daemon, the ledger is still one chain and verifies, and the crash test used to report success.
    real = crash_postgres.one_round

    def one_round(world, daemons, alice, number, rng):
        monkeypatch.setattr(crash_postgres, "KEYS_PER_ROUND", 10 if number == 0 else 0)
        return real(world, daemons, alice, number, rng)

    monkeypatch.setattr(crash_postgres, "one_round", one_round)
    monkeypatch.setattr(crash_postgres, "ACK_TIMEOUT", 5, raising=False)
    monkeypatch.setattr(sys, "argv", ["crash_postgres.py", "--rounds", "2", "--seed", "1"])
    assert crash_postgres.main() == 1
