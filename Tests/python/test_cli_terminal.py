# SPDX-License-Identifier: Apache-2.0
"""`tender intent` asks PAM's password on the terminal, without echo.

Runs the CLI on a pseudo-terminal in a demo home (where the tool uses the
demo's pam_matrix stack, in testing mode: the shipped tool takes no PAM stack
from its caller), types the password at the prompt, and checks that the
payment went through and that the password never appeared on the terminal.
"""
import os
import pty
import pwd
import select
import shutil
import subprocess
import termios
import time

import pytest

PAM_MATRIX = "/usr/lib/x86_64-linux-gnu/pam_wrapper/pam_matrix.so"


def cli():
    path = os.environ.get("TENDER_CLI") or os.path.join(os.path.dirname(__file__), "..", "..", "build", "bin", "tender")
    return path if os.path.exists(path) else None


def run_on_terminal(args, answer, timeout=60):
    """Runs args on a new pseudo-terminal (its controlling terminal); says yes to every confirmation
    question and types `answer` at every password prompt (the demo authenticates once per intent that moves money), once the program has turned echo
    off: it does so with TCSAFLUSH after writing the prompt, which discards anything typed earlier."""
    controller, terminal = pty.openpty()
    process = subprocess.Popen(args, stdin=terminal, stdout=terminal, stderr=terminal, start_new_session=True,
                               preexec_fn=lambda: __import__("fcntl").ioctl(0, __import__("termios").TIOCSCTTY, 0))
    output = b""
    typed = 0
    agreed = 0
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([controller], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(controller, 4096)
            except OSError:
                break
            if not chunk:
                break
            output += chunk
        # The person says yes to the confirmation question before any password (docs/intents.md).
        if output.count(b"(yes/no)") > agreed:
            os.write(controller, b"yes\n")
            agreed += 1
        if output.count(b"Password") > typed and not termios.tcgetattr(terminal)[3] & termios.ECHO:
            os.write(controller, answer.encode() + b"\n")
            typed += 1
        if process.poll() is not None and not ready:
            break
    process.wait(timeout=10)
    os.close(terminal)
    os.close(controller)
    return process.returncode, output.decode(errors="replace")


@pytest.mark.skipif(not os.path.exists(PAM_MATRIX), reason="needs pam_matrix.so from libpam-wrapper")
@pytest.mark.skipif(cli() is None, reason="needs the tender CLI (make build)")
@pytest.mark.parametrize("password, paid", [("demo-password", True), ("not-the-password", False)])
def test_the_password_is_asked_without_echo(tmp_path, password, paid):
    home = str(tmp_path / "home")
    made = subprocess.run([cli(), "demo", "--home", home], capture_output=True, text=True, timeout=120)
    assert made.returncode == 0, made.stdout + made.stderr
    intent = '{"intent": "send_payment", "payee": {"id": "tim-cook"}, "currencyAmount": {"amount": "10", "currency": "USD"}}'
    code, output = run_on_terminal([cli(), "intent", "--home", home, intent], password)
    assert "Password" in output and "testing mode" in output
    assert password not in output, "the password was echoed"
    if paid:
        assert code == 0 and "handle → success" in output, output
    else:
        assert code != 0 and "failureCredentialsUnverified" in output, output
