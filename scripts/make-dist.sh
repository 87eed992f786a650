#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# make dist: a source tarball, tender-VERSION.tar.gz, holding every file git
# tracks as it is in the work tree, plus Package.resolved (the dependency pins,
# which git ignores), under the folder tender-VERSION/. Files are dated by the
# last commit and owned by root, in name order, so the same tree gives the same
# tarball. Usage: make-dist.sh VERSION OUTPUT.tar.gz
set -eu
version=$1
out=$2
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
command -v git >/dev/null && git rev-parse --git-dir >/dev/null 2>&1 \
    || { echo "make dist: needs a git checkout (it packs the files git tracks)" >&2; exit 1; }
[ -f Package.resolved ] || { echo "make dist: Package.resolved is missing: run make build first (it pins the dependencies)" >&2; exit 1; }
name="tender-$version"
list=$(mktemp "${TMPDIR:-/tmp}/dist-files.XXXXXX")
trap 'rm -f "$list"' EXIT

{ git ls-files --cached | while IFS= read -r f; do [ -e "$f" ] && echo "$f"; done; echo Package.resolved; } | sort -u > "$list"
stamp=$(git log -1 --format=%cI 2>/dev/null || date -u +%Y-%m-%dT%H:%M:%SZ)
mkdir -p "$(dirname "$out")"
tar --create --file=- --files-from="$list" --transform="s|^|$name/|" --sort=name \
    --mtime="$stamp" --owner=0 --group=0 --numeric-owner --mode='u+rw,go+r,go-w' \
    | gzip -n -9 > "$out.new"
mv -f "$out.new" "$out"
echo "make dist: $out ($(wc -l < "$list") files, $(du -k "$out" | cut -f1) KiB)"
