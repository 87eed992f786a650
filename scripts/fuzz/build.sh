#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Builds the fuzz targets (make fuzz): libtender.so and TenderCore instrumented for
# libFuzzer (sanitizer coverage) and AddressSanitizer in .build-fuzz, then one binary
# per target in build/fuzz/. Test-only: nothing here goes into build/lib.
set -eu
cd "$(dirname "$0")/../.."
root=$PWD
SWIFT=${SWIFT:-$(command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)}
toolchain=$(dirname "$(readlink -f "$SWIFT")")
CLANG=${CLANG:-$toolchain/clang}
SWIFTC=${SWIFTC:-$toolchain/swiftc}
export TMPDIR="${TMPDIR:-$root/.build-tmp}"
mkdir -p "$TMPDIR"
scratch=$root/.build-fuzz
out=$root/build/fuzz
mkdir -p "$out"

"$SWIFT" build -c release --scratch-path "$scratch" --product tender \
    -Xswiftc -sanitize=address -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp \
    -Xcc -fsanitize=address -Xcc -fsanitize-coverage=inline-8bit-counters,pc-table,trace-cmp
lib=$scratch/release
swift_rt=$toolchain/../lib/swift/linux
# The targets find the library by its soname in build/fuzz/lib.
soname=$(readelf -d "$lib/libtender.so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
mkdir -p "$out/lib"
ln -sf "$lib/libtender.so" "$out/lib/$soname"

# C targets over the C API: ASan + UBSan in the harness, libFuzzer's main.
for src in Tests/fuzz/targets/*.c; do
    name=$(basename "$src" .c)
    [ "$out/$name" -nt "$src" ] && [ "$out/$name" -nt "$lib/libtender.so" ] && [ "$out/$name" -nt Tests/fuzz/fuzz_common.h ] && continue
    rm -f "$out/$name"
    "$CLANG" -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
        -Iinclude "$src" -L"$lib" -ltender -lsqlite3 -Wl,-rpath,"$out/lib" -Wl,-rpath,"$swift_rt" -o "$out/$name"
done

# Swift targets over TenderCore, linked with its instrumented objects.
for src in Tests/fuzz/targets/*.swift; do
    name=$(basename "$src" .swift)
    [ "$out/$name" -nt "$src" ] && [ "$out/$name" -nt "$lib/libtender.so" ] && continue
    rm -f "$out/$name"
    "$SWIFTC" -parse-as-library -O -g -sanitize=fuzzer,address -I "$lib/Modules" -I "$lib/CTenderModel.build" "$src" \
        "$lib"/TenderCore.build/*.o "$lib"/CTenderModel.build/*.o -o "$out/$name" 2>&1 | grep -v "Cannot export local symbol" || true
    test -x "$out/$name"
done
echo "fuzz targets in $out: $(cd "$out" && ls | grep -v '\.' | tr '\n' ' ')"
