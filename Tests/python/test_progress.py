# SPDX-License-Identifier: Apache-2.0
"""Progress bars (issue 13.5): `tender verify` and `tender bench` draw a bar with
a rate and the time left on standard error when it is a terminal (a pty here),
erase it before the result, and draw nothing when it is not a terminal or
with --json."""
import os
import pty
import re
import subprocess

import pytest

HERE = os.path.dirname(__file__)
CLI = os.environ.get("TENDER_CLI") or os.path.join(HERE, "..", "..", "build", "bin", "tender")

pytestmark = pytest.mark.skipif(not os.path.exists(CLI), reason="needs the tender tool")

BAR = re.compile(r"\r(verify|bench) \[[#-]+\] (\d+)% ([^\r\x1b]*)\x1b\[K")
ENV = dict(os.environ, TERM="xterm")
SHORT_BENCH = ["bench", "--seconds", "0.05", "--records", "300", "--threads", "2"]


def on_terminal(args):
    """Runs the tool with standard output and error on a pty; returns (exit status, everything written)."""
    master, slave = pty.openpty()
    process = subprocess.Popen([CLI, *args], stdin=subprocess.DEVNULL, stdout=slave, stderr=slave, env=ENV)
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:  # EIO: the tool closed the terminal
            break
        if not data:
            break
        chunks.append(data)
    os.close(master)
    return process.wait(timeout=300), b"".join(chunks).decode("utf-8", "replace")


@pytest.fixture(scope="module")
def home(tmp_path_factory):
    """A home with a ledger of a few hundred payments, made by a short bench run."""
    base = tmp_path_factory.mktemp("progress")
    subprocess.run([CLI, *SHORT_BENCH, "--directory", str(base), "--json"], check=True, capture_output=True, timeout=300)
    return str(base / "tender")


def test_verify_on_a_terminal_shows_rate_and_time_left_then_erases_it(home):
    status, out = on_terminal(["verify", "--home", home])
    assert status == 0, out
    frames = BAR.findall(out)
    assert frames, repr(out)
    assert frames[0][1] == "0" and frames[-1][1] == "100"
    last = frames[-1][2]
    assert re.search(r"\d[\d,]*/[\d,]+ checks, [\d,]+/s\s+\d+:\d\d left", last), last
    # The bar is erased before the result, which starts on a clean line.
    assert re.search(r"\r\x1b\[K\s*ledger valid:", out), repr(out[-300:])


def test_verify_draws_nothing_off_a_terminal_or_with_json(home):
    piped = subprocess.run([CLI, "verify", "--home", home], capture_output=True, text=True, env=ENV, timeout=120)
    assert piped.returncode == 0 and piped.stderr == "" and "\r" not in piped.stdout
    status, out = on_terminal(["verify", "--home", home, "--json"])
    assert status == 0 and "\r" not in out.replace("\r\n", "\n") and "\x1b" not in out
    assert out.strip().startswith("{")


def test_bench_on_a_terminal_shows_each_step_and_the_time_left(tmp_path):
    # More records than the short measurements pay, so the ledger is filled up.
    status, out = on_terminal([*SHORT_BENCH[:-4], "--records", "5000", "--threads", "2", "--directory", str(tmp_path)])
    assert status == 0, out
    frames = BAR.findall(out)
    assert len(frames) >= 10, repr(out[:500])
    assert all(f[0] == "bench" for f in frames)
    assert any("left" in f[2] for f in frames)
    assert any(re.search(r"filling the ledger [\d,]+/[\d,]+ payments, [\d,]+/s", f[2]) for f in frames)
    assert any(re.search(r"verifying [\d,]+/[\d,]+ checks, [\d,]+/s", f[2]) for f in frames)
    percents = [int(f[1]) for f in frames]
    assert percents == sorted(percents), percents
    assert "tender_verify_per_s" in out or "Tender verify" in out


def test_bench_draws_nothing_with_json_or_off_a_terminal(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    status, out = on_terminal([*SHORT_BENCH, "--directory", str(tmp_path / "a"), "--json"])
    assert status == 0 and "\x1b" not in out and not BAR.search(out)
    piped = subprocess.run([CLI, *SHORT_BENCH, "--directory", str(tmp_path / "b")], capture_output=True, text=True,
                           env=ENV, timeout=300)
    assert piped.returncode == 0 and piped.stderr == ""
