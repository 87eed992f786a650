#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The fault sweep (make test-faults): Tests/faults/fault_sweep.c with the test-only fault
# VFS (Tests/faults/fault_vfs.c) as SQLite's default VFS, against build/lib/libtender.so.
#   scripts/test-faults.sh [STRIDE]   (every STRIDEth fault point; 1, the default, sweeps all)
set -eu
cd "$(dirname "$0")/.."
root=$PWD
work=$root/build/faults
mkdir -p "$work"
cc -std=c99 -O1 -g -Wall -Wextra -Werror -Iinclude Tests/faults/fault_sweep.c Tests/faults/fault_vfs.c \
    -Lbuild/lib -ltender -lsqlite3 -lpthread -Wl,-rpath,"$root/build/lib" -o "$work/fault_sweep"
# The shim must not be in the shipped library.
if nm -D build/lib/libtender.so | grep -q fault_vfs; then echo "fault VFS leaked into libtender.so" >&2; exit 1; fi
"$work/fault_sweep" "$work/scratch" "${1:-1}"
# Checkpoints off the payment's path (issue 34) failing for good: the database file refuses every write and sync.
cc -std=c99 -O1 -g -Wall -Wextra -Werror -Iinclude Tests/faults/checkpoint_faults.c Tests/faults/fault_vfs.c \
    -Lbuild/lib -ltender -lsqlite3 -lpthread -Wl,-rpath,"$root/build/lib" -o "$work/checkpoint_faults"
"$work/checkpoint_faults" "$work/scratch"
