# SPDX-License-Identifier: Apache-2.0
"""`tender verify` and tender_engine_verify against a store changed with SQL by
someone without the signing key (issue 30, items 6 to 10 and 18): each test is
the reproduction of the review, run on a real store with Python's sqlite3 module,
the engine closed (or, for item 18, open in this process as a writer).

The `tender` tool is $TENDER_CLI, else <repo>/build/bin/tender; tests that need
it are skipped when it is absent.
"""

import copy
import hashlib
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time

import pytest

import libtender as tender

from conftest import DIRECTORY, NO_AUTH

HERE = os.path.dirname(os.path.abspath(__file__))
CLI = os.environ.get("TENDER_CLI") or os.path.join(HERE, "..", "..", "build", "bin", "tender")
STORE = "tender.sqlite3"

needs_cli = pytest.mark.skipif(not os.path.exists(CLI), reason="the tender tool is not built")


def cli(*args):
    return subprocess.run([CLI, *map(os.fspath, args)], capture_output=True, text=True, timeout=120)


def sql(home, statement, arguments=()):
    with sqlite3.connect(os.path.join(home, STORE)) as db:
        db.execute(statement, arguments)
    db.close()


def value(home, query):
    with sqlite3.connect(os.path.join(home, STORE)) as db:
        row = db.execute(query).fetchone()
    db.close()
    return row[0] if row else None


def directory(checking="1000.00", currency="USD"):
    doc = copy.deepcopy(DIRECTORY)
    doc["accounts"][0]["balance"] = {"amount": checking, "currency": currency}
    doc["accounts"].append({"id": "savings", "nickname": "Savings", "type": "savings",
                            "balance": {"amount": "5.00", "currency": "USD"}})
    return doc


def pay(engine, amount, key):
    with engine.session({"intent": "send_payment", "payee": {"id": "tim-cook"}, "idempotencyKey": key,
                         "currencyAmount": {"amount": amount, "currency": "USD"}}) as session:
        session.resolve()
        session.confirm()
        assert session.handle()[0] == tender.ResponseCode.SUCCESS


def invalid(home, *naming, checkpoint=None):
    """Asserts the library and, when built, the tool call the ledger invalid, naming each of `naming`."""
    with pytest.raises(tender.TenderError) as info:
        with tender.Engine(home, authentication=NO_AUTH, readOnly=True) as engine:
            engine.verify(checkpoint)
    assert all(part in info.value.message for part in naming), info.value.message
    if os.path.exists(CLI):
        done = cli("verify", "--home", home, *(["--checkpoint", checkpoint_file(home, checkpoint)] if checkpoint else []))
        assert done.returncode != 0, done.stdout
        assert all(part in done.stderr for part in naming), done.stderr


def checkpoint_file(home, text):
    path = f"{home}.checkpoint"
    with open(path, "w") as out:
        out.write(text + "\n")
    return path


def valid(home):
    with tender.Engine(home, authentication=NO_AUTH, readOnly=True) as engine:
        return engine.verify()


# ------------------------------------------------------------ 6. an older signed balance put back


def test_an_older_signed_balance_put_back_is_named(tmp_path):
    home = os.fspath(tmp_path / "home")
    with tender.Engine(home, authentication=NO_AUTH) as engine:
        engine.import_directory(directory("2203.25"))
        kept = value(home, "SELECT balance_anchor FROM accounts WHERE id = 'checking'")
        engine.import_directory(directory("5.00"))
        pay(engine, "1.00", "after")
    assert valid(home)["valid"]
    # The balance rolled back from 4.00 to 2,202.25, with what was signed for 2,203.25 put back beside it.
    sql(home, "UPDATE accounts SET balance_minor = 220225, balance_anchor = ? WHERE id = 'checking'", (kept,))
    invalid(home, "checking (stored 220225, derived 400 minor units)")


# ------------------------------------------------------------ 7. a currency changed, an account deleted


def test_a_changed_currency_is_named(tmp_path):
    home = os.fspath(tmp_path / "home")
    with tender.Engine(home, authentication=NO_AUTH) as engine:
        engine.import_directory(directory())
        pay(engine, "3.00", "a")
    sql(home, "UPDATE accounts SET currency = 'EUR' WHERE id = 'checking'")
    invalid(home, "checking (stored currency EUR, signed USD")


def test_a_deleted_account_row_is_named_and_a_removal_through_the_directory_is_not(tmp_path):
    home = os.fspath(tmp_path / "home")
    with tender.Engine(home, authentication=NO_AUTH) as engine:
        engine.import_directory(directory())
        pay(engine, "3.00", "a")
    sql(home, "DELETE FROM accounts WHERE id = 'savings'")
    invalid(home, "savings (set by record 1, missing from the directory)")
    sql(home, "DELETE FROM accounts")
    invalid(home, "checking (set by record 1, missing from the directory)")

    other = os.fspath(tmp_path / "other")
    with tender.Engine(other, authentication=NO_AUTH) as engine:
        engine.import_directory(directory())
        engine.remove_from_directory({"accounts": ["savings"]})
    assert valid(other)["records"] == 2


# ------------------------------------------------------------ 8. a whole store signed by another key


@pytest.mark.parametrize("payments", [0, 2])
def test_a_whole_store_signed_by_another_key_is_refused(tmp_path, payments):
    home, forged = os.fspath(tmp_path / "home"), os.fspath(tmp_path / "forged")
    with tender.Engine(home, authentication=NO_AUTH) as engine:
        engine.import_directory(directory())
        pay(engine, "1.00", "genuine")
    with tender.Engine(forged, authentication=NO_AUTH) as engine:
        engine.import_directory(directory("99999.00"))
        for index in range(payments):
            pay(engine, "1.00", f"forged-{index}")
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(f"{home}/{STORE}{suffix}"):
            os.remove(f"{home}/{STORE}{suffix}")
        if os.path.exists(f"{forged}/{STORE}{suffix}"):
            shutil.copy(f"{forged}/{STORE}{suffix}", f"{home}/{STORE}{suffix}")
    for read_only in (True, False):
        with pytest.raises(tender.HomeError, match="never recorded .*the store was replaced"):
            tender.Engine(home, authentication=NO_AUTH, readOnly=read_only)
    if os.path.exists(CLI):
        done = cli("verify", "--home", home)
        assert done.returncode != 0 and "never recorded" in done.stderr and "ledger valid" not in done.stdout, done


# ------------------------------------------------------------ 9. the testing-mode mark removed with SQL


@needs_cli
def test_the_testing_mode_mark_is_signed_and_survives_the_audit_rows_removed(tmp_path):
    home = os.fspath(tmp_path / "demo")
    done = cli("demo", "--home", home)
    assert done.returncode == 0, done.stdout + done.stderr
    sql(home, "DELETE FROM audit")
    done = cli("verify", "--home", home)
    assert done.returncode == 0, done.stderr
    assert "TESTING MODE: the signed ledger records payments let through by engines in testing mode" in done.stdout, done.stdout
    assert "1 stack(s), marked at record(s) 2" in done.stdout, done.stdout
    assert "not signed, not checked: the audit log" in done.stdout
    report = json.loads(cli("verify", "--home", home, "--json").stdout)
    assert len(report["testingMode"]) == 1 and "testingModeEntries" not in report
    # The mark itself cannot be taken out: the entries after it link to it.
    mark = report["testingMode"][0]
    sql(home, "DELETE FROM ledger WHERE sequence = ?", (mark,))
    done = cli("verify", "--home", home)
    assert done.returncode == 1 and f"record {mark}" in done.stderr, done


# ------------------------------------------------------------ 10. the last records removed, the balance fixed


def test_a_kept_checkpoint_catches_the_last_records_removed(tmp_path):
    home, kept = os.fspath(tmp_path / "home"), os.fspath(tmp_path / "elsewhere" / "tender.checkpoint")
    os.mkdir(tmp_path / "elsewhere")
    with pytest.raises(tender.TenderError, match="outside the home"):
        tender.Engine(home, authentication=NO_AUTH, checkpointPath=os.path.join(home, "cp"))
    with tender.Engine(home, authentication=NO_AUTH, checkpointPath=kept) as engine:
        engine.import_directory(directory())
        for index in range(3):
            pay(engine, "10.00", f"p{index}")
            with open(kept) as text:
                assert engine.verify(text.read())["records"] == index + 2
    # The last two payments removed and the balance set back to match.
    sql(home, "DELETE FROM ledger WHERE sequence > 2")
    sql(home, "UPDATE accounts SET balance_minor = 99000 WHERE id = 'checking'")
    assert valid(home)["records"] == 2  # nothing inside the store shows it
    if os.path.exists(CLI):
        done = cli("verify", "--home", home)
        assert done.returncode == 0 and "not checked: whether records were removed from the end" in done.stdout, done
    with open(kept) as text:
        invalid(home, "the checkpoint covers 4: it was truncated", checkpoint=text.read().strip())
    with tender.Engine(home, authentication=NO_AUTH, checkpointPath=kept, readOnly=True) as engine:
        with pytest.raises(tender.LedgerTamperedError, match="it was truncated"):
            engine.verify()
    # An engine that would write goes no further than the kept checkpoint, which stays as it was.
    with open(kept) as text:
        before = text.read()
    with pytest.raises(tender.LedgerTamperedError, match="covers 4 records, but the ledger holds 2: records were removed"):
        tender.Engine(home, authentication=NO_AUTH, checkpointPath=kept)
    with open(kept) as text:
        assert text.read() == before


# ------------------------------------------------------------ 18. a read-only verify changes nothing


def snapshot(home):
    files = {}
    for name in sorted(os.listdir(home)):
        path = os.path.join(home, name)
        if os.path.isfile(path):
            info = os.stat(path)
            with open(path, "rb") as data:
                files[name] = (info.st_mtime_ns, info.st_size, hashlib.sha256(data.read()).hexdigest())
    return files


@needs_cli
def test_a_read_only_verify_changes_no_file_while_a_writer_has_the_store_open(tmp_path):
    home = os.fspath(tmp_path / "home")
    with tender.Engine(home, authentication=NO_AUTH) as engine:
        engine.import_directory(directory())
        for index in range(3):
            pay(engine, "1.00", f"k{index}")
        assert os.path.exists(f"{home}/{STORE}-wal") and os.path.exists(f"{home}/{STORE}-shm")
        entries = len(engine.ledger())
        before = snapshot(home)
        time.sleep(0.05)
        done = cli("verify", "--home", home, "--json")
        assert snapshot(home) == before
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout)["records"] == entries  # the commits still in the -wal are seen


@needs_cli
def test_a_read_only_verify_changes_no_file_after_a_writer_was_killed(tmp_path):
    home = os.fspath(tmp_path / "home")
    with tender.Engine(home, authentication=NO_AUTH) as engine:
        engine.import_directory(directory())
    payer = subprocess.Popen([sys.executable, os.path.join(HERE, "crash_submitter.py"), home, "0"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert payer.stdout.readline().strip() == "ready"
        acked = [payer.stdout.readline() for _ in range(3)]
        assert all(line.startswith("ack ") for line in acked), acked
    finally:
        payer.send_signal(signal.SIGKILL)
        payer.wait()
    assert os.path.exists(f"{home}/{STORE}-wal") and os.path.exists(f"{home}/{STORE}-shm")
    before = snapshot(home)
    time.sleep(0.05)
    done = cli("verify", "--home", home, "--json")
    assert snapshot(home) == before
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["records"] >= len(acked)  # the acknowledged payments, still in the -wal


NO_LOCKS = r"""
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
static int refused(int cmd) { return cmd == F_SETLK || cmd == F_SETLKW || cmd == F_GETLK; }
#define SHIM(name) int name(int fd, int cmd, ...) { \
    va_list ap; va_start(ap, cmd); void *arg = va_arg(ap, void *); va_end(ap); \
    static int (*real)(int, int, ...); if (!real) real = (int (*)(int, int, ...))dlsym(RTLD_NEXT, #name); \
    if (refused(cmd)) { errno = ENOLCK; return -1; } return real(fd, cmd, arg); }
SHIM(fcntl)
SHIM(fcntl64)
"""


@needs_cli
@pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler for the lock-refusing shim")
def test_a_read_only_verify_of_a_home_at_rest_needs_no_file_lock_and_changes_no_file(tmp_path):
    # A home at rest keeps its -wal (emptied at the last close) and -shm. Read through them, a read-only open needs
    # file locks, which an archive's file system may refuse (NFS without its lock daemon, some FUSE mounts): verify
    # then failed with "database is locked" where a home with no -wal was read as immutable. An empty -wal holds
    # nothing, so such a home is read as immutable too.
    home = os.fspath(tmp_path / "home")
    with tender.Engine(home, authentication=NO_AUTH) as engine:
        engine.import_directory(directory())
        for index in range(3):
            pay(engine, "1.00", f"k{index}")
        entries = len(engine.ledger())
    assert os.path.getsize(f"{home}/{STORE}-wal") == 0 and os.path.exists(f"{home}/{STORE}-shm")
    source = tmp_path / "nolocks.c"
    source.write_text(NO_LOCKS)
    shim = tmp_path / "nolocks.so"
    built = subprocess.run(["cc", "-shared", "-fPIC", "-o", shim, source, "-ldl"], capture_output=True, text=True)
    assert built.returncode == 0, built.stderr
    before = snapshot(home)
    done = subprocess.run([CLI, "verify", "--home", home, "--json"], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "LD_PRELOAD": os.fspath(shim)})
    assert snapshot(home) == before
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["records"] == entries
