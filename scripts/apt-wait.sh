#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# apt-get with a wait for the package manager's locks: runs `apt-get -o DPkg::Lock::Timeout=300 ARGS...`
# and, while another apt-get or dpkg holds a lock apt-get does not wait for itself (apt-get update's
# /var/lib/apt/lists/lock, the archives' lock), says which process holds it and tries again, for up to
# APT_WAIT_SECONDS (300) in all. Any other failure is apt-get's, reported as it is.
# Usage: apt-wait.sh ARGS...   (run by ensure-deps.sh; as root)
set -eu
limit=${APT_WAIT_SECONDS:-300}
step=${APT_WAIT_STEP:-3}
waited=0
log=$(mktemp "${TMPDIR:-/tmp}/apt-wait.XXXXXX")
trap 'rm -f "$log"' EXIT
while :; do
    if apt-get -o DPkg::Lock::Timeout="$limit" "$@" 2>"$log"; then
        cat "$log" >&2
        exit 0
    else
        status=$?
    fi
    if ! grep -q "Could not get lock\|Unable to lock" "$log" || [ "$waited" -ge "$limit" ]; then
        cat "$log" >&2
        [ "$waited" -lt "$limit" ] || echo "apt-wait: gave up after ${waited} s waiting for the package manager's lock" >&2
        exit "$status"
    fi
    if [ "$waited" = 0 ]; then
        holder=$(sed -n 's/.*Could not get lock \([^ ]*\)\. It is held by \(.*\)$/\1, held by \2/p' "$log" | head -1)
        echo "apt-wait: another package manager holds the lock (${holder:-$(head -1 "$log")}): waiting up to ${limit} s for it to finish" >&2
    fi
    sleep "$step"
    waited=$((waited + step))
done
