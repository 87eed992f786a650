#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# make test-dist: the source tarball builds offline. Unpacks it into build/dist-test, builds
# there with `make build` (Swift dependencies from the pins in Package.resolved, resolved from
# SwiftPM's local cache: no network), then checks the library and runs the tool.
# Usage: test-dist.sh DIST.tar.gz
set -eu
dist=$1
root=$(cd "$(dirname "$0")/.." && pwd)
work="$root/build/dist-test"
rm -rf "$work"
mkdir -p "$work"
tar -xzf "$dist" -C "$work"
tree=$(ls -d "$work"/tender-*)
version=$(make -s --no-print-directory -C "$tree" print-version)
soversion=$(make -s --no-print-directory -C "$tree" print-soversion)
start=$(date +%s)
# No network: a proxy that does not exist makes any fetch fail at once.
env http_proxy=http://127.0.0.1:9 https_proxy=http://127.0.0.1:9 HTTPS_PROXY=http://127.0.0.1:9 \
    make -C "$tree" build > "$work/build.log" 2>&1 || { tail -30 "$work/build.log" >&2; echo "test-dist: the tarball does not build" >&2; exit 1; }
echo "test-dist: built in $(( $(date +%s) - start )) s"
"$root/scripts/check-library.sh" "$tree/build/lib/libtender.so.$version" "libtender.so.$soversion"
[ "$("$tree/build/bin/tender" --version)" = "$version" ] || { echo "test-dist: the tool does not say $version" >&2; exit 1; }
ls "$tree/build/man" | grep -q '^tender.verify.1$'
echo "test-dist: tender-$version builds offline"
