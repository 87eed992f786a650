# SPDX-License-Identifier: Apache-2.0
"""The tender tool reads its arguments even when a preloaded library moves the environment.

Issue 14.6: started straight from subprocess with LD_PRELOAD=libpam_wrapper.so,
PAM_WRAPPER=1 and PAM_WRAPPER_SERVICE_DIR, `tender ask ...` printed the top-level help
and exited 0. pam_wrapper's constructor adds PAM_WRAPPER_RUNTIME_DIR to the environment,
glibc moves `environ` to the heap, and Swift's CommandLine.arguments (found by walking
back from `environ` on the initial stack) came back empty. Through a shell the variable
already existed, so nothing moved. The tool now reads /proc/self/cmdline.
"""

import json
import os
import subprocess

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
CLI = os.environ.get("TENDER_CLI") or os.path.join(HERE, "..", "..", "build", "bin", "tender")
WRAPPER = "/usr/lib/x86_64-linux-gnu/libpam_wrapper.so"


def run(args, **env):
    full = dict(os.environ, **env)
    return subprocess.run([CLI, *args], env=full, capture_output=True, text=True, timeout=120)


@pytest.mark.skipif(not os.path.exists(WRAPPER), reason="libpam-wrapper is not installed")
def test_arguments_survive_a_preload_that_adds_an_environment_variable(tmp_path):
    services = tmp_path / "services"
    services.mkdir()
    done = run(["parse", "send $25 to Tim Cook"], LD_PRELOAD=WRAPPER, PAM_WRAPPER="1",
               PAM_WRAPPER_SERVICE_DIR=os.fspath(services))
    assert "OVERVIEW" not in done.stdout, done.stdout
    assert done.returncode == 0, done.stderr
    understood = json.loads(done.stdout)
    assert understood["intent"] == "send_payment"
    assert understood["parameters"]["currencyAmount"] == {"amount": "25.00", "currency": "USD"}


@pytest.mark.skipif(not os.path.exists(WRAPPER), reason="libpam-wrapper is not installed")
def test_ask_under_pam_wrapper_runs_the_dialog(tmp_path):
    services = tmp_path / "services"
    services.mkdir()
    done = run(["ask", "--json", "--home", os.fspath(tmp_path / "home"), "send $25 to Tim Cook"],
               LD_PRELOAD=WRAPPER, PAM_WRAPPER="1", PAM_WRAPPER_SERVICE_DIR=os.fspath(services))
    assert "OVERVIEW" not in done.stdout, done.stdout
    first = json.loads(done.stdout.splitlines()[0])
    assert first["turn"] == "understood" and first["text"] == "send $25 to Tim Cook"


def test_arguments_with_spaces_empty_words_and_utf8_arrive_whole():
    done = run(["parse", "envía 25 € a  Tim"])
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["text"] == "envía 25 € a  Tim"
    done = run(["parse", ""])
    assert "OVERVIEW" not in done.stdout
