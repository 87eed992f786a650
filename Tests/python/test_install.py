# SPDX-License-Identifier: Apache-2.0
"""`make install` installs and does nothing else (issue 21): no dependency
installation, no network, no `swift build` when build/ is current; and
ensure-deps, as an ordinary user missing pytest, suggests what works on
Debian 12. Run as an ordinary user: root runs the commands as `nobody`
(setpriv)."""
import os
import pwd
import shutil
import subprocess
import sys

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, "Tests"))
from checkout_access import closed_to_others  # noqa: E402  (after the path set-up)
VERSION = subprocess.run(["make", "-s", "--no-print-directory", "-C", REPO, "print-version"], capture_output=True, text=True).stdout.strip()
SOVERSION = subprocess.run(["make", "-s", "--no-print-directory", "-C", REPO, "print-soversion"], capture_output=True, text=True).stdout.strip()
BUILT = [os.path.join(REPO, "build", "lib", f"libtender.so.{VERSION}"), os.path.join(REPO, "build", "bin", "tender")]
pytestmark = pytest.mark.skipif(not all(os.path.exists(p) for p in BUILT), reason="build/ is not built (make build)")

#: Commands that install, fetch or build: each one found on PATH records that it ran, and fails.
TRAPPED = ["apt-get", "apt", "dpkg", "pip", "pip3", "curl", "wget", "git", "swift", "sudo"]


@pytest.fixture
def user_dir():
    """A directory the ordinary user owns, reachable by it (pytest's own are 0700 root's)."""
    if os.getuid() == 0:
        blocked = closed_to_others(REPO)
        if blocked:
            pytest.skip(f"the ordinary user cannot reach this checkout ({blocked} is closed to others, e.g. a mktemp -d folder)")
    path = os.path.join(REPO, "build", "install-test")
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    if os.getuid() == 0:
        nobody = pwd.getpwnam("nobody")
        os.chown(path, nobody.pw_uid, nobody.pw_gid)
    yield path
    shutil.rmtree(path, ignore_errors=True)


def as_user(args, env):
    """Runs `args` as an ordinary user: this one, or `nobody` when this is root."""
    prefix = []
    if os.getuid() == 0:
        nobody = pwd.getpwnam("nobody")
        prefix = ["setpriv", f"--reuid={nobody.pw_uid}", f"--regid={nobody.pw_gid}", "--clear-groups", "--"]
    return subprocess.run(prefix + args, env=env, capture_output=True, text=True, timeout=300)


def trap_dir(path, ran):
    tools = os.path.join(path, "trapped-tools")
    os.makedirs(tools)
    for name in TRAPPED:
        tool = os.path.join(tools, name)
        with open(tool, "w") as f:
            f.write(f"#!/bin/sh\necho {name} \"$@\" >> {ran}\nexit 1\n")
        os.chmod(tool, 0o755)
    return tools


def environment(user_dir, tools):
    return {"PATH": tools + ":/usr/local/bin:/usr/bin:/bin", "HOME": user_dir, "LANG": "C.UTF-8",
            "SWIFT": os.path.join(tools, "swift"), "TMPDIR": user_dir}


def test_make_install_as_an_ordinary_user_only_copies(user_dir):
    ran = os.path.join(user_dir, "ran.log")
    tools = trap_dir(user_dir, ran)
    prefix = os.path.join(user_dir, "prefix")
    before = {p: os.stat(p).st_mtime_ns for p in BUILT}
    done = as_user(["make", "-C", REPO, "install", f"PREFIX={prefix}", f"PAMDIR={prefix}/etc/pam.d"],
                   environment(user_dir, tools))
    assert done.returncode == 0, done.stdout + done.stderr
    assert not os.path.exists(ran), "make install ran: " + open(ran).read()
    assert "ensure-deps" not in done.stdout + done.stderr
    assert {p: os.stat(p).st_mtime_ns for p in BUILT} == before, "build/ was rebuilt"
    for f in [f"lib/libtender.so.{VERSION}", f"lib/libtender.so.{SOVERSION}", "lib/libtender.so", "include/tender.h", "bin/tender",
              "lib/pkgconfig/tender.pc", "etc/pam.d/tender"]:
        assert os.path.lexists(os.path.join(prefix, f)), f"missing after install: {f}"
    with open(os.path.join(prefix, "lib/pkgconfig/tender.pc")) as pc:
        assert f"libdir={prefix}/lib" in pc.read()


def test_ensure_deps_as_an_ordinary_user_suggests_what_debian_12_allows(user_dir):
    ran = os.path.join(user_dir, "ran.log")
    tools = trap_dir(user_dir, ran)
    # A Python that cannot see pytest (no site-packages).
    bare = os.path.join(tools, "bare-python")
    with open(bare, "w") as f:
        f.write("#!/bin/sh\nexec /usr/bin/python3 -S \"$@\"\n")
    os.chmod(bare, 0o755)
    env = environment(user_dir, tools)
    env["PYTHON"] = bare
    done = as_user([os.path.join(REPO, "scripts", "ensure-deps.sh"), "test"], env)
    assert done.returncode == 1, done.stdout + done.stderr
    message = done.stderr
    assert "pytest is missing" in message
    assert "apt install python3-pytest" in message
    assert "python3 -m venv" in message and "pip install pytest" in message
    assert "--user" not in message  # Debian 12 refuses pip install --user (PEP 668)
    assert not os.path.exists(ran), "ensure-deps ran: " + open(ran).read()
