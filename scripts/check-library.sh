#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Checks the shape of libtender.so: soname, exported symbols, its own
# Swift runtime, no ICU-backed Foundation.
set -eu
lib=$1
expected=$2   # the soname the Makefile names (make check-library passes it)
fail() { echo "check-library: $*" >&2; exit 1; }

soname=$(readelf -d "$lib" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
[ "$soname" = "$expected" ] || fail "soname is '$soname', expected $expected"

exported=$(nm -D --defined-only "$lib" | awk '$2 ~ /^[TDBRVWiu]$/ {print $3}' | sed 's/@.*//' | grep -v '^TENDER_1\(\.[0-9]*\)\?$' || true)
others=$(echo "$exported" | grep -v '^tender_' || true)
[ -z "$others" ] || fail "exports symbols other than tender_*: $(echo "$others" | head -5)"
echo "exports: $(echo "$exported" | wc -l) symbols, all tender_*"

# libpq is tenderd's alone (its PostgreSQL store, docs/scale.md): the library never links it, directly or not.
if readelf -d "$lib" | grep -q 'NEEDED.*libpq'; then fail "links libpq, which only tenderd may (docs/scale.md)"; fi
if ldd "$lib" | grep -q 'libpq\.so'; then fail "loads libpq through a dependency; only tenderd may (docs/scale.md)"; fi
if nm -D "$lib" 2>/dev/null | grep -qE ' U PQ[a-z]'; then fail "refers to libpq's functions (PQ*); only tenderd may (docs/scale.md)"; fi
echo "libpq: not linked (tenderd's alone)"

# The direct dependencies docs/install.md names, and no other.
needed=$(readelf -d "$lib" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | sort | tr '\n' ' ')
for so in $needed; do
    case "$so" in
        libsqlite3.so.0|libcrypto.so.3|libpam.so.0|libc.so.6|libm.so.6|libstdc++.so.6|libgcc_s.so.1|ld-linux*) ;;
        *) fail "links $so, which docs/install.md does not name (it names libsqlite3, libcrypto, libpam and the C/C++ runtime)" ;;
    esac
done
for so in libsqlite3.so.0 libcrypto.so.3 libpam.so.0; do
    case " $needed" in *" $so "*) ;; *) fail "does not link $so, which docs/install.md names" ;; esac
done
echo "needs: $needed(as docs/install.md says)"
if readelf -d "$lib" | grep -E 'RPATH|RUNPATH' | grep -q /opt/swift; then fail "RUNPATH points into the toolchain"; fi
if ldd "$lib" | grep -qE '/opt/swift|libswift|not found'; then fail "needs the toolchain's Swift runtime: $(ldd "$lib")"; fi
if ldd "$lib" | grep -qiE 'libicu|libFoundation'; then fail "links ICU or Foundation"; fi
if nm "$lib" 2>/dev/null | grep -qE '\$s10Foundation|_ICU|icu_[0-9]'; then fail "contains ICU-backed Foundation"; fi
echo "runtime: own Swift runtime, no /opt/swift, no ICU ($(ldd "$lib" | awk '{print $1}' | tr '\n' ' '))"

# The understanding models are compiled in as data: together they may add at most 3 MB.
model=0
for size in $(nm -S "$lib" | awk '$4 == "tdr_intent_model" || $4 == "tdr_slot_model" || $4 == "tdr_lexicon" {print $2}'); do
    model=$((model + 0x$size))
done
[ "$model" -gt 0 ] || fail "the understanding models' data is missing"
[ "$model" -le 3145728 ] || fail "the understanding models take $model bytes, more than 3 MB"
echo "models: $model bytes of weights (intent classifier, slot labeller, common words), at most 3 MB"

stripped=$(mktemp)
strip -o "$stripped" "$lib"
echo "size: $(wc -c < "$lib") bytes, $(wc -c < "$stripped") stripped"
rm -f "$stripped"
