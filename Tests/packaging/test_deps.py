# SPDX-License-Identifier: Apache-2.0
"""What make demo and make test install (issue 33.1, 33.2): each target installs
its own list only (scripts/ensure-deps.sh demo|test), the README's table names
each list exactly, and apt-get waits, saying so, while another package manager
holds the lock (scripts/apt-wait.sh, here with a stand-in apt-get)."""
import os
import re
import stat
import subprocess

from conftest import REPO, run

ENSURE = os.path.join(REPO, "scripts", "ensure-deps.sh")


def listed(purpose):
    return run([ENSURE, "--list", purpose]).stdout.split()


def readme_row(target):
    with open(os.path.join(REPO, "README.md"), encoding="utf-8") as f:
        rows = [line for line in f if line.startswith(f"| `make {target}` |")]
    assert len(rows) == 1, f"the README has no single row for make {target}"
    cell = rows[0].split("|")[2]
    return cell, re.findall(r"`([^`]+)`", cell)


def test_the_demo_installs_only_what_building_and_the_demo_need():
    demo = listed("demo")
    assert set(demo) == {"pkg-config", "gcc", "g++", "make", "binutils", "libsqlite3-dev", "libssl-dev", "libpam0g-dev",
                         "libpam-wrapper"}
    for packaging_only in ("debhelper", "lintian", "zsh", "fish", "python3-mypy", "dh-python"):
        assert packaging_only not in demo


def test_the_readme_names_each_list_exactly():
    _, demo = readme_row("demo")
    assert demo == listed("demo")
    cell, test = readme_row("test")
    assert cell.strip().startswith("the demo's, and")
    assert listed("demo") + test == listed("test")


def test_make_demo_and_make_test_ask_for_their_own_list():
    def recipe(target):
        return run(["make", "-n", "--no-print-directory", "-C", REPO, target, "MAKEFLAGS=", "MAKE=:"]).stdout
    assert re.search(r"ensure-deps\.sh demo\b", recipe("demo"))
    assert re.search(r"ensure-deps\.sh test\b", recipe("test"))


def fake_apt_get(tmp_path, busy_calls):
    """An apt-get that says another process holds the lock `busy_calls` times, then succeeds; it logs its arguments."""
    folder = tmp_path / "bin"
    folder.mkdir()
    count = tmp_path / "count"
    count.write_text("0")
    script = folder / "apt-get"
    script.write_text(f"""#!/bin/sh
echo "$*" >> {tmp_path}/calls
n=$(cat {count}); echo $((n + 1)) > {count}
if [ "$n" -lt {busy_calls} ]; then
    echo "E: Could not get lock /var/lib/apt/lists/lock. It is held by process 5058 (apt-get)" >&2
    echo "E: Unable to lock directory /var/lib/apt/lists/" >&2
    exit 100
fi
echo "done"
""")
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return dict(os.environ, PATH=f"{folder}:{os.environ['PATH']}", APT_WAIT_STEP="1", APT_WAIT_SECONDS="30")


def test_apt_get_waits_for_another_package_managers_lock(tmp_path):
    env = fake_apt_get(tmp_path, busy_calls=2)
    done = subprocess.run([os.path.join(REPO, "scripts", "apt-wait.sh"), "update", "-qq"], env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "waiting up to 30 s" in done.stderr and "held by process 5058 (apt-get)" in done.stderr, done.stderr
    calls = (tmp_path / "calls").read_text().splitlines()
    assert len(calls) == 3 and all("-o DPkg::Lock::Timeout=30 update -qq" in c for c in calls), calls


def test_apt_get_gives_up_after_the_wait_and_passes_other_failures_on(tmp_path):
    env = fake_apt_get(tmp_path, busy_calls=1000)
    env["APT_WAIT_SECONDS"] = "2"
    done = subprocess.run([os.path.join(REPO, "scripts", "apt-wait.sh"), "install", "x"], env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 100 and "gave up after 2 s" in done.stderr, done.stderr
