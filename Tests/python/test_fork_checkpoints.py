# SPDX-License-Identifier: Apache-2.0
"""Adversary of issue 34 (checkpoints off the payment's path, fork safety through
pthread_atfork), from Python: a host forks (os.fork, multiprocessing's fork start)
while another of its threads pays and the library's workers checkpoint the log.
The fork returns, the child is never stuck on a lock the parent's threads held,
a child's engine of its own pays past its own checkpoints, a child that frees the
parent's engine (which tender.h forbids but Python's finalizers do in a child
leaving through the interpreter's exit) harms nothing of the
parent's, and the parent's payments all land and verify. Hold on 05b6bd5."""

import copy
import multiprocessing
import os
import signal
import sys
import threading
import time

import pytest

import libtender as tender
from conftest import DIRECTORY, NO_AUTH

RICH = copy.deepcopy(DIRECTORY)
RICH["accounts"][0]["balance"]["amount"] = "1000000.00"

#: Payments past the first worker checkpoint (about 190 payments fill the 1,000 frames that start one).
PAST_A_CHECKPOINT = 260


def pay(engine):
    """One whole dialog paying $1 to tim-cook; raises unless it succeeded."""
    with engine.session({"intent": "send_payment", "payee": {"id": "tim-cook"},
                         "currencyAmount": {"amount": "1.00", "currency": "USD"}}) as session:
        session.resolve()
        code, _ = session.confirm()
        assert code is tender.ResponseCode.READY, code
        session.agree(True)
        code, record = session.handle()
        assert code is tender.ResponseCode.SUCCESS and record is not None, code


class Payer:
    """A host thread paying on `engine` until stopped (the checkpoints run meanwhile)."""

    def __init__(self, engine):
        self.engine, self.paid, self.error = engine, 0, None
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run)
        self.thread.start()

    def run(self):
        try:
            while not self.stop.is_set():
                pay(self.engine)
                self.paid += 1
        except Exception as exc:  # noqa: BLE001 - reported by finish()
            self.error = exc

    def finish(self):
        self.stop.set()
        self.thread.join()
        assert self.error is None, self.error
        return self.paid


def child(body):
    """Runs `body` in a forked child with a 60 s alarm; returns its exit status."""
    pid = os.fork()
    if pid == 0:
        signal.alarm(60)
        try:
            status = body()
        except BaseException as exc:  # noqa: BLE001 - reported through the status
            print(f"child: {type(exc).__name__}: {exc}", file=sys.stderr, flush=True)
            os._exit(3)
        os._exit(status or 0)
    _, status = os.waitpid(pid, 0)
    return status


def check_parent(engine, home, paid):
    assert len(engine.payments()) == paid
    assert engine.verify()["valid"]
    engine.close()
    assert not os.path.exists(os.path.join(home, "tender.sqlite3-wal"))
    with tender.Engine(home, authentication=NO_AUTH) as reopened:
        assert len(reopened.payments()) == paid


@pytest.fixture
def parent(tmp_path):
    home = str(tmp_path / "parent")
    engine = tender.Engine(home, authentication=NO_AUTH)
    engine.import_directory(RICH)
    # Past the first checkpoint, so the workers and the checkpoint connection exist before the forks.
    for _ in range(PAST_A_CHECKPOINT):
        pay(engine)
    return engine, home


def test_child_with_an_engine_of_its_own_while_the_parent_checkpoints(parent, tmp_path):
    engine, home = parent
    payer = Payer(engine)
    statuses = []
    for index in range(4):
        time.sleep(0.05)

        def own(index=index):
            with tender.Engine(str(tmp_path / f"child-{index}"), authentication=NO_AUTH) as mine:
                mine.import_directory(RICH)
                for _ in range(PAST_A_CHECKPOINT):
                    pay(mine)
                assert len(mine.payments()) == PAST_A_CHECKPOINT and mine.verify()["valid"]
            return 0 if not os.path.exists(str(tmp_path / f"child-{index}" / "tender.sqlite3-wal")) else 4

        statuses.append(child(own))
    paid = payer.finish()
    assert statuses == [0] * 4
    check_parent(engine, home, PAST_A_CHECKPOINT + paid)


def test_child_freeing_the_parents_engine_harms_nothing(parent):
    """The child frees the parent's engine (tender_engine_free in a forked child, as the Engine's finalizer does when
    a forked child leaves through the interpreter's exit): the parent's store, log and checkpoints go on, and nothing
    it acknowledged is lost."""
    engine, home = parent
    payer = Payer(engine)
    statuses = []
    for _ in range(4):
        time.sleep(0.05)
        pid = os.fork()
        if pid == 0:
            signal.alarm(60)
            engine.close()  # what Engine.__del__ does at a normal interpreter exit (not run here: pytest's own child)
            os._exit(0)
        statuses.append(os.waitpid(pid, 0)[1])
    paid = payer.finish()
    assert statuses == [0] * 4
    check_parent(engine, home, PAST_A_CHECKPOINT + paid)


def _pool_payer(home):
    with tender.Engine(home, authentication=NO_AUTH) as mine:
        mine.import_directory(RICH)
        for _ in range(PAST_A_CHECKPOINT):
            pay(mine)
        return len(mine.payments())


def test_multiprocessing_fork_children_pay_on_engines_of_their_own(parent, tmp_path):
    engine, home = parent
    payer = Payer(engine)
    context = multiprocessing.get_context("fork")
    with context.Pool(2) as pool:
        counts = pool.map_async(_pool_payer, [str(tmp_path / f"pool-{i}") for i in range(3)]).get(timeout=120)
    paid = payer.finish()
    assert counts == [PAST_A_CHECKPOINT] * 3
    check_parent(engine, home, PAST_A_CHECKPOINT + paid)
