#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# make test-crash ROUNDS=N: kill -9 a process paying from eight threads N times
# (Tests/crash/crash_test.py) against build/lib/libtender.so and build/bin/tender.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
export TMPDIR="${TMPDIR:-$root/.build-tmp}"; mkdir -p "$TMPDIR"
export TENDER_LIBRARY="$root/build/lib/libtender.so.$(make -s --no-print-directory -C "$root" print-soversion)"
export TENDER_CLI="$root/build/bin/tender"
exec "${PYTHON:-python3}" "$root/Tests/crash/crash_test.py" --rounds "${1:-30}"
