# SPDX-License-Identifier: Apache-2.0
"""EngineCache (tender_engine_cache_*, issue 34.3): one process serving many homes. The abuse cases
as an adversary would try them: another configuration for the same home, a symbolic link that now
leads to another home, an engine let go while a request still uses it, many threads at once."""
import os
import shutil
import subprocess
import sys
import threading

import pytest

import libtender as tender
from conftest import NO_AUTH

HERE = os.path.dirname(__file__)
EXAMPLE = os.path.join(HERE, "..", "..", "examples", "many_homes.py")
ALICE = {"contacts": [{"id": "alice-secret", "displayName": "Alice's friend",
                       "handles": [{"id": "af", "label": "mobile", "type": "phone", "value": "1"}]}]}


def contacts(engine):
    return [contact["id"] for contact in engine.directory()["contacts"]]


def test_capacity_out_of_range_and_brokered_configurations_are_refused(tmp_path):
    for capacity in (0, 65537):
        with pytest.raises(tender.InvalidArgumentError):
            tender.EngineCache(capacity)
    with tender.EngineCache(2) as cache:
        with pytest.raises(tender.InvalidArgumentError):
            cache.engine(tmp_path / "h", broker=str(tmp_path / "socket"))
        assert len(cache) == 0


def test_the_same_home_and_configuration_share_an_engine_and_another_configuration_never_does(tmp_path):
    with tender.EngineCache(4) as cache:
        with cache.engine(tmp_path / "h", authentication=NO_AUTH) as first:
            first.import_directory(ALICE)
        with cache.engine(tmp_path / "h", authentication=NO_AUTH) as again:
            assert "alice-secret" in contacts(again)
        # Other limits on the same home: an engine of its own (the same store, so the same directory).
        limits = {"USD": {"minimum": "1.00", "maximum": "5.00"}}
        with cache.engine(tmp_path / "h", authentication=NO_AUTH, limits=limits) as stricter:
            assert len(cache) == 2
            session = stricter.session({"intent": "send_payment", "payee": {"id": "alice-secret"},
                                        "currencyAmount": {"amount": "50", "currency": "USD"}})
            code, _ = session.confirm() if session.resolve()["complete"] else (None, None)
            assert code != tender.ResponseCode.READY  # the stricter limit holds: 50 > 5
            session.close()


def test_a_home_through_a_link_is_refused_and_a_home_put_in_anothers_place_gets_its_own_engine(tmp_path):
    alice, bob, link = tmp_path / "alice", tmp_path / "bob", tmp_path / "person"
    alice.mkdir(mode=0o700)
    bob.mkdir(mode=0o700)
    link.symlink_to(alice)
    with tender.EngineCache(4) as cache:
        # SQLite opens no path with a symbolic link in it: a link swapped between requests cannot lead anywhere.
        with pytest.raises(tender.TenderError):
            cache.engine(link / "home", authentication=NO_AUTH)
        assert len(cache) == 0
        with cache.engine(alice / "home", authentication=NO_AUTH) as engine:
            engine.import_directory(ALICE)
        cache.engine(bob / "home", authentication=NO_AUTH).close()
        # Bob's home renamed into Alice's place: the path is the same, the directory is not.
        (alice / "home").rename(alice / "home-before")
        (bob / "home").rename(alice / "home")
        with cache.engine(alice / "home", authentication=NO_AUTH) as engine:
            assert "alice-secret" not in contacts(engine)


def test_an_engine_let_go_while_a_request_holds_it_keeps_working(tmp_path):
    with tender.EngineCache(1) as cache:
        held = cache.engine(tmp_path / "held", authentication=NO_AUTH)
        held.import_directory(ALICE)
        cache.engine(tmp_path / "other", authentication=NO_AUTH).close()  # the cache lets go of "held"
        assert len(cache) == 1
        assert "alice-secret" in contacts(held)
        assert cache.close_idle(0) == 1 and len(cache) == 0
        assert "alice-secret" in contacts(held)
        held.close()


def test_many_threads_at_once_stay_within_capacity(tmp_path):
    failures = []
    with tender.EngineCache(3) as cache:
        def worker(seed):
            try:
                for i in range(20):
                    with cache.engine(tmp_path / f"h{(seed * 7 + i) % 9}", authentication=NO_AUTH) as engine:
                        engine.directory()
            except Exception as error:  # noqa: BLE001 - recorded and asserted below
                failures.append(error)
        threads = [threading.Thread(target=worker, args=(seed,)) for seed in range(6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert not failures
        assert len(cache) <= 3


def test_the_example_pays_for_many_people(tmp_path):
    done = subprocess.run([sys.executable, EXAMPLE, str(tmp_path), "20", "3"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "60 of 60 payments made for 20 people" in done.stdout


def test_a_link_to_a_home_the_cache_keeps_is_refused_as_without_the_cache(tmp_path):
    # Adversary: the cache found a kept engine by following "home" with stat(), so a path through a symbolic
    # link, which tender_engine_new refuses, was served the linked home's engine once that engine was kept.
    alice, link = tmp_path / "alice", tmp_path / "person"
    alice.mkdir(mode=0o700)
    link.symlink_to(alice)
    (tmp_path / "direct").symlink_to(alice / "home")
    with tender.EngineCache(4) as cache:
        with cache.engine(alice / "home", authentication=NO_AUTH) as engine:
            engine.import_directory(ALICE)
        for through_a_link in (link / "home", tmp_path / "direct", str(tmp_path / "direct") + "/", str(link) + "//home/"):
            with pytest.raises(tender.TenderError):
                cache.engine(through_a_link, authentication=NO_AUTH).close()
        assert len(cache) == 1


def test_nested_members_in_another_order_are_the_same_configuration(tmp_path):
    # The same policy written with its nested members in another order is one configuration: one engine per
    # home and policy, not one per spelling (each a second engine on the same store, and capacity used up).
    first = {"USD": {"minimum": "1.00", "maximum": "5.00"}}
    second = {"USD": {"maximum": "5.00", "minimum": "1.00"}}
    with tender.EngineCache(4) as cache:
        cache.engine(tmp_path / "h", authentication=NO_AUTH, limits=first).close()
        cache.engine(tmp_path / "h", authentication=NO_AUTH, limits=second).close()
        assert len(cache) == 1
        cache.engine(tmp_path / "h", authentication=NO_AUTH, limits={"USD": {"minimum": "1.00", "maximum": "6.00"}}).close()
        assert len(cache) == 2


def test_close_idle_refuses_seconds_outside_the_c_range(tmp_path):
    # ctypes truncates to uint32 silently: 2**32 seconds became 0, which lets go of every engine.
    with tender.EngineCache(2) as cache:
        cache.engine(tmp_path / "h", authentication=NO_AUTH).close()
        for seconds in (-1, 2**32):
            with pytest.raises((ValueError, tender.InvalidArgumentError)):
                cache.close_idle(seconds)
        assert len(cache) == 1


def test_close_while_another_thread_is_inside_a_call_frees_the_cache_after_it(tmp_path, monkeypatch):
    # Adversary: a host shutting down closes the cache while a worker is inside tender_engine_cache_get. The
    # binding freed the C cache at once, under the running call (use after free); it must wait for that call.
    import libtender.cache as module
    real = module._clib
    inside, release = threading.Event(), threading.Event()
    freed = []

    class Hooked:
        def __getattr__(self, name):
            return getattr(real, name)

        def tender_engine_cache_get(self, *args):
            inside.set()
            release.wait(30)
            return real.tender_engine_cache_get(*args)

        def tender_engine_cache_free(self, handle):
            freed.append(handle)
            if release.is_set():  # never free under the call held above, even before the fix
                real.tender_engine_cache_free(handle)

    monkeypatch.setattr(module, "_clib", Hooked())
    cache = tender.EngineCache(2)
    got = []
    worker = threading.Thread(target=lambda: got.append(cache.engine(tmp_path / "h", authentication=NO_AUTH)))
    worker.start()
    try:
        assert inside.wait(30)
        cache.close()
        assert freed == [] and len(cache) == 0
    finally:
        release.set()
        worker.join(60)
    assert len(freed) == 1 and len(got) == 1
    assert "contacts" in got[0].directory()
    got[0].close()
    with pytest.raises(tender.ClosedError):
        cache.engine(tmp_path / "h", authentication=NO_AUTH)


def test_a_home_deleted_while_its_engine_is_kept_never_lends_its_number_or_its_engine(tmp_path):
    # Adversary: the cache keys a kept engine on the home directory's device and inode, and ext4 gives a deleted
    # directory's inode number to the next directory made (at once, here). Alice's home deleted while her engine is
    # kept, then Bob's made, must not serve Bob Alice's engine. It holds: the kept engine's store file stays open,
    # and an open file keeps the directory it was opened in (its inode and number) alive until it is closed.
    alice, bob = tmp_path / "alice", tmp_path / "bob"
    with tender.EngineCache(4) as cache:
        with cache.engine(alice, authentication=NO_AUTH) as engine:
            engine.import_directory(ALICE)
        number = os.stat(alice).st_ino
        shutil.rmtree(alice)
        for _ in range(20):
            bob.mkdir(mode=0o700)
            assert os.stat(bob).st_ino != number
            bob.rmdir()
        bob.mkdir(mode=0o700)
        with cache.engine(bob, authentication=NO_AUTH) as engine:
            assert "alice-secret" not in contacts(engine)


def test_two_spellings_of_a_new_home_asked_at_once_both_open_it(tmp_path):
    # Two requests for one new home under two spellings of its path ("a/h" and "a/./h") are not serialized by the
    # cache (a lock per path as written): the one that met the other's marker before its store was refused with
    # "the store is missing", advising `tender init --force`.
    failures = []
    for n in range(12):
        home = tmp_path / f"h{n}"
        spellings = [os.fspath(home), os.path.join(os.fspath(tmp_path), ".", f"h{n}"), os.fspath(tmp_path) + f"//h{n}"]
        barrier = threading.Barrier(len(spellings))
        with tender.EngineCache(8) as cache:
            def request(path):
                barrier.wait()
                try:
                    cache.engine(path, authentication=NO_AUTH).close()
                except tender.TenderError as error:
                    failures.append(error)
            threads = [threading.Thread(target=request, args=(path,)) for path in spellings]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
    assert not failures, failures[:2]
