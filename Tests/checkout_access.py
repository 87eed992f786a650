# SPDX-License-Identifier: Apache-2.0
"""Whether other users can reach a checkout: the tests that run tools as a
throwaway or ordinary user skip, saying why, when a directory above the
checkout is closed to others (a clone under a `mktemp -d` folder), or run
from a copy of what those users need (``reachable_copy``)."""
import atexit
import os
import shutil
import tempfile


def closed_to_others(path):
    """The first of `path` and the directories above it that other users cannot enter, or None."""
    while True:
        if not os.stat(path).st_mode & 0o001:
            return path
        parent = os.path.dirname(path)
        if parent == path:
            return None
        path = parent


def reachable_copy(root, parts):
    """`root` when other users can reach it (or when not root, as then nothing runs as another user); otherwise a copy
    of `parts` (paths relative to `root`, the missing ones left out) in a new folder under /tmp that everyone may read
    and enter, removed at exit. So the suites that run the built tools as throwaway users run, rather than skip, in
    a checkout under a `mktemp -d` folder."""
    if os.geteuid() != 0 or closed_to_others(root) is None:
        return root
    staged = tempfile.mkdtemp(prefix="tender-reachable-", dir="/tmp")
    atexit.register(shutil.rmtree, staged, True)
    for part in parts:
        source, target = os.path.join(root, part), os.path.join(staged, part)
        if not os.path.exists(source):
            continue
        os.makedirs(os.path.dirname(target), exist_ok=True)
        if os.path.isdir(source):
            shutil.copytree(source, target, symlinks=True, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(source, target)
    for directory, _, files in os.walk(staged):
        os.chmod(directory, 0o755)
        for name in files:
            path = os.path.join(directory, name)
            if not os.path.islink(path):
                os.chmod(path, 0o755 if os.stat(path).st_mode & 0o100 else 0o644)
    return staged
