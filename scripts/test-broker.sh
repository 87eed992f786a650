#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The broker tests (Tests/broker): tenderd run as a throwaway user, clients as
# others, PAM on a pam_matrix stack only the daemon reads. They need root (to
# make users and switch to them) and skip, saying why, without it.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
export TMPDIR="${TMPDIR:-$root/.build-tmp}"; mkdir -p "$TMPDIR"
if [ "$(id -u)" != 0 ]; then
    echo "broker tests skipped: they make throwaway users and run tenderd as one, which needs root (run make test-broker as root)"
    exit 0
fi
python=${PYTHON:-python3}
# pytest's own per-test timeout is not installed everywhere: bound the whole run instead (< 2 min expected).
exec timeout 300 "$python" -m pytest -q -p no:cacheprovider "$root/Tests/broker"
