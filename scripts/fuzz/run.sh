#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Runs every fuzz target (make fuzz SECONDS=N; make fuzz-smoke runs each for a few seconds
# in make test). Each starts from its committed seeds (Tests/fuzz/corpus/TARGET) and keeps
# what it finds in build/fuzz/corpus/TARGET ($FUZZ_OUT/corpus); any crash, leak or failed check
# stops that target with the input in build/fuzz/findings/. Prints executions, coverage and corpus per target.
#   scripts/fuzz/run.sh SECONDS [TARGET...]
set -eu
cd "$(dirname "$0")/../.."
root=$PWD
seconds=${1:-60}
shift || true
export TMPDIR="${TMPDIR:-$root/.build-tmp}"
[ -n "${FUZZ_BIN:-}" ] || scripts/fuzz/build.sh >"$TMPDIR/fuzz-build.log" 2>&1 || { tail -30 "$TMPDIR/fuzz-build.log"; exit 1; }
bin=${FUZZ_BIN:-$root/build/fuzz}
# FUZZ_OUT: where the corpus, logs and findings go (build/fuzz unless given: a long run beside make test).
out=${FUZZ_OUT:-$bin}
targets=${*:-$(cd Tests/fuzz/targets && ls | sed 's/\.[a-z]*$//' | sort)}
mkdir -p "$out/findings"
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:symbolize=1"
export LSAN_OPTIONS="suppressions=$root/scripts/sanitizers/lsan.supp"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
status=0
printf '%-11s %12s %8s %8s %8s %10s\n' target execs exec/s cov ft corpus
for t in $targets; do
    corpus=$out/corpus/$t
    scratch=$TMPDIR/fuzz-$t
    rm -rf "$scratch"
    mkdir -p "$corpus" "$scratch"
    dict=Tests/fuzz/dict/json.dict
    [ "$t" = parse ] && dict=Tests/fuzz/dict/parse.dict
    log=$out/$t.log
    if ! TENDER_FUZZ_SCRATCH=$scratch "$bin/$t" -max_total_time="$seconds" -print_final_stats=1 -timeout=20 \
        -rss_limit_mb=3000 -max_len=8192 -dict="$root/$dict" -artifact_prefix="$out/findings/$t-" \
        "$corpus" "$root/Tests/fuzz/corpus/$t" >"$log" 2>&1; then
        status=1
        grep -E "ERROR|SUMMARY|#[0-9]+ 0x.* in .*(Tender|tender)|Test unit written" "$log" | head -20
        echo "fuzz $t: FAILED (log: $log)" >&2
    fi
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
    last=$(grep -E "^#[0-9]+" "$log" | tail -1)
    cov=$(echo "$last" | sed -n 's/.* cov: \([0-9]*\).*/\1/p')
    ft=$(echo "$last" | sed -n 's/.* ft: \([0-9]*\).*/\1/p')
    corp=$(echo "$last" | sed -n 's/.* corp: \([0-9]*\/[0-9a-zA-Z]*\).*/\1/p')
    printf '%-11s %12s %8s %8s %8s %10s\n' "$t" "${execs:-?}" "${rate:-?}" "${cov:-?}" "${ft:-?}" "${corp:-?}"
    rm -rf "$scratch"
done
[ "$status" -eq 0 ] && echo "fuzz: no finding" || echo "fuzz: findings in $out/findings" >&2
exit "$status"
