#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# make deb: Debian packages from the source tarball (make dist) with the project's
# debian/, built by dpkg-buildpackage in build/deb/tender-VERSION, the .debs in build/deb/.
# The build outputs in build/ (current: make deb builds first) are handed over with their
# times, so the package build compiles nothing again. debian/changelog is written here
# from VERSION (the one place the version is set). lintian's report goes to
# build/deb/lintian.txt; an error fails.
# Usage: make-deb.sh DIST.tar.gz BUILD-DIR
set -eu
dist=$1
build=$2
root=$(cd "$(dirname "$0")/.." && pwd)
version=$(tr -d ' \n' < "$root/VERSION")
out="$build/deb"
for tool in dpkg-buildpackage dh lintian; do
    command -v "$tool" >/dev/null || { echo "make deb: $tool is missing: apt-get install dpkg-dev debhelper dh-python pybuild-plugin-pyproject lintian" >&2; exit 1; }
done

rm -rf "$out"
mkdir -p "$out"
tar -xzf "$dist" -C "$out"
src="$out/tender-$version"
[ -d "$src/debian" ] || { echo "make deb: $dist has no debian/ (is debian/ committed?)" >&2; exit 1; }
mkdir -p "$src/build"
for d in lib bin man man3 man8 completions; do cp -a "$build/$d" "$src/build/"; done
# The tarball's files carry the last commit's date, which may be later than the build:
# date the handed-over outputs now (make deb has just made them current).
now=$(date +%s)
find "$src/build" -exec touch -h -d "@$now" {} +

# The changelog entry of this version, dated by VERSION's last change.
when=$(cd "$root" && git log -1 --format=%ct -- VERSION 2>/dev/null || true)
[ -n "$when" ] || when=$(stat -c %Y "$root/VERSION")
maintainer=$(sed -n 's/^Maintainer: //p' "$src/debian/control")
cat > "$src/debian/changelog" <<EOC
tender ($version) unstable; urgency=medium

  * Release $version: see CHANGELOG.md.

 -- $maintainer  $(date -u -R -d "@$when")
EOC

echo "== dpkg-buildpackage -b in $src"
# Debian's own Python and tools first (not a virtual environment's or pyenv's), then Swift's.
swift_dir=$(dirname "$(command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)")
(cd "$src" && PATH="/usr/sbin:/usr/bin:/sbin:/bin:$swift_dir" dpkg-buildpackage -b -us -uc) > "$out/build.log" 2>&1 || { tail -40 "$out/build.log" >&2; echo "make deb: dpkg-buildpackage failed (log: $out/build.log)" >&2; exit 1; }
ls "$out"/*.deb

echo "== lintian"
status=0
lintian --info --display-info --pedantic "$out"/tender_"$version"_*.changes > "$out/lintian.txt" 2>&1 || status=$?
cat "$out/lintian.txt"
errors=$(grep -c '^E: ' "$out/lintian.txt" || true)
warnings=$(grep -c '^W: ' "$out/lintian.txt" || true)
echo "lintian: $errors errors, $warnings warnings (report: $out/lintian.txt)"
[ "$errors" = 0 ] || { echo "make deb: lintian found errors" >&2; exit 1; }
[ "$status" = 0 ] || [ "$status" = 2 ] || { echo "make deb: lintian failed ($status)" >&2; exit 1; }
