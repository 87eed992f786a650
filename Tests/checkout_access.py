# SPDX-License-Identifier: Apache-2.0
"""Whether other users can reach a checkout: the tests that run tools as a
throwaway or ordinary user skip, saying why, when a directory above the
checkout is closed to others (a clone under a `mktemp -d` folder)."""
import os


def closed_to_others(path):
    """The first of `path` and the directories above it that other users cannot enter, or None."""
    while True:
        if not os.stat(path).st_mode & 0o001:
            return path
        parent = os.path.dirname(path)
        if parent == path:
            return None
        path = parent
