#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Runs a command as root in a throwaway copy of this machine, as piuparts and autopkgtest run
# package tests in a chroot: a private mount namespace (unshare --mount) whose root is an overlay
# of / (read-only below) and a tmpfs (every write above). The command sees the machine's files and
# may install and purge packages, add users and edit /etc; when it ends the namespace and the tmpfs
# go, and the machine is as it was. The checkout is bound at its own path (writes there stay), and
# /proc, /sys and /dev are the machine's. No download: nothing but what the machine already has.
# Usage: throwaway-root.sh COMMAND [ARG...]   (root only; exit 77 saying why otherwise)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
if [ "$(id -u)" != 0 ]; then
    echo "throwaway-root: needs root (a mount namespace and an overlay mount)" >&2
    exit 77
fi
for tool in unshare chroot mount; do
    command -v "$tool" >/dev/null 2>&1 || { echo "throwaway-root: $tool is missing (util-linux, coreutils)" >&2; exit 77; }
done
base=$(mktemp -d /tmp/tender-throwaway-root.XXXXXX)
trap 'rmdir "$base" 2>/dev/null || true' EXIT
trap 'exit 143' TERM
trap 'exit 130' INT
# Everything below runs inside the new namespace: its mounts are its own and vanish with it.
if ! unshare --mount --propagation private -- true 2>/dev/null; then
    echo "throwaway-root: cannot make a mount namespace here (unshare --mount: no CAP_SYS_ADMIN in this container?)" >&2
    exit 77
fi
unshare --mount --propagation private -- sh -eu -c '
base=$1; repo=$2; shift 2
mount -t tmpfs -o mode=0755 tender-throwaway "$base"
mkdir "$base/upper" "$base/work" "$base/root"
if ! mount -t overlay tender-throwaway -o "lowerdir=/,upperdir=$base/upper,workdir=$base/work" "$base/root"; then
    echo "throwaway-root: this kernel or container cannot mount an overlay of / (overlayfs)" >&2
    exit 77
fi
for d in proc sys dev; do mount --rbind "/$d" "$base/root/$d"; done
mkdir -p "$base/root$repo"
mount --bind "$repo" "$base/root$repo"
exec chroot "$base/root" "$@"
' throwaway-root "$base" "$root" "$@"
