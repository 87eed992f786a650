# SPDX-License-Identifier: Apache-2.0
"""The Debian packages installed, used and purged, run by test_deb.py inside a
throwaway root (scripts/throwaway-root.sh), never on the machine itself:
`apt-get install ./*.deb`; examples/send_payment.c built with pkg-config against
/usr and run with no loader path; the Python example on Debian's Python and the
system library; tenderd's user and state directory; then a purge that leaves
nothing behind. Exits 0 and prints "deb checks passed", else fails with the
first assertion.

Usage: python3 deb_in_root.py REPO DEB... (as root, in the throwaway root)"""
import glob
import os
import pwd
import re
import subprocess
import sys
import tempfile
import time

APT = ["apt-get", "-y", "-q", "-o", "DPkg::Lock::Timeout=300"]


def run(args, **kwargs):
    done = subprocess.run(args, capture_output=True, text=True, **kwargs)
    assert done.returncode == 0, f"{' '.join(args)} exited {done.returncode}:\n{done.stdout}\n{done.stderr}"
    return done


def installed(package):
    done = subprocess.run(["dpkg-query", "-W", "-f=${Status}", package], capture_output=True, text=True)
    return done.returncode == 0 and "installed" in done.stdout and "not-installed" not in done.stdout


def main(repo, debs):
    soversion = run(["make", "-s", "--no-print-directory", "-C", repo, "print-soversion"]).stdout.strip()
    version = run(["make", "-s", "--no-print-directory", "-C", repo, "print-version"]).stdout.strip()
    packages = [f"libtender{soversion}", "libtender-dev", "tender", "python3-libtender", "tenderd"]
    env = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8", "HOME": "/root", "DEBIAN_FRONTEND": "noninteractive",
           "TMPDIR": "/tmp"}
    # This root is throwaway: a copy someone installed under /usr/local (pkg-config would find it first)
    # or an earlier install of the packages is removed here, and nowhere else.
    for leftover in glob.glob("/usr/local/lib/libtender.so*") + glob.glob("/usr/local/lib/pkgconfig/tender.pc"):
        os.unlink(leftover)
    present = [p for p in packages if installed(p)]
    if present:
        run(APT + ["purge"] + present, env=env)
    listed = {}
    for deb in debs:
        for line in run(["dpkg-deb", "-c", deb]).stdout.splitlines():
            if not line.startswith("d"):
                listed[line.split()[5].lstrip(".")] = deb
    timings = {}
    work = tempfile.mkdtemp(prefix="deb-test-")

    start = time.monotonic()
    run(APT + ["install", "--no-install-recommends"] + debs, env=env)
    timings["apt-get install"] = time.monotonic() - start
    for package in packages:
        assert installed(package), package
    conffiles = run(["dpkg-query", "-W", "-f=${Conffiles}", f"libtender{soversion}"]).stdout
    assert "/etc/pam.d/tender" in conffiles
    assert run(["pkg-config", "--modversion", "tender"], env=env).stdout.strip() == version
    assert run(["tender", "--version"], env=env).stdout.strip() == version
    assert run(["man", "-w", "tender.verify"], env=env).stdout.strip().endswith("tender.verify.1.gz")
    assert run(["man", "-w", "3", "libtender"], env=env).stdout.strip().endswith("libtender.3.gz")
    # tenderd: its system user, and a state directory only that user may read.
    state = os.stat("/var/lib/tender")
    assert state.st_mode & 0o777 == 0o700 and state.st_uid == pwd.getpwnam("tender").pw_uid
    assert "--state" in run(["tenderd", "--help"], env=env).stdout

    # C: built with pkg-config against /usr, run with no rpath and no LD_LIBRARY_PATH.
    flags = run(["pkg-config", "--cflags", "--libs", "tender"], env=env).stdout.split()
    program = os.path.join(work, "send_payment")
    run(["cc", "-std=c99", "-Wall", "-Wextra", "-Werror", os.path.join(repo, "examples", "send_payment.c"), *flags, "-o", program],
        env=env)
    linked = run(["ldd", program], env=env).stdout
    assert re.search(rf"libtender\.so\.{soversion} => (/usr)?/lib/\S+/libtender\.so\.{soversion} ", linked), linked
    out = run([program, os.path.join(work, "c-home")], env=env).stdout
    assert "handle -> success" in out, out

    # Python: Debian's python3 imports the packaged binding, which loads the system library.
    found = run(["/usr/bin/python3", "-c", "import libtender; print(libtender.library_path, libtender.version())"],
                env=env, cwd=work).stdout.split()
    assert found[1] == version and (found[0].startswith("/usr/lib/") or found[0].startswith("libtender.so.")), found
    out = run(["/usr/bin/python3", os.path.join(repo, "examples", "send_payment.py"), os.path.join(work, "py-home")],
              env=env, cwd=work).stdout
    assert "success" in out, out

    start = time.monotonic()
    run(APT + ["purge"] + packages, env=env)
    timings["apt-get purge"] = time.monotonic() - start
    for package in packages:
        assert not installed(package), f"{package} still installed"
    left = [p for p in listed if os.path.lexists(p)]
    assert left == [], f"left after purge: {left}"
    assert not os.path.exists("/etc/pam.d/tender")
    assert not os.path.exists("/var/lib/tender"), "tenderd's empty state directory was left"
    assert not os.path.exists("/usr/lib/python3/dist-packages/libtender"), "the byte-compiled files were left"
    assert "libtender" not in run(["ldconfig", "-p"]).stdout
    print("timings:", {k: round(v, 1) for k, v in timings.items()})
    print("deb checks passed")


if __name__ == "__main__":
    main(sys.argv[1], [os.path.abspath(d) for d in sys.argv[2:]])
