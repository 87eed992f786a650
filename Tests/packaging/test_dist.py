# SPDX-License-Identifier: Apache-2.0
"""make dist (issue 13.6): tender-VERSION.tar.gz holds every file git tracks
under tender-VERSION/, plus Package.resolved, and nothing built; the same tree
gives the same tarball; the unpacked tree's Makefile knows its version.
The whole offline build of the tarball is `make test-dist` (a few minutes)."""
import hashlib
import os
import tarfile

from conftest import BUILD, REPO, VERSION, run

TARBALL = os.path.join(BUILD, "dist", f"tender-{VERSION}.tar.gz")


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def test_dist_holds_the_tracked_files_and_is_reproducible(tmp_path):
    run(["make", "-s", "--no-print-directory", "-C", REPO, "dist"])
    first = digest(TARBALL)
    run(["make", "-s", "--no-print-directory", "-C", REPO, "dist"])
    assert digest(TARBALL) == first, "two make dist of the same tree differ"
    with tarfile.open(TARBALL) as tar:
        names = tar.getnames()
        members = tar.getmembers()
        tar.extractall(tmp_path)
    prefix = f"tender-{VERSION}/"
    assert all(n.startswith(prefix) for n in names)
    tracked = [f for f in run(["git", "-C", REPO, "ls-files"]).stdout.splitlines() if os.path.exists(os.path.join(REPO, f))]
    inside = {n[len(prefix):] for n in names}
    assert set(tracked) <= inside
    assert inside - set(tracked) == {"Package.resolved"}
    assert not any(n.split("/")[1] in ("build", ".build", ".build-tmp") for n in names)
    assert {m.uid for m in members} == {0} and len({m.mtime for m in members}) == 1
    tree = tmp_path / f"tender-{VERSION}"
    assert run(["make", "-s", "--no-print-directory", "-C", str(tree), "print-version"]).stdout.strip() == VERSION
    # A dry run of the build from the unpacked tree plans the Swift build (nothing is built here).
    plan = run(["make", "-n", "-C", str(tree), "build"]).stdout
    assert "swift build" in plan or "build -c release" in plan
