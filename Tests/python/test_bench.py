# SPDX-License-Identifier: Apache-2.0
"""`tender bench`, run short: every figure is printed, the ratios are the
quotients of the printed rates, and the verification covers the ledger it
filled. The rates themselves are benchmark figures, never asserted here."""
import json
import os
import subprocess

import pytest

HERE = os.path.dirname(__file__)
CLI = os.environ.get("TENDER_CLI") or os.path.join(HERE, "..", "..", "build", "bin", "tender")

pytestmark = pytest.mark.skipif(not os.path.exists(CLI), reason="needs the tender tool")

RATES = ["raw_sign_per_s", "raw_verify_per_s", "raw_commit_per_s", "raw_sign_then_commit_per_s",
         "raw_sign_then_commit_payment_per_s", "tender_sequential_per_s", "tender_handle_per_s",
         "raw_group_commit_per_s", "ceiling_concurrent_per_s", "ceiling_overlap_per_s", "ceiling_one_signature_per_flush_per_s",
         "tender_concurrent_submissions_per_s", "tender_concurrent_dialogs_per_s", "tender_verify_per_s"]
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
}
# Latency percentiles in milliseconds: (whole, part) pairs are measured on the same payments, so the part is never longer.
LATENCIES = ["sequential_dialog", "sequential_handle", "handle_alone", "concurrent_handle_alone", "concurrent_dialog",
             "concurrent_handle"]
WHOLE_AND_PART = [("sequential_dialog", "sequential_handle"), ("concurrent_dialog", "concurrent_handle")]


def run(*args, check=True):
    return subprocess.run([CLI, "bench", *args], capture_output=True, text=True, timeout=300, check=check)


def test_a_short_run_prints_every_figure_and_consistent_ratios(tmp_path):
    figures = json.loads(run("--seconds", "0.05", "--records", "300", "--threads", "3", "--directory", str(tmp_path), "--json").stdout)
    latencies = {f"latency_{name}_{p}_ms" for name in LATENCIES for p in ("p50", "p99")}
    assert set(figures) == set(RATES) | set(RATIOS) | latencies | {"concurrent_cpu_cores_busy", "tender_verify_records"}
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
    assert 0 < figures["concurrent_cpu_cores_busy"] <= os.cpu_count() + 0.5
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
    table = run("--seconds", "0.05", "--records", "20", "--threads", "2", "--directory", str(tmp_path)).stdout
    for target in ["(target >= 0.9)", "(target >= 1.0)", "target >= 1.7", "(target >= 0.8)"]:
        assert target in table
    assert "the most one at a time can reach" in table and "ceiling for 2 submitters" in table
    assert "latency of a whole dialog, one at a time, p99" in table
    assert len(table.strip().splitlines()) == 38


@pytest.mark.parametrize("args", [["--seconds", "0"], ["--records", "0"], ["--threads", "0"], ["--seconds", "nan"]])
def test_absurd_options_are_refused(args):
    refused = run(*args, check=False)
    assert refused.returncode != 0 and refused.stderr.strip()
