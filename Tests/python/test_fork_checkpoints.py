# SPDX-License-Identifier: Apache-2.0
"""Adversary of issue 34 (checkpoints off the payment's path, fork safety through
pthread_atfork), from Python: a host forks (os.fork, multiprocessing's fork start)
between another thread's payments while the library's workers checkpoint the log.
The fork returns, the child is never stuck on a lock the library's threads held,
a child's engine of its own pays past its own checkpoints, a child that frees the
parent's engine (which tender.h forbids but Python's finalizers do in a child
leaving through the interpreter's exit) harms nothing of the
parent's, and the parent's payments all land and verify (these hold on 05b6bd5);
a child's call on the parent's engine is refused at once (it was accepted on 05b6bd5)."""

import contextlib
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
    """A host thread paying on `engine` until stopped (the checkpoints run meanwhile). ``paused()`` holds it between
    two payments while the host forks: a host thread inside SQLite at fork() can hold one of SQLite's process-wide
    mutexes (its allocator's), which the child then waits on for ever at its first open; no library can release a
    host thread's lock. The library's own checkpoint workers it quiesces itself."""

    def __init__(self, engine):
        self.engine, self.paid, self.error = engine, 0, None
        self.stop = threading.Event()
        self.pause = threading.Event()
        self.idle = threading.Event()
        self.thread = threading.Thread(target=self.run)
        self.thread.start()

    def run(self):
        try:
            while not self.stop.is_set():
                if self.pause.is_set():
                    self.idle.set()
                    time.sleep(0.0002)
                    continue
                pay(self.engine)
                self.paid += 1
        except Exception as exc:  # noqa: BLE001 - reported by finish()
            self.error = exc
        self.idle.set()

    @contextlib.contextmanager
    def paused(self):
        self.idle.clear()
        self.pause.set()
        self.idle.wait(30)
        try:
            yield
        finally:
            self.pause.clear()

    def finish(self):
        self.stop.set()
        self.thread.join()
        assert self.error is None, self.error
        return self.paid


def child(body, payer):
    """Runs `body` in a child forked between two of `payer`'s payments, with a 60 s alarm; returns its exit status."""
    with payer.paused():
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
    assert os.path.getsize(os.path.join(home, "tender.sqlite3-wal")) == 0  # checkpointed whole at the close, kept empty
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
            return 0 if os.path.getsize(str(tmp_path / f"child-{index}" / "tender.sqlite3-wal")) == 0 else 4

        statuses.append(child(own, payer))
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
        with payer.paused():
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
    with payer.paused():
        pool = context.Pool(2)  # forks its workers now
    with pool:
        counts = pool.map_async(_pool_payer, [str(tmp_path / f"pool-{i}") for i in range(3)]).get(timeout=120)
    paid = payer.finish()
    assert counts == [PAST_A_CHECKPOINT] * 3
    check_parent(engine, home, PAST_A_CHECKPOINT + paid)


def test_child_using_the_parents_engine_is_refused_at_once(parent):
    """Fails on 05b6bd5: the child's call on the parent's engine was accepted (and, had the parent's thread been
    committing at the fork, waited for ever for a group-commit leader that is not in the child). Now it raises
    WrongStateError at once, and the parent's payments go on."""
    engine, home = parent
    payer = Payer(engine)
    statuses = []
    for _ in range(6):
        time.sleep(0.02)

        def use():
            try:
                pay(engine)
            except tender.WrongStateError as error:
                return 0 if "fork" in str(error) else 5
            return 6

        statuses.append(child(use, payer))
    paid = payer.finish()
    assert statuses == [0] * 6
    check_parent(engine, home, PAST_A_CHECKPOINT + paid)
