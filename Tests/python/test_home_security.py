# SPDX-License-Identifier: Apache-2.0
"""The home as an attacker sees it (issues 18 and 20).

- ownership and modes (ssh StrictModes): a home, store, -wal or -shm of
  another user, or writable by group or others, is refused; Tender creates
  them private (18.1), tested as two throwaway users;
- read-only opens create and change nothing and work on a read-only home (18.5);
- one uid: a process whose real and effective uids differ is refused (18.6);
- a refused open leaves nothing behind (20.2);
- the home is created through descriptors, and its parent must be safe (30.12);
- ledger continuity: a home that held a ledger does not silently start over (20.3).

The tests that need other users create them with useradd and remove them
afterwards; they skip, saying why, when not run as root.
"""

import json
import os
import pwd
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import uuid

import pytest

import libtender as tender
from conftest import DIRECTORY, NO_AUTH

HERE = os.path.dirname(os.path.abspath(__file__))
CLI = os.environ.get("TENDER_CLI") or os.path.join(HERE, "..", "..", "build", "bin", "tender")
STORE = "tender.sqlite3"
needs_root = pytest.mark.skipif(os.geteuid() != 0 or shutil.which("useradd") is None,
                                reason="needs root and useradd to create throwaway users")
needs_cli = pytest.mark.skipif(not os.access(CLI, os.X_OK), reason="the tender tool is not built")


def cli(*args, user=None):
    env = {k: v for k, v in os.environ.items() if k != "TENDER_HOME"}
    kwargs = {}
    if user is not None:
        kwargs = {"user": user.pw_uid, "group": user.pw_gid, "extra_groups": []}
    return subprocess.run([CLI, *args], capture_output=True, text=True, timeout=60, env=env, **kwargs)


def listing(path):
    """Every path under `path` with its mode, owner, size and mtime: what 'changed nothing' compares."""
    seen = {}
    for root, dirs, files in os.walk(path):
        for name in [".", *dirs, *files]:
            full = os.path.normpath(os.path.join(root, name))
            info = os.lstat(full)
            seen[os.path.relpath(full, path)] = (info.st_mode, info.st_uid, info.st_size, info.st_mtime_ns)
    return seen


@pytest.fixture
def shared(tmp_path):
    """A directory every user can reach (the test's tmp_path is private to root)."""
    base = os.environ.get("TMPDIR") or tempfile.gettempdir()
    path = tempfile.mkdtemp(prefix="tender-shared-", dir=base)
    os.chmod(path, 0o1777)
    probe = path
    while probe != "/":  # every parent must let others through
        if not os.stat(probe).st_mode & 0o001:
            shutil.rmtree(path)
            pytest.skip(f"{probe} cannot be traversed by other users")
        probe = os.path.dirname(probe)
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture
def users():
    """Two throwaway users, removed afterwards."""
    made = []
    for role in ("a", "b"):
        name = f"tsec{role}{uuid.uuid4().hex[:8]}"
        subprocess.run(["useradd", "--no-create-home", "--shell", "/usr/sbin/nologin", name], check=True)
        made.append(name)
    try:
        yield [pwd.getpwnam(name) for name in made]
    finally:
        for name in made:
            subprocess.run(["userdel", name], check=False)


def paid_home(home):
    """A home with one payment in its ledger, closed."""
    with tender.Engine(home, authentication=NO_AUTH) as engine:
        engine.import_directory(DIRECTORY)
        with engine.session({"intent": "send_payment", "payee": {"id": "tim-cook"},
                             "currencyAmount": {"amount": "5.00", "currency": "USD"}}) as session:
            session.resolve()
            session.confirm()
            assert session.handle()[0] == tender.ResponseCode.SUCCESS
    return home


# ------------------------------------------------------ 18.1 ownership and modes


@needs_root
@needs_cli
def test_a_home_prepared_by_another_user_is_refused(shared, users):
    attacker, victim = users
    home = os.path.join(shared, "home")
    # the attacker pre-creates the victim's home 0777 and the store 0666
    made = subprocess.run(["sh", "-c", f"umask 0; mkdir -m 0777 {home} && : > {home}/{STORE} && chmod 0666 {home}/{STORE}"],
                          user=attacker.pw_uid, group=attacker.pw_gid, extra_groups=[])
    assert made.returncode == 0
    before = listing(home)
    for command in (["init", "--home", home], ["directory", "list", "--home", home], ["verify", "--home", home]):
        done = cli(*command, user=victim)
        assert done.returncode != 0, (command, done.stdout)
        assert f"belongs to uid {attacker.pw_uid}" in done.stderr, done.stderr
    assert listing(home) == before  # refused: nothing created or changed


@needs_root
@needs_cli
@pytest.mark.parametrize("target", ["", f"/{STORE}", f"/{STORE}-wal", f"/{STORE}-shm"])
def test_group_or_world_writable_files_of_the_user_are_refused(shared, users, target):
    _, victim = users
    home = os.path.join(shared, "home")
    assert cli("init", "--home", home, user=victim).returncode == 0
    for suffix in ("-wal", "-shm"):  # as SQLite leaves them beside an open store
        path = f"{home}/{STORE}{suffix}"
        if target == f"/{STORE}{suffix}":
            open(path, "wb").close()
            os.chown(path, victim.pw_uid, victim.pw_gid)
    os.chmod(home + target, 0o777 if target == "" else 0o666)
    done = cli("directory", "list", "--home", home, user=victim)
    assert done.returncode != 0 and "writable by group or others" in done.stderr, done.stderr
    os.chmod(home + target, 0o700 if target == "" else 0o600)
    assert cli("directory", "list", "--home", home, user=victim).returncode == 0


def test_tender_creates_the_home_and_the_store_private(tmp_path):
    home = tmp_path / "a" / "home"
    old = os.umask(0)
    try:
        with tender.Engine(home, authentication=NO_AUTH) as engine:
            engine.import_directory(DIRECTORY)
            modes = {name: os.stat(home / name).st_mode & 0o777
                     for name in (".", STORE, STORE + "-wal", STORE + "-shm", "keys", ".tender-ledger")}
    finally:
        os.umask(old)
    assert modes == {".": 0o700, STORE: 0o600, STORE + "-wal": 0o600, STORE + "-shm": 0o600,
                     "keys": 0o700, ".tender-ledger": 0o600}


# ------------------------------------------------------ 18.5 read-only


@needs_root
@needs_cli
def test_verify_and_list_work_on_a_read_only_home(shared, users):
    _, reader = users
    home = paid_home(os.path.join(shared, "home"))
    for root, dirs, files in os.walk(home):
        os.chown(root, reader.pw_uid, reader.pw_gid)
        os.chmod(root, 0o500)
        for name in files:
            os.chown(os.path.join(root, name), reader.pw_uid, reader.pw_gid)
            os.chmod(os.path.join(root, name), 0o400)
    before = listing(home)
    verified = cli("verify", "--home", home, user=reader)
    assert verified.returncode == 0 and "ledger valid: 2 records" in verified.stdout, verified.stderr
    listed = cli("directory", "list", "--home", home, user=reader)
    assert listed.returncode == 0, listed.stderr
    assert json.loads(listed.stdout)["contacts"]
    assert listing(home) == before


def test_read_only_engines_and_commands_create_nothing(tmp_path):
    home = paid_home(tmp_path / "home")
    before = listing(home)
    with tender.Engine(home, authentication=NO_AUTH, readOnly=True) as engine:
        assert engine.verify()["records"] == 2  # the directory's signed balances, the payment
        assert engine.directory()["contacts"]
        with pytest.raises(tender.TenderError):
            engine.set_signed_in(True)
    assert listing(home) == before
    typo = tmp_path / "hoem"
    with pytest.raises(tender.HomeError, match="no Tender home"):
        tender.Engine(typo, authentication=NO_AUTH, readOnly=True)
    assert not typo.exists()
    if os.access(CLI, os.X_OK):
        for command in (["verify"], ["directory", "list"], ["directory", "signed-in"], ["parse", "send $5 to Tim"]):
            done = cli(*command[:2], "--home", str(typo), *command[2:])
            assert done.returncode != 0 and "no Tender home" in done.stderr, (command, done.stderr)
        assert not typo.exists()
        assert cli("verify", "--home", str(home)).returncode == 0
        assert listing(home) == before


# ------------------------------------------------------ 18.6 one uid


@needs_root
def test_real_and_effective_uids_that_differ_are_refused(shared, users):
    real, effective = users
    pam_dir = os.path.join(shared, "pam.d")
    os.mkdir(pam_dir)
    with open(os.path.join(pam_dir, "tender-test"), "w") as f:
        f.write("auth required pam_permit.so\naccount required pam_permit.so\n")
    home = os.path.join(shared, "home")
    os.mkdir(home, 0o700)
    os.chown(home, effective.pw_uid, effective.pw_gid)
    script = f"""
import os, sys
import libtender as tender
os.setresgid({effective.pw_gid}, {effective.pw_gid}, 0)
os.setresuid({real.pw_uid}, {effective.pw_uid}, 0)
for authentication in ({{"service": "tender-test", "pamConfigDirectory": {pam_dir!r}}}, {{"restrictedIntents": []}}):
    try:
        tender.Engine({home!r}, authentication=authentication, testing=True)
    except tender.TenderError as error:
        print(type(error).__name__, error.message)
    else:
        print("opened")
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 2 and all(line.startswith("AuthServiceError") and "real uid" in line for line in lines), done.stdout
    assert os.listdir(home) == []


# ------------------------------------------------------ 30.12 the home creation race


@needs_root
@pytest.mark.skipif(shutil.which("perl") is None, reason="the attacker's loop is a perl one-liner")
def test_a_home_another_user_makes_meanwhile_is_never_used(shared, users):
    """Issue 30.12: in a shared sticky directory another user loops mkdir (0777) and rmdir on the home's
    path. Whatever Tender's mkdir meets there, it opens the directory and checks that: it never writes
    its store into a home of that user (before, it did within about a hundred tries)."""
    attacker = users[1]
    home = os.path.join(shared, "home")
    loop = subprocess.Popen(
        ["setpriv", f"--reuid={attacker.pw_uid}", f"--regid={attacker.pw_gid}", "--clear-groups", "--", "perl", "-e",
         'umask 0; while (1) { mkdir($ARGV[0], 0777); rmdir($ARGV[0]); }', home],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    refused = made = 0
    try:
        for _ in range(300):
            try:
                with tender.Engine(home, authentication=NO_AUTH):
                    pass
            except tender.HomeError:
                refused += 1
                continue
            finally:
                try:
                    info = os.lstat(home)
                except FileNotFoundError:  # the other user's rmdir came between
                    info = None
                assert info is None or info.st_uid != attacker.pw_uid or not os.path.exists(os.path.join(home, STORE)), \
                    "the store was written into a home the other user made"
            made += 1
            assert os.stat(home).st_uid == 0 and os.stat(home).st_mode & 0o777 == 0o700
            shutil.rmtree(home)
    finally:
        loop.kill()
        loop.wait()
    assert refused > 0 and made > 0, (refused, made)  # the race was run both ways


# ------------------------------------------------------ 20.2 a refusal leaves nothing


def test_a_refused_open_leaves_nothing_behind(tmp_path):
    target = tmp_path / "target"
    target.mkdir(mode=0o700)
    link = tmp_path / "home"
    link.symlink_to(target)
    with pytest.raises(tender.HomeError, match="symbolic link"):
        tender.Engine(link, authentication=NO_AUTH)
    assert list(target.iterdir()) == [] and link.is_symlink()
    loose = tmp_path / "loose"
    loose.mkdir()
    loose.chmod(0o777)
    with pytest.raises(tender.HomeError, match="writable by group or others"):
        tender.Engine(loose, authentication=NO_AUTH)
    assert list(loose.iterdir()) == []


# ------------------------------------------------------ 20.3 ledger continuity


def move_store_away(home, to):
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(f"{home}/{STORE}{suffix}"):
            os.rename(f"{home}/{STORE}{suffix}", f"{to}{suffix}")


def test_a_missing_store_is_an_error_until_a_new_ledger_is_asked_for(tmp_path):
    home = paid_home(tmp_path / "home")
    move_store_away(home, tmp_path / "elsewhere.sqlite3")
    keys_before = sorted(os.listdir(home / "keys"))
    with pytest.raises(tender.HomeError) as info:
        tender.Engine(home, authentication=NO_AUTH)
    assert f"{STORE} is missing" in info.value.message and "1 signing key(s) in keys/" in info.value.message
    assert ".tender-ledger" in info.value.message and "tender init --force" in info.value.message
    assert not (home / STORE).exists() and sorted(os.listdir(home / "keys")) == keys_before
    # the marker alone is enough
    shutil.rmtree(home / "keys")
    with pytest.raises(tender.HomeError, match="the marker .tender-ledger"):
        tender.Engine(home, authentication=NO_AUTH)
    if os.access(CLI, os.X_OK):
        done = cli("init", "--home", str(home))
        assert done.returncode != 0 and "is missing" in done.stderr
        assert cli("init", "--force", "--home", str(home)).returncode == 0
    else:
        tender.Engine(home, authentication=NO_AUTH, newLedger=True).close()
    with tender.Engine(home, authentication=NO_AUTH) as engine:
        assert engine.verify()["records"] == 0


def test_an_empty_store_beside_a_key_that_signed_is_refused(tmp_path):
    home = paid_home(tmp_path / "home")
    with tender.Engine(tmp_path / "fresh", authentication=NO_AUTH):
        pass  # a store whose ledger is empty
    move_store_away(home, tmp_path / "old.sqlite3")
    shutil.copy(tmp_path / "fresh" / STORE, home / STORE)
    with pytest.raises(tender.HomeError, match="the store was replaced"):
        tender.Engine(home, authentication=NO_AUTH)
    tender.Engine(home, authentication=NO_AUTH, newLedger=True).close()


def test_first_opens_of_a_new_home_at_once_all_open_it(tmp_path):
    """Several first opens of one new home at once (an app and its extension, or two spellings of its path in an
    engine cache): one made the marker before the store, and another, meeting the marker without the store, was
    refused with "the store is missing ... restore the store, or start a new ledger with `tender init --force`"
    (advice that would throw away a ledger). The store is now made first, and evidence met without it looks again."""
    import threading
    failures = []
    for n in range(12):
        home = tmp_path / f"h{n}"
        barrier = threading.Barrier(3)

        def first_open():
            barrier.wait()
            try:
                tender.Engine(home, authentication=NO_AUTH).close()
            except tender.TenderError as error:
                failures.append(error)
        threads = [threading.Thread(target=first_open) for _ in range(3)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert not failures, failures[:2]


@needs_root
def test_an_engine_cache_never_hands_one_users_engine_to_another(shared, users):
    """Adversary: a host serving several users from one process, switching its uids per request (setresuid with root
    kept as the saved uid). The engine cache found a kept engine by the home's device and inode alone, which any user
    who may search the home's parent can read (O_PATH), so B's request for A's home was served A's engine, opened
    with A's rights: A's contacts and accounts, where B's own open of that home is refused. Kept engines are now the
    user's who opened them (real and effective uid)."""
    alice, bob = users
    home = os.path.join(shared, "alice-home")
    script = f"""
import os
import libtender as tender
def become(user):
    os.setresuid(0, 0, 0)
    os.setresgid(0, 0, 0)
    if user is not None:
        os.setresgid(user[1], user[1], 0)
        os.setresuid(user[0], user[0], 0)
with tender.EngineCache(4) as cache:
    become(({alice.pw_uid}, {alice.pw_gid}))
    with cache.engine({home!r}, authentication={{"restrictedIntents": []}}) as engine:
        engine.import_directory({{"contacts": [{{"id": "alice-secret", "displayName": "Alice's friend",
                                  "handles": [{{"id": "af", "label": "mobile", "type": "phone", "value": "1"}}]}}]}})
    become(({bob.pw_uid}, {bob.pw_gid}))
    for how in ("cache", "engine"):
        try:
            opened = cache.engine({home!r}, authentication={{"restrictedIntents": []}}) if how == "cache" else \\
                tender.Engine({home!r}, authentication={{"restrictedIntents": []}})
        except tender.TenderError as error:
            print(how, "refused", type(error).__name__)
        else:
            with opened:
                print(how, "served", [c["id"] for c in opened.directory()["contacts"]])
    become(None)
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert lines[1].startswith("engine refused"), done.stdout  # without the cache, Bob cannot open Alice's home
    assert lines[0].startswith("cache refused"), done.stdout
