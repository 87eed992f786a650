# SPDX-License-Identifier: Apache-2.0
"""`tender bench`, run short: every figure is printed, the ratios are the
quotients of the printed rates, and the verification covers the ledger it
filled. The rates themselves are benchmark figures, never asserted here."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

import pytest

HERE = os.path.dirname(__file__)
sys.path.insert(0, os.path.join(HERE, ".."))
from checkout_access import reachable_copy  # noqa: E402  (after the path set-up)

CLI = os.environ.get("TENDER_CLI") or os.path.join(HERE, "..", "..", "build", "bin", "tender")

pytestmark = pytest.mark.skipif(not os.path.exists(CLI), reason="needs the tender tool")

RATES = ["raw_sign_per_s", "raw_verify_per_s", "raw_commit_per_s", "raw_sign_then_commit_per_s",
         "raw_sign_then_commit_payment_per_s", "tender_sequential_per_s", "tender_handle_per_s",
         "raw_group_commit_per_s", "ceiling_concurrent_per_s", "ceiling_overlap_per_s", "ceiling_one_signature_per_flush_per_s",
         "tender_concurrent_submissions_per_s", "tender_concurrent_dialogs_per_s", "tender_verify_per_s",
         "tender_host_sequential_per_s", "tender_store_paid_beside_host_per_s"]
RATIOS = {
    "ratio_payment_to_sign_then_commit": ("raw_sign_then_commit_payment_per_s", "raw_sign_then_commit_per_s"),
    "ratio_sequential_to_sign_then_commit": ("tender_sequential_per_s", "raw_sign_then_commit_per_s"),
    "ratio_sequential_to_payment_rows": ("tender_sequential_per_s", "raw_sign_then_commit_payment_per_s"),
    "ratio_handle_to_sign_then_commit": ("tender_handle_per_s", "raw_sign_then_commit_per_s"),
    "ratio_ceiling_to_commit": ("ceiling_concurrent_per_s", "raw_commit_per_s"),
    "ratio_one_signature_ceiling_to_commit": ("ceiling_one_signature_per_flush_per_s", "raw_commit_per_s"),
    "ratio_concurrent_to_commit": ("tender_concurrent_submissions_per_s", "raw_commit_per_s"),
    "ratio_concurrent_to_ceiling": ("tender_concurrent_submissions_per_s", "ceiling_concurrent_per_s"),
    "ratio_concurrent_to_overlap_ceiling": ("tender_concurrent_submissions_per_s", "ceiling_overlap_per_s"),
    "ratio_verify_to_raw_verify": ("tender_verify_per_s", "raw_verify_per_s"),
    "ratio_host_to_store_sequential": ("tender_host_sequential_per_s", "tender_store_paid_beside_host_per_s"),
    "ratio_claim_seal_to_host_payment": ("tender_host_sequential_per_s", "raw_sign_per_s"),
}
# Latency percentiles in milliseconds: (whole, part) pairs are measured on the same payments, so the part is never longer.
LATENCIES = ["sequential_dialog", "sequential_handle", "handle_alone", "concurrent_handle_alone", "concurrent_dialog",
             "concurrent_handle", "host_dialog", "raw_group_commit"]
WHOLE_AND_PART = [("sequential_dialog", "sequential_handle"), ("concurrent_dialog", "concurrent_handle")]
# The step table: the median of each session call of the sequential dialogs, in microseconds.
STEPS = [f"step_{name}_p50_us" for name in ("init", "resolve", "confirm", "agree", "handle")]
# Pages a payment writes, counted from the write-ahead log (issue 34, not timed): Tender's sequential payment and the raw rows'.
FRAMES = ["frames_per_sequential_payment", "raw_frames_per_payment"]
# The sequential budget from the same run (issue 34): the ratio the calls before handle allow, and CPU against waiting a payment.
BUDGET = ["bound_sequential_if_handle_were_raw", "sequential_cpu_us_per_payment", "raw_payment_rows_cpu_us_per_payment",
          "sequential_wait_us_per_payment", "raw_payment_rows_wait_us_per_payment"]
# The log's checkpoints over the whole run (issue 34, round eleven): by the workers, and inside a payment's commit.
CHECKPOINTS = ["checkpoints_background", "checkpoints_inline"]
# The N submitters' timed handles, per payment (issue 34): the process's CPU time (us) and context switches, all and involuntary.
PER_PAYMENT = ["concurrent_cpu_us_per_payment", "concurrent_switches_per_payment", "concurrent_preemptions_per_payment"]
# Many homes (issue 34.3): rates, their ratio, latencies, engine opens and what an open engine holds.
HOMES_LATENCIES = ["homes_payment", "raw_homes_payment", "homes_engine_open", "engine_open"]
HOMES = ["raw_homes_payments_per_s", "tender_homes_payments_per_s", "ratio_homes_to_raw", "homes_engine_opens_per_payment",
         "engine_resident_kib", "engine_descriptors"]
# The many-homes comparison's own check (issue 34): its ratio over each half of the turns, and the CPU a payment on either side.
HOMES_STEADINESS = ["ratio_homes_to_raw_first_half", "ratio_homes_to_raw_second_half", "homes_cpu_us_per_payment",
                    "raw_homes_cpu_us_per_payment"]


def run(*args, check=True):
    return subprocess.run([CLI, "bench", *args], capture_output=True, text=True, timeout=300, check=check)


def test_a_short_run_prints_every_figure_and_consistent_ratios(tmp_path):
    figures = json.loads(run("--seconds", "0.05", "--records", "300", "--threads", "3", "--homes", "0", "--directory", str(tmp_path),
                             "--json").stdout)
    latencies = {f"latency_{name}_{p}_ms" for name in LATENCIES for p in ("p50", "p99")}
    assert set(figures) == set(RATES) | set(RATIOS) | latencies | set(STEPS) | set(FRAMES) | set(CHECKPOINTS) | set(BUDGET) | set(
        PER_PAYMENT) | {"concurrent_cpu_cores_busy", "tender_verify_records"}
    # A sequential payment's record goes in signed (issue 34): the frames of the signature's later store and of the
    # unsigned rows' index are gone (6.6-6.8 a payment before; 5.2-5.5 after; the raw rows' 3.5-4.2).
    assert 3 <= figures["raw_frames_per_payment"] <= 4.5
    assert figures["raw_frames_per_payment"] < figures["frames_per_sequential_payment"] <= 6.0
    # The steps are parts of the whole dialog: their medians add up to no more than a slow dialog.
    assert all(figures[step] > 0 for step in STEPS)
    assert sum(figures[step] for step in STEPS) / 1000 <= figures["latency_sequential_dialog_p99_ms"] * 5
    for name in LATENCIES:
        assert 0 < figures[f"latency_{name}_p50_ms"] <= figures[f"latency_{name}_p99_ms"], name
    for whole, part in WHOLE_AND_PART:
        for p in ("p50", "p99"):
            assert figures[f"latency_{part}_{p}_ms"] <= figures[f"latency_{whole}_{p}_ms"], (whole, p)
    for key in RATES:
        assert figures[key] > 0, key
    for key, (numerator, denominator) in RATIOS.items():
        assert figures[key] == pytest.approx(figures[numerator] / figures[denominator], rel=0.01, abs=0.002), key
    assert figures["tender_verify_records"] >= 300
    # The bound: the raw rows' time a payment over that time plus the medians of the calls before handle.
    raw_us = 1e6 / figures["raw_sign_then_commit_payment_per_s"]
    before_handle_us = sum(figures[f"step_{name}_p50_us"] for name in ("init", "resolve", "confirm", "agree"))
    assert figures["bound_sequential_if_handle_were_raw"] == pytest.approx(raw_us / (raw_us + before_handle_us), rel=0.01, abs=0.002)
    assert 0 < figures["bound_sequential_if_handle_were_raw"] < 1
    # A payment's wall time is its process CPU plus its time off the CPU (CPU may exceed it: a checkpoint worker's).
    for cpu, wait, rate in [("sequential_cpu_us_per_payment", "sequential_wait_us_per_payment", "tender_sequential_per_s"),
                            ("raw_payment_rows_cpu_us_per_payment", "raw_payment_rows_wait_us_per_payment",
                             "raw_sign_then_commit_payment_per_s")]:
        assert figures[cpu] > 0 and figures[wait] >= 0, cpu
        wall_us = 1e6 / figures[rate]
        if figures[wait] > 0:
            assert figures[cpu] + figures[wait] == pytest.approx(wall_us, rel=0.02, abs=0.3), cpu
        else:
            assert figures[cpu] >= wall_us * 0.98, cpu
    # A dialog does what the raw rows do (a signature, a commit) and more.
    assert figures["sequential_cpu_us_per_payment"] > figures["raw_payment_rows_cpu_us_per_payment"]
    assert all(figures[key] >= 0 and figures[key] == int(figures[key]) for key in CHECKPOINTS)
    assert 0 < figures["concurrent_cpu_cores_busy"] <= os.cpu_count() + 0.5
    # CPU a payment: the cores busy over the payments made in the same time (both rounded as printed).
    assert figures["concurrent_cpu_us_per_payment"] == pytest.approx(
        figures["concurrent_cpu_cores_busy"] / figures["tender_concurrent_submissions_per_s"] * 1e6, rel=0.05)
    # A payment of several submitters waits for its batch at least once in a while; preemptions are part of all switches.
    assert 0 < figures["concurrent_switches_per_payment"]
    assert 0 <= figures["concurrent_preemptions_per_payment"] <= figures["concurrent_switches_per_payment"]
    # The ceilings are computed from the printed rates: a batch's flush, then its signatures.
    cores = min(os.cpu_count(), 3)
    share = 1 / figures["raw_group_commit_per_s"]
    assert figures["ceiling_concurrent_per_s"] == pytest.approx(
        1 / (share + 1 / (figures["raw_sign_per_s"] * cores)), rel=0.01)
    # With signing overlapping the flush, the slower of the two bounds.
    assert figures["ceiling_overlap_per_s"] == pytest.approx(
        min(figures["raw_group_commit_per_s"], figures["raw_sign_per_s"] * cores), rel=0.01)
    assert figures["ceiling_one_signature_per_flush_per_s"] == pytest.approx(
        1 / (share + 1 / (figures["raw_sign_per_s"] * 3)), rel=0.01)
    # Signing on more cores, or once per flush, can never beat the flush alone.
    assert figures["ceiling_concurrent_per_s"] < figures["raw_group_commit_per_s"]
    assert figures["ceiling_one_signature_per_flush_per_s"] < figures["raw_group_commit_per_s"]


def test_the_table_names_the_targets(tmp_path):
    table = run("--seconds", "0.05", "--records", "20", "--threads", "2", "--homes", "0", "--directory", str(tmp_path)).stdout
    for target in ["(target >= 0.9)", "(target >= 1.0)", "target >= 1.7", "(target >= 0.8)"]:
        assert target in table
    assert "the most one at a time can reach" in table and "ceiling for 2 submitters" in table
    assert "latency of a whole dialog, one at a time, p99" in table
    assert "step: resolve, p50" in table
    assert "through a host" in table
    assert "log checkpoints run by the workers" in table
    assert "its bound if handle cost the raw rows' time" in table and "process CPU a sequential payment" in table
    assert len(table.strip().splitlines()) == 63


def test_many_homes_print_their_figures_from_one_run(tmp_path):
    """Issue 34.3: N homes, engines opened on demand (at most --open-engines), against as many raw files."""
    figures = json.loads(run("--seconds", "0.1", "--records", "20", "--threads", "3", "--homes", "12", "--open-engines", "4",
                             "--directory", str(tmp_path), "--json").stdout)
    latencies = {f"latency_{name}_{p}_ms" for name in HOMES_LATENCIES for p in ("p50", "p99")}
    assert set(HOMES) | set(HOMES_STEADINESS) | latencies <= set(figures)
    # Both halves of the turns ran both sides (the same threads, in turns), and each side used the CPU.
    for name in HOMES_STEADINESS:
        assert figures[name] > 0, name
    assert figures["ratio_homes_cpu_raw_to_tender"] == pytest.approx(
        figures["raw_homes_cpu_us_per_payment"] / figures["homes_cpu_us_per_payment"], rel=0.01, abs=0.002)
    assert figures["raw_homes_payments_per_s"] > 0 and figures["tender_homes_payments_per_s"] > 0
    assert figures["ratio_homes_to_raw"] == pytest.approx(
        figures["tender_homes_payments_per_s"] / figures["raw_homes_payments_per_s"], rel=0.01, abs=0.002)
    for name in HOMES_LATENCIES:
        assert 0 < figures[f"latency_{name}_p50_ms"] <= figures[f"latency_{name}_p99_ms"], name
    # 12 homes, at most 4 open: some payments must have opened an engine, none opened more than one.
    assert 0 < figures["homes_engine_opens_per_payment"] <= 1.0
    # An open engine holds its store's descriptors (the file, its -wal and -shm, two connections).
    assert 2 <= figures["engine_descriptors"] <= 16
    homes = sorted(name for name in os.listdir(tmp_path / "homes") if name.startswith("home-"))
    assert len(homes) == 12
    # A second run finds the homes made: it opens them, it does not make them again.
    again = json.loads(run("--seconds", "0.05", "--records", "20", "--threads", "2", "--homes", "12", "--open-engines", "4",
                           "--directory", str(tmp_path), "--json").stdout)
    assert again["tender_homes_payments_per_s"] > 0


def test_a_missing_directory_is_made_and_a_file_is_named_with_the_reason(tmp_path):
    """`--directory DIR` with DIR missing ended with `Error: raw open`: now it is made (as mkdir -p);
    a path that cannot be a directory is refused with the path and the reason."""
    missing = tmp_path / "not" / "there"
    figures = json.loads(run("--seconds", "0.02", "--records", "5", "--threads", "2", "--homes", "0", "--directory", str(missing),
                             "--json").stdout)
    assert figures["tender_sequential_per_s"] > 0 and missing.is_dir()
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    refused = run("--seconds", "0.02", "--records", "5", "--homes", "0", "--directory", str(blocker / "below"), check=False)
    assert refused.returncode != 0
    assert str(blocker) in refused.stderr and "not a directory" in refused.stderr.lower() and "raw open" not in refused.stderr


@pytest.mark.parametrize("args", [["--seconds", "0"], ["--records", "0"], ["--threads", "0"], ["--seconds", "nan"],
                                  ["--homes", "-1"], ["--open-engines", "0"]])
def test_absurd_options_are_refused(args):
    refused = run(*args, check=False)
    assert refused.returncode != 0 and refused.stderr.strip()


@pytest.mark.skipif(os.geteuid() != 0 or not all(os.path.exists(f"/usr/bin/{tool}") for tool in ("setpriv", "prlimit")),
                    reason="needs root, setpriv and prlimit to run the bench as an unprivileged user under a thread limit")
def test_threads_that_cannot_all_start_end_the_run_with_an_error_and_no_hang():
    """The bench ran a thread's work on the calling thread when `pthread_create` failed: the many-homes turns, whose
    threads wait at a barrier for one another, then waited forever. Now no thread runs its work until all exist, and a
    failed start ends the run with an error naming it. RLIMIT_NPROC binds an unprivileged user (not root), so the run is
    made as `nobody` (the tool from a copy it can reach, in a folder it may write), with fewer threads allowed than the
    8 submitters."""
    root = os.path.dirname(os.path.abspath(CLI))
    tool = os.path.join(reachable_copy(root, [os.path.basename(CLI)]), os.path.basename(CLI))
    scratch = tempfile.mkdtemp(prefix="tender-bench-threads-", dir="/tmp")
    try:
        os.chmod(scratch, 0o777)
        done = subprocess.run(["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", "--", "prlimit", "--nproc=6",
                               "env", f"TMPDIR={scratch}", f"HOME={scratch}", tool, "bench", "--seconds", "0.1", "--records", "10",
                               "--homes", "4", "--open-engines", "2", "--directory", os.path.join(scratch, "b")],
                              capture_output=True, text=True, timeout=120)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    assert done.returncode != 0
    assert "could not start 8 bench threads" in done.stderr and "pthread_create" in done.stderr
