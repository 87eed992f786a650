# SPDX-License-Identifier: Apache-2.0
"""make install into a user prefix as an ordinary user, and make uninstall
(issue 13.1): as root, a throwaway unprivileged user is created for the run and
removed after; otherwise the run is this (ordinary) user's."""
import fnmatch
import os
import re
import shutil
import subprocess
import sys
import uuid

import pytest

from conftest import BUILD, IS_ROOT, REPO, SONAME, LIBFILE, VERSION, closed_to_others, files_under, needs_build, run, user_ids


@pytest.fixture
def throwaway_user():
    """(name, home): a new unprivileged user whose home is under build/ (root), else this user."""
    base = os.path.join(BUILD, "user-install-test")
    shutil.rmtree(base, ignore_errors=True)
    os.makedirs(base)
    if not IS_ROOT:
        yield None, base
        shutil.rmtree(base, ignore_errors=True)
        return
    blocked = closed_to_others(REPO)
    if blocked:
        shutil.rmtree(base, ignore_errors=True)
        pytest.skip(f"a throwaway user cannot reach this checkout ({blocked} is closed to others, e.g. a mktemp -d folder)")
    name = "tdr-" + uuid.uuid4().hex[:10]
    home = os.path.join(base, "home")
    run(["useradd", "--no-create-home", "--home-dir", home, "--shell", "/bin/sh", "--user-group", name])
    try:
        os.makedirs(home)
        uid, gid = user_ids(name)
        os.chown(home, uid, gid)
        yield name, home
    finally:
        subprocess.run(["userdel", name], capture_output=True)
        shutil.rmtree(base, ignore_errors=True)


def as_user(name, home, args):
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": home, "LANG": "C.UTF-8", "TMPDIR": home}
    prefix = []
    if name is not None:
        uid, gid = user_ids(name)
        prefix = ["setpriv", f"--reuid={uid}", f"--regid={gid}", "--clear-groups", "--"]
    return subprocess.run(prefix + args, env=env, capture_output=True, text=True, timeout=300)


@needs_build
def test_user_prefix_install_and_uninstall(throwaway_user):
    name, home = throwaway_user
    prefix = os.path.join(home, ".local")
    done = as_user(name, home, ["make", "-C", REPO, "install", f"PREFIX={prefix}"])
    assert done.returncode == 0, done.stdout + done.stderr
    if name is not None:
        assert run(["id", "-u", name]).stdout.strip() != "0"

    installed = files_under(prefix)
    manpages = sorted(os.listdir(os.path.join(BUILD, "man")))
    expected = sorted([f"lib/{LIBFILE}", f"lib/{SONAME}", "lib/libtender.so", "include/tender.h", "bin/tender",
                       "lib/pkgconfig/tender.pc", "etc/pam.d/tender", "share/man/man3/libtender.3",
                       "share/bash-completion/completions/tender", "share/zsh/site-functions/_tender",
                       "share/fish/vendor_completions.d/tender.fish", "sbin/tenderd", "lib/systemd/system/tenderd.service",
                       "lib/systemd/system/tenderd.socket", "lib/sysusers.d/tender.conf", "lib/tmpfiles.d/tender.conf", "share/man/man8/tenderd.8"]
                      + [f"share/man/man1/{m}" for m in manpages])
    assert installed == expected
    # docs/install.md's table names every file install wrote, and no other (issue 33.6).
    documented = documented_install_files()
    assert sorted(documented) == sorted(set(documented)), "a file is listed twice"
    by_doc = set()
    for entry in documented:
        pattern = entry.replace("<version>", VERSION)
        matched = fnmatch.filter(installed, pattern)
        assert matched, f"docs/install.md lists {entry}, which make install did not write"
        by_doc.update(matched)
    assert by_doc == set(installed), f"make install wrote files docs/install.md does not list: {sorted(set(installed) - by_doc)}"
    # SYSCONFDIR follows a user prefix, and install says in one line what real re-authentication needs.
    notes = [line for line in done.stdout.splitlines() if "install-pam" in line]
    assert len(notes) == 1, done.stdout
    assert "sudo make install-pam" in notes[0] and "/etc/pam.d" in notes[0] and prefix + "/etc/pam.d/tender" in notes[0]
    # The installed tool runs and knows its version.
    version = as_user(name, home, [os.path.join(prefix, "bin", "tender"), "--version"])
    assert version.stdout.strip() == VERSION

    done = as_user(name, home, ["make", "-C", REPO, "uninstall", f"PREFIX={prefix}"])
    assert done.returncode == 0, done.stdout + done.stderr
    assert files_under(prefix) == [], "left after make uninstall"
    # Only directories are left, each one empty (as automake's uninstall leaves them).
    for folder, _, names in os.walk(prefix):
        assert names == [], folder


def documented_install_files():
    """The first column of docs/install.md's table of what make install writes."""
    with open(os.path.join(REPO, "docs", "install.md"), encoding="utf-8") as f:
        text = f.read()
    table = text.split("### What `make install` writes", 1)[1].split("\n\n", 2)[2].split("\n\n", 1)[0]
    return [re.match(r"\| `([^`]+)` \|", row).group(1) for row in table.splitlines()[2:]]


def test_sysconfdir_defaults():
    """SYSCONFDIR is /etc for /usr and /usr/local, else PREFIX/etc; PAMDIR follows it."""
    # Expanded by the Makefile itself.
    def expanded(variable, *args):
        out = run(["make", "-s", "--no-print-directory", "-C", REPO, "--eval", f"show-it: ; @echo $({variable})", "show-it", *args]).stdout
        return out.strip()
    assert expanded("PAMDIR") == "/etc/pam.d"
    assert expanded("PAMDIR", "PREFIX=/usr") == "/etc/pam.d"
    assert expanded("SYSCONFDIR", "PREFIX=/opt/tender") == "/opt/tender/etc"
    assert expanded("PAMDIR", "PREFIX=/home/someone/.local") == "/home/someone/.local/etc/pam.d"
    assert expanded("PAMDIR", "PREFIX=/opt/t", "SYSCONFDIR=/etc/opt/t") == "/etc/opt/t/pam.d"
    assert expanded("ZSHCOMPDIR", "PREFIX=/usr") == "/usr/share/zsh/vendor-completions"
    assert expanded("ZSHCOMPDIR", "PREFIX=/opt/t") == "/opt/t/share/zsh/site-functions"


@needs_build
def test_install_pam_writes_the_system_service_only(tmp_path):
    """install-pam (run under DESTDIR here) writes exactly etc/pam.d/tender, uninstall-pam removes it."""
    stage = tmp_path / "stage"
    run(["make", "-s", "--no-print-directory", "-C", REPO, "install-pam", f"DESTDIR={stage}", "PREFIX=/home/someone/.local"])
    assert files_under(stage) == ["etc/pam.d/tender"]
    run(["make", "-s", "--no-print-directory", "-C", REPO, "uninstall-pam", f"DESTDIR={stage}"])
    assert files_under(stage) == []


@needs_build
def test_a_missing_pam_service_names_install_pam(tmp_path):
    """The engine's refusal, seen from the library, names sudo make install-pam."""
    if os.path.exists("/etc/pam.d/tender"):
        pytest.skip("/etc/pam.d/tender exists on this machine: the refusal cannot happen")
    code = ("import libtender, sys\n"
            "try:\n    libtender.Engine(sys.argv[1])\n"
            "except libtender.AuthServiceError as e:\n    print(e.message)\n")
    env = dict(os.environ, TENDER_LIBRARY=os.path.join(BUILD, "lib", SONAME), PYTHONPATH=os.path.join(REPO, "python"))
    env.pop("PAM_WRAPPER", None)
    out = run([sys.executable, "-c", code, str(tmp_path / "home")], env=env).stdout
    assert "sudo make install-pam" in out and "/etc/pam.d" in out, out
