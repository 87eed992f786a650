#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Packaging tests (Tests/packaging): make install and uninstall as a throwaway user, the
# version agreement, man pages and completions, make dist, make wheel in a fresh virtual
# environment and, as root, make deb with its install, build, run and purge. Tests that need
# root or a missing tool skip, saying why (pytest -rs lists them).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
export TMPDIR="${TMPDIR:-$root/.build-tmp}"; mkdir -p "$TMPDIR"
python=${PYTHON:-python3}
cd "$root/Tests/packaging"
# Arguments: test files to run (default: all of them).
[ $# -gt 0 ] || set -- .
exec "$python" -m pytest -q -rs -p no:cacheprovider --durations=5 -s "$@"
