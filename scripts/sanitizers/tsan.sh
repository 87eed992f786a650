#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# make test-tsan: ThreadSanitizer over the Swift suites that run threads (signing
# batches, the worker pool, the store's concurrent writers, the ledger verifier) and
# over libtender itself: Tests/tsan/threads.c, eight threads paying, verifying, rotating
# the key and importing the directory on one engine at once. Any report fails.
# Suppressions: scripts/sanitizers/tsan.supp (Synchronization.Mutex only, with the reason).
set -eu
cd "$(dirname "$0")/../.."
root=$PWD
SWIFT=${SWIFT:-$(command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)}
toolchain=$(dirname "$(readlink -f "$SWIFT")")
export TMPDIR="${TMPDIR:-$root/.build-tmp}"
mkdir -p "$TMPDIR"
scratch=$root/.build-tsan
work=$root/build/tsan
rm -rf "$work"
mkdir -p "$work"
export TSAN_OPTIONS="suppressions=$root/scripts/sanitizers/tsan.supp:halt_on_error=1:second_deadlock_stack=1"

echo "== Swift suites with threads, under TSan"
"$SWIFT" test --scratch-path "$scratch" --sanitize=thread \
    --filter "SigningBatchTests|WorkerPoolTests|SQLiteStoreTests|LedgerVerifierTests|KeyFileTests|GroupCommitQueueTests|SealContextTests" >"$work/swift.log" 2>&1 || {
    grep -A30 "WARNING: ThreadSanitizer" "$work/swift.log" | head -60; tail -20 "$work/swift.log"
    echo "test-tsan: the Swift suites failed under TSan (log: $work/swift.log)" >&2; exit 1; }
grep -E "Test run with|Executed [0-9]+ tests" "$work/swift.log" | tail -2

echo "== 8 threads on one engine (libtender with TSan)"
"$SWIFT" build --scratch-path "$scratch" --sanitize=thread --product tender >"$work/build.log" 2>&1 || { tail -20 "$work/build.log"; exit 1; }
lib=$("$SWIFT" build --scratch-path "$scratch" --sanitize=thread --show-bin-path)
mkdir -p "$work/lib"
ln -sf "$lib/libtender.so" "$work/lib/$(readelf -d "$lib/libtender.so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')"
"$toolchain/clang" -std=c99 -g -O1 -fsanitize=thread -Iinclude Tests/tsan/threads.c -L"$lib" -ltender -lpthread \
    -L"$toolchain/../lib/swift/linux" -ldispatch -lBlocksRuntime \
    -Wl,-rpath,"$work/lib" -Wl,-rpath,"$toolchain/../lib/swift/linux" -o "$work/threads"
"$work/threads" "$work/home" >"$work/threads.log" 2>&1 || {
    grep -A40 "WARNING: ThreadSanitizer" "$work/threads.log" | head -80; tail -5 "$work/threads.log"
    echo "test-tsan: the threads test failed (log: $work/threads.log)" >&2; exit 1; }
tail -1 "$work/threads.log"
if grep -q "WARNING: ThreadSanitizer" "$work"/*.log; then echo "test-tsan: a ThreadSanitizer report (logs in $work)" >&2; exit 1; fi
echo "test-tsan: clean"
