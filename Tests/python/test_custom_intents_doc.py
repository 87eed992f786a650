# SPDX-License-Identifier: Apache-2.0
"""docs/custom-intents.md's C and Python hosts run as written: each fenced
block is extracted, built (C, through pkg-config against an installed copy)
or run (Python) with a fresh home and both shipped definitions, under
pam_wrapper with the service "tender" on pam_matrix (the round-up is
restricted), and must answer both intents in the person's words."""
import os
import re
import sys

import pytest

import libtender as tender
from test_readme import PASSWORD, REPO, installed, pam_env, pytestmark, run  # noqa: F401 (fixtures, marks)

DOC = os.path.join(REPO, "docs", "custom-intents.md")
DEFINITIONS = [os.path.join(REPO, "examples", "intents", name) for name in ("expense.json", "round-up.json")]


def blocks(language):
    with open(DOC, encoding="utf-8") as f:
        return re.findall(r"^```" + language + r"\n(.*?)^```$", f.read(), flags=re.S | re.M)


def answered_both(done):
    assert done.returncode == 0, done.stdout + done.stderr
    assert "You have $120 left in vacation." in done.stdout
    assert "Move $5?" in done.stdout and "Done: $5 moved into your savings." in done.stdout
    assert PASSWORD not in done.stdout + done.stderr


def test_the_doc_has_one_c_and_one_python_host():
    assert len(blocks("c")) == 1 and len(blocks("python")) == 1


def test_the_c_host_builds_and_answers(tmp_path, installed, pam_env):  # noqa: F811 (fixtures)
    import subprocess
    flags, libdir = installed
    source = tmp_path / "expense_host.c"
    source.write_text(blocks("c")[0])
    program = tmp_path / "expense_host"
    built = subprocess.run(["cc", "-std=c99", "-pedantic", "-Wall", "-Wextra", "-Werror", os.fspath(source), *flags,
                            f"-Wl,-rpath,{libdir}", "-o", os.fspath(program)], capture_output=True, text=True)
    assert built.returncode == 0, built.stderr
    env = {k: v for k, v in pam_env.items() if k not in ("LD_LIBRARY_PATH", "TENDER_LIBRARY")}
    answered_both(run([os.fspath(program), os.fspath(tmp_path / "home"), *DEFINITIONS], env))


def test_the_python_host_runs_and_answers(tmp_path, pam_env):  # noqa: F811 (fixture)
    script = tmp_path / "expense_host.py"
    script.write_text(blocks("python")[0])
    env = dict(pam_env)
    env["PYTHONPATH"] = os.path.dirname(os.path.dirname(os.path.abspath(tender.__file__)))
    if os.path.sep in tender.library_path:
        env["TENDER_LIBRARY"] = tender.library_path
    answered_both(run([sys.executable, os.fspath(script), os.fspath(tmp_path / "home"), *DEFINITIONS], env))
