#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Writes the version in VERSION (the only place it is set) into the files that
# must carry it as text: the header's TENDER_VERSION_* macros and the Python
# binding's pyproject.toml and __version__. A file already right is left untouched; the header
# is touched so make sees it newer than VERSION. Run by make (include/tender.h: VERSION).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
version=$(tr -d ' \n' < "$root/VERSION")
case "$version" in
    [0-9]*.[0-9]*.[0-9]*) ;;
    *) echo "sync-version: VERSION holds '$version', not MAJOR.MINOR.PATCH" >&2; exit 1 ;;
esac
major=${version%%.*}; rest=${version#*.}; minor=${rest%%.*}; patch=${rest#*.}
for n in "$major" "$minor" "$patch"; do
    case "$n" in ''|*[!0-9]*) echo "sync-version: '$version' is not MAJOR.MINOR.PATCH" >&2; exit 1 ;; esac
    [ "$n" -le 99 ] || [ "$n" = "$major" ] || { echo "sync-version: minor and patch must be at most 99" >&2; exit 1; }
done

rewrite() { # rewrite FILE SED-SCRIPT: rewrites FILE only when the script changes it
    file=$1; shift
    sed "$@" "$file" > "$file.sync"
    if cmp -s "$file" "$file.sync"; then rm -f "$file.sync"; else mv -f "$file.sync" "$file"; echo "sync-version: $file now says $version"; fi
}
rewrite "$root/include/tender.h" \
    -e "s/^#define TENDER_VERSION_MAJOR .*/#define TENDER_VERSION_MAJOR $major/" \
    -e "s/^#define TENDER_VERSION_MINOR .*/#define TENDER_VERSION_MINOR $minor/" \
    -e "s/^#define TENDER_VERSION_PATCH .*/#define TENDER_VERSION_PATCH $patch/" \
    -e "s/^#define TENDER_VERSION_STRING .*/#define TENDER_VERSION_STRING \"$version\"/"
rewrite "$root/python/pyproject.toml" -e "s/^version = \".*\"/version = \"$version\"/"
for module in $(grep -rl '^__version__ = ' "$root/python/libtender" --include='*.py'); do
    rewrite "$module" -e "s/^__version__ = \".*\"/__version__ = \"$version\"/"
done
touch "$root/include/tender.h"
