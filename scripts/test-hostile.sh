#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# make test-hostile: Tests/c/hostile_host.c (hostile conversation callbacks, four processes
# against the throttle, symbolic-link and foreign homes) against build/lib/libtender.so.
set -eu
cd "$(dirname "$0")/.."
root=$PWD
work=$root/build/hostile
mkdir -p "$work"
cc -std=c99 -O1 -g -Wall -Wextra -Werror -Wno-format-truncation -Iinclude Tests/c/hostile_host.c -Lbuild/lib -ltender -lpthread \
    -Wl,-rpath,"$root/build/lib" -o "$work/hostile_host"
pam_matrix=$(ls /usr/lib/*/pam_wrapper/pam_matrix.so /usr/lib/pam_wrapper/pam_matrix.so 2>/dev/null | head -1)
[ -n "$pam_matrix" ] || { echo "pam_matrix.so (libpam-wrapper) is missing" >&2; exit 1; }
USER_FOR_TEST=$(id -un) "$work/hostile_host" "$work/scratch" "$pam_matrix"
