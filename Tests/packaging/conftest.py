# SPDX-License-Identifier: Apache-2.0
"""Shared helpers of the packaging tests (Tests/packaging, run by scripts/test-packaging.sh).

The version, the soname and the build outputs are read from the Makefile and
VERSION, never written here, so a version bump changes VERSION alone.
"""
import os
import pwd
import subprocess
import sys

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, "Tests"))
from checkout_access import closed_to_others  # noqa: E402,F401  (after the path set-up; the tests import it from here)
BUILD = os.path.join(REPO, "build")


def make_variable(name):
    """What `make print-NAME` says (the Makefile's own value)."""
    return subprocess.run(["make", "-s", "--no-print-directory", "-C", REPO, f"print-{name}"], capture_output=True, text=True,
                          check=True).stdout.strip()


VERSION = make_variable("version")
SOVERSION = make_variable("soversion")
SONAME = f"libtender.so.{SOVERSION}"
LIBFILE = f"libtender.so.{VERSION}"
LIBRARY = os.path.join(BUILD, "lib", LIBFILE)
CLI = os.path.join(BUILD, "bin", "tender")
IS_ROOT = os.getuid() == 0

needs_build = pytest.mark.skipif(not (os.path.exists(LIBRARY) and os.path.exists(CLI)),
                                 reason="build/ is not built (make build)")
needs_root = pytest.mark.skipif(not IS_ROOT, reason="needs root (installs Debian packages or creates a user)")


def run(args, **kwargs):
    """Runs a command, failing the test with its output when it fails."""
    kwargs.setdefault("capture_output", True)
    kwargs.setdefault("text", True)
    done = subprocess.run(args, **kwargs)
    if done.returncode != 0:
        pytest.fail(f"{' '.join(map(str, args))} exited {done.returncode}:\n{done.stdout}\n{done.stderr}")
    return done


def user_ids(name):
    entry = pwd.getpwnam(name)
    return entry.pw_uid, entry.pw_gid


def files_under(path):
    """Every file and symbolic link below `path`, relative to it, sorted."""
    found = []
    for folder, _, names in os.walk(path):
        for n in names:
            found.append(os.path.relpath(os.path.join(folder, n), path))
    return sorted(found)
