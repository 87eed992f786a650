#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""What the tests must leave as they found it: the machine's users and groups
(passwd, group, shadow, gshadow, subuid, subgid), its installed packages with
their versions and states (dpkg-query), and every file under /etc (its type,
mode, owner and content digest, or a link's target).

    machine-state.py save FILE      write the snapshot to FILE (JSON)
    machine-state.py compare FILE   exit 1, naming every difference, when this machine differs from FILE

make test saves one after installing its dependencies and compares at its end;
Tests/packaging/test_deb.py does the same around the Debian packages' test.
Left out, each with why: shadow's backup copies (/etc/passwd- and the like, which
useradd and userdel rewrite with the previous version even when they restore
the same contents) and files root cannot read (none, run as root)."""
import hashlib
import json
import os
import stat
import subprocess
import sys

ACCOUNT_FILES = ["/etc/passwd", "/etc/group", "/etc/shadow", "/etc/gshadow", "/etc/subuid", "/etc/subgid"]
BACKUPS = {f + "-" for f in ACCOUNT_FILES}


def etc_files(top="/etc"):
    found = {}
    for folder, dirs, names in os.walk(top):
        for name in sorted(dirs + names):
            path = os.path.join(folder, name)
            if path in BACKUPS:
                continue
            try:
                info = os.lstat(path)
            except FileNotFoundError:
                continue
            entry = f"{stat.filemode(info.st_mode)} {info.st_uid}:{info.st_gid}"
            if stat.S_ISLNK(info.st_mode):
                entry += " -> " + os.readlink(path)
            elif stat.S_ISREG(info.st_mode):
                try:
                    with open(path, "rb") as f:
                        entry += " " + hashlib.sha256(f.read()).hexdigest()[:16]
                except PermissionError:
                    entry += " (unreadable)"
            found[path] = entry
    return found


def accounts():
    lines = {}
    for path in ACCOUNT_FILES:
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                # shadow's third field is the day of the last password change: kept, it is part of the entry.
                lines[path] = sorted(line.rstrip("\n") for line in f if line.strip())
        except (FileNotFoundError, PermissionError):
            lines[path] = None
    return lines


def packages():
    done = subprocess.run(["dpkg-query", "-W", "-f=${Package}:${Architecture} ${Version} ${db:Status-Abbrev}\\n"],
                          capture_output=True, text=True)
    return sorted(line.strip() for line in done.stdout.splitlines() if line.strip())


def snapshot():
    return {"accounts": accounts(), "packages": packages(), "etc": etc_files()}


def differences(before, after):
    """Lines saying what changed between two snapshots, empty when nothing did."""
    said = []
    for path in ACCOUNT_FILES:
        old, new = set(before["accounts"].get(path) or []), set(after["accounts"].get(path) or [])
        # Only the name and the fields that define the account: never a password hash in a report.
        said += [f"{path}: added {line.split(':')[0]}" for line in sorted(new - old)]
        said += [f"{path}: removed or changed {line.split(':')[0]}" for line in sorted(old - new)]
    old, new = set(before["packages"]), set(after["packages"])
    said += [f"package now: {p}" for p in sorted(new - old)] + [f"package before: {p}" for p in sorted(old - new)]
    for path in sorted(set(before["etc"]) | set(after["etc"])):
        if before["etc"].get(path) != after["etc"].get(path):
            said.append(f"{path}: {before['etc'].get(path, 'absent')} -> {after['etc'].get(path, 'absent')}")
    return said


def main(argv):
    if len(argv) != 3 or argv[1] not in ("save", "compare"):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    if argv[1] == "save":
        with open(argv[2], "w") as f:
            json.dump(snapshot(), f)
        return 0
    with open(argv[2]) as f:
        before = json.load(f)
    said = differences(before, snapshot())
    if said:
        print("machine-state: the machine is not as it was before the tests:", file=sys.stderr)
        for line in said:
            print("  " + line, file=sys.stderr)
        return 1
    print("machine-state: users, groups, installed packages and /etc are as they were before the tests")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
