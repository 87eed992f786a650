#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# LeakSanitizer over the Swift test suites (make test-leaks): builds them with
# AddressSanitizer, runs them, and fails on any leak outside the test runner
# (scripts/sanitizers/lsan.supp says what is suppressed and why).
#   scripts/sanitizers/leaks.sh [swift test --filter pattern]
set -eu
cd "$(dirname "$0")/../.."
SWIFT=${SWIFT:-$(command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)}
export TMPDIR="${TMPDIR:-$PWD/.build-tmp}"
mkdir -p "$TMPDIR"
filter=${1:-}
log="$TMPDIR/leaks.log"
export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1"
export LSAN_OPTIONS="suppressions=$PWD/scripts/sanitizers/lsan.supp:print_suppressions=1"
set -- test --scratch-path "$PWD/.build-asan" --sanitize=address
[ -n "$filter" ] && set -- "$@" --filter "$filter"
status=0
"$SWIFT" "$@" >"$log" 2>&1 || status=$?
if grep -q "ERROR: LeakSanitizer" "$log"; then
    grep -E "SUMMARY|leak of|^    #[0-9]+ .*(Tender|\\\$s)" "$log" | head -60
    echo "test-leaks: LeakSanitizer found leaks (full log: $log)" >&2
    exit 1
fi
if [ "$status" -ne 0 ]; then
    tail -40 "$log"
    echo "test-leaks: the tests failed under AddressSanitizer (full log: $log)" >&2
    exit "$status"
fi
grep -E "Test run with|Executed [0-9]+ tests" "$log" | tail -2
echo "test-leaks: no leak"
