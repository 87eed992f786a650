# SPDX-License-Identifier: Apache-2.0
"""tenderd as it is deployed: a daemon user of its own, clients that are other
users, a PAM stack only the daemon reads (pam_matrix with a password file in
the daemon's test directory, named by root's policy in testing mode).

Run as root (make test-broker); each run makes throwaway users (useradd) and
removes them. Nothing outside a temporary directory and /etc/passwd is touched.
"""

import grp
import json
import os
import pwd
import secrets
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "Tests"))
from checkout_access import closed_to_others  # noqa: E402  (after the path set-up)
TENDERD = os.path.join(ROOT, "build", "bin", "tenderd")
TENDER = os.path.join(ROOT, "build", "bin", "tender")
LIBRARY = os.path.join(ROOT, "build", "lib", "libtender.so.1")
CLIENT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "broker_client.py")
PAM_MATRIX = "/usr/lib/x86_64-linux-gnu/pam_wrapper/pam_matrix.so"
SERVICE = "tender-broker-test"
TIMEOUT = 3  # tenderd --timeout: how long a client may take to send a message


pytestmark = [
    pytest.mark.skipif(os.geteuid() != 0, reason="the broker tests make throwaway users and run tenderd as one: run them as root"),
    pytest.mark.skipif(not os.path.exists(PAM_MATRIX), reason=f"{PAM_MATRIX} is missing: apt-get install libpam-wrapper"),
    pytest.mark.skipif(closed_to_others(ROOT) is not None,
                       reason="the throwaway users cannot reach this checkout (a directory above it is closed to others, e.g. a mktemp -d folder)"),
    pytest.mark.skipif(shutil.which("setpriv") is None or shutil.which("useradd") is None,
                       reason="setpriv and useradd (util-linux, passwd) are needed"),
    pytest.mark.skipif(not os.path.exists(TENDERD), reason="build/bin/tenderd is missing: make build"),
]


class Daemon:
    """tenderd run as the daemon user, with root's policy naming the test PAM stack."""

    def __init__(self, base, user, groups=None):
        self.base, self.user, self.groups = base, user, groups
        self.socket = os.path.join(base, "run", "socket")
        self.state = os.path.join(base, "state")
        self.process = None

    def start(self):
        entry = pwd.getpwnam(self.user)
        self.log = open(os.path.join(self.base, "tenderd.log"), "ab")
        self.process = subprocess.Popen(
            ["setpriv", f"--reuid={entry.pw_uid}", f"--regid={entry.pw_gid}",
             f"--groups={self.groups}" if self.groups else "--clear-groups", "--", TENDERD, "--socket", self.socket, "--state", self.state, "--policy", os.path.join(self.base, "policy.json"),
             "--timeout", str(TIMEOUT)],
            stdout=self.log, stderr=self.log, env={"PATH": os.environ["PATH"]})
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            assert self.process.poll() is None, open(os.path.join(self.base, "tenderd.log")).read()
            try:
                with socket.socket(socket.AF_UNIX) as probe:
                    probe.connect(self.socket)
                return
            except OSError:
                time.sleep(0.05)
        raise AssertionError("tenderd did not start listening")

    def kill(self, sig=signal.SIGKILL):
        self.process.send_signal(sig)
        self.process.wait(timeout=20)
        self.log.close()

    def serving(self):
        return self.process.poll() is None


@pytest.fixture(scope="module")
def world():
    tag = secrets.token_hex(3)
    names = {role: f"tbk{role}{tag}" for role in ("d", "a", "b")}
    base = tempfile.mkdtemp(prefix="tender-broker-", dir="/tmp")
    try:
        for name in names.values():
            subprocess.run(["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", name], check=True)
        daemon_user = pwd.getpwnam(names["d"])
        os.chmod(base, 0o755)
        # The PAM stack and its passwords: readable by the daemon's group, not by the clients.
        pam = os.path.join(base, "pam")
        os.mkdir(pam, 0o750)
        os.chown(pam, 0, daemon_user.pw_gid)
        passdb = os.path.join(pam, "passdb")
        with open(passdb, "w") as f:
            f.write(f"{names['a']}:alice-Secret-1:{SERVICE}\n{names['b']}:bob-Secret-2:{SERVICE}\n")
        with open(os.path.join(pam, SERVICE), "w") as f:
            f.write(f"auth required {PAM_MATRIX} passdb={passdb}\naccount required {PAM_MATRIX} passdb={passdb}\n")
        with open(os.path.join(pam, "other"), "w") as f:
            f.write("".join(f"{group} required pam_deny.so\n" for group in ("auth", "account", "password", "session")))
        for name in ("passdb", SERVICE, "other"):
            os.chmod(os.path.join(pam, name), 0o640)
            os.chown(os.path.join(pam, name), 0, daemon_user.pw_gid)
        with open(os.path.join(base, "policy.json"), "w") as f:
            json.dump({"testing": True, "authentication": {
                "service": SERVICE, "pamConfigDirectory": pam,
                "throttle": {"freeAttempts": 5, "baseDelaySeconds": 1, "maxDelaySeconds": 60}}}, f)
        for directory, mode in (("state", 0o700), ("run", 0o755)):
            path = os.path.join(base, directory)
            os.mkdir(path, mode)
            os.chown(path, daemon_user.pw_uid, daemon_user.pw_gid)
        daemon = Daemon(base, names["d"])
        daemon.start()
        yield {"base": base, "daemon": daemon, "alice": names["a"], "bob": names["b"],
               "passwords": {names["a"]: "alice-Secret-1", names["b"]: "bob-Secret-2"}}
        if daemon.serving():
            daemon.kill(signal.SIGTERM)
    finally:
        for name in names.values():
            subprocess.run(["userdel", name], stderr=subprocess.DEVNULL)
        shutil.rmtree(base, ignore_errors=True)


def as_user(user, argv, timeout=120, **kwargs):
    entry = pwd.getpwnam(user)
    env = {"PATH": os.environ["PATH"], "HOME": "/", "PYTHONPATH": os.path.join(ROOT, "python"), "TENDER_LIBRARY": LIBRARY}
    return subprocess.run(["setpriv", f"--reuid={entry.pw_uid}", f"--regid={entry.pw_gid}", "--clear-groups", "--", *argv],
                          env=env, capture_output=True, text=True, timeout=timeout, **kwargs)


def client(world, user, *args):
    done = as_user(user, [sys.executable, CLIENT, world["daemon"].socket, *args])
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


@pytest.fixture(scope="module")
def alice(world):
    assert client(world, world["alice"], "setup") == {"ok": True}
    return world["alice"]


def test_pays_with_the_users_password_and_the_daemon_signs(world, alice):
    outcome = client(world, alice, "pay", world["passwords"][alice], "right-1")
    assert outcome["code"] == "SUCCESS" and outcome["jws"].count(".") == 2
    # Idempotent across connections: the same key answers the same record and pays nothing more.
    again = client(world, alice, "pay", world["passwords"][alice], "right-1")
    assert again["jws"] == outcome["jws"]
    assert client(world, alice, "payments")["keys"].count("right-1") == 1


@pytest.mark.parametrize("password", ["wrong-password", "", "-"])
def test_a_wrong_empty_or_missing_password_pays_nothing(world, alice, password):
    outcome = client(world, alice, "pay", password, f"denied-{password}")
    assert outcome["code"] == "FAILURE_CREDENTIALS_UNVERIFIED", outcome
    assert f"denied-{password}" not in client(world, alice, "payments")["keys"]


def test_a_policy_of_the_clients_own_cannot_turn_authentication_off(world, alice):
    outcome = client(world, alice, "pay", "wrong-password", "open-policy", json.dumps({
        "restrictedIntents": [], "reuseSeconds": 300, "throttle": {"freeAttempts": 5, "baseDelaySeconds": 1, "maxDelaySeconds": 60}}))
    assert outcome["code"] == "FAILURE_CREDENTIALS_UNVERIFIED", outcome
    assert "open-policy" not in client(world, alice, "payments")["keys"]
    # Nor name a PAM stack of its own (pam_permit would say yes to anyone).
    stack = client(world, alice, "engine", json.dumps({"testing": True, "authentication": {
        "service": "other", "pamConfigDirectory": "/etc/pam.d"}}))
    assert stack["error"] == "InvalidArgumentError", stack


def test_the_client_cannot_read_its_key_or_ledger(world, alice):
    state = os.path.join(world["daemon"].state, str(pwd.getpwnam(alice).pw_uid))
    files = [os.path.join(top, name) for top, _, names in os.walk(state) for name in names]
    assert any(name.endswith(".pem") for name in files) and any(name.endswith(".sqlite3") for name in files)
    for path in files + [state, world["daemon"].state]:
        done = as_user(alice, ["cat" if os.path.isfile(path) else "ls", path])
        assert done.returncode != 0 and "Permission denied" in done.stderr, path
    for path in files:
        assert os.stat(path).st_uid == pwd.getpwnam(world["daemon"].user).pw_uid


def test_another_user_sees_and_pays_only_from_their_own_ledger(world, alice):
    bob = world["bob"]
    assert client(world, bob, "payments") == {"keys": []}
    # Bob's store has no directory: there is no John Baily and no account to pay from.
    assert client(world, bob, "pay", world["passwords"][bob], "bob-1")["code"] != "SUCCESS"
    assert client(world, bob, "setup") == {"ok": True}
    # Alice's password is not Bob's.
    assert client(world, bob, "pay", world["passwords"][alice], "bob-2")["code"] == "FAILURE_CREDENTIALS_UNVERIFIED"
    assert client(world, bob, "pay", world["passwords"][bob], "right-1")["code"] == "SUCCESS"
    assert client(world, bob, "payments") == {"keys": ["right-1"]}
    assert client(world, alice, "payments")["keys"].count("right-1") == 1


def raw(world, frames, read=True):
    """Sends raw bytes as root (uid 0 is a client like any other) and answers what came back, or b"" at a close."""
    with socket.socket(socket.AF_UNIX) as s:
        s.settimeout(TIMEOUT + 5)
        s.connect(world["daemon"].socket)
        for frame in frames:
            s.sendall(frame)
        if not read:
            return b""
        data = b""
        try:
            while chunk := s.recv(65536):
                data += chunk
        except (ConnectionResetError, TimeoutError):
            pass
        return data


def frame(message):
    body = json.dumps(message).encode()
    return struct.pack(">I", len(body)) + body


def test_forged_oversized_and_slow_clients_leave_the_daemon_serving(world, alice):
    # A hello naming a uid of its choosing: refused, the uid comes from the kernel only.
    answer = raw(world, [frame({"tender": 1, "op": "hello", "body": {"uid": 0}})])
    assert b'"invalidArgument"' in answer and b"unknown member" in answer
    # Another protocol version, garbage, an empty frame, and an oversized frame announced but never sent.
    assert b'"error"' in raw(world, [frame({"tender": 2, "op": "hello"})])
    assert b'"error"' in raw(world, [struct.pack(">I", 11) + b"not json!!!"])
    raw(world, [struct.pack(">I", 0)])
    assert b"exceeds" in raw(world, [struct.pack(">I", 0x7FFFFFFF)])
    # A dialog call before a session, and a session's dialog asked for engine calls.
    answer = raw(world, [frame({"tender": 1, "op": "hello"}), frame({"tender": 1, "op": "handle"})])
    assert b"no session" in answer
    # A slow client holds its connection until the timeout; others are served meanwhile.
    with socket.socket(socket.AF_UNIX) as slow:
        slow.connect(world["daemon"].socket)
        slow.sendall(b"\x00\x00")
        assert "keys" in client(world, alice, "payments")
        slow.settimeout(TIMEOUT + 10)
        started = time.monotonic()
        said = b""
        while chunk := slow.recv(1000):  # the daemon says why, then closes
            said += chunk
        assert b"timed out" in said and time.monotonic() - started < TIMEOUT + 5
    assert world["daemon"].serving()
    outcome = client(world, alice, "pay", world["passwords"][alice], "after-forgeries")
    assert outcome["code"] == "SUCCESS", outcome


def test_fifty_clients_at_once_are_served_and_lose_nothing(world, alice):
    result = client(world, alice, "swarm", "50", world["passwords"][alice])
    assert result["errors"] == [] and result["read"] == 46, result
    keys = client(world, alice, "payments")["keys"]
    assert all(key in keys for key in result["paid"]) and len(result["paid"]) == 4
    assert world["daemon"].serving()


def test_kill_9_mid_payment_loses_no_acknowledged_payment(world, alice):
    daemon = world["daemon"]
    entry = pwd.getpwnam(alice)
    env = {"PATH": os.environ["PATH"], "HOME": "/", "PYTHONPATH": os.path.join(ROOT, "python"), "TENDER_LIBRARY": LIBRARY}
    burst = subprocess.Popen(
        ["setpriv", f"--reuid={entry.pw_uid}", f"--regid={entry.pw_gid}", "--clear-groups", "--",
         sys.executable, CLIENT, daemon.socket, "burst", world["passwords"][alice], "40", "burst"],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    acknowledged = []
    for line in burst.stdout:
        if "acknowledged" in line:
            acknowledged.append(json.loads(line)["acknowledged"])
        if len(acknowledged) == 3:
            daemon.kill(signal.SIGKILL)
            break
    rest, errors = burst.communicate(timeout=60)
    acknowledged += [json.loads(line)["acknowledged"] for line in rest.splitlines() if "acknowledged" in line]
    assert rest and "error" in rest.splitlines()[-1], rest + errors  # the payment in flight failed at the client
    daemon.start()
    keys = client(world, alice, "payments")["keys"]
    assert acknowledged and all(key in keys for key in acknowledged)
    # What the daemon recorded is whole: the ledger verifies, against a checkpoint too.
    checkpoint = client(world, alice, "checkpoint")["checkpoint"]
    path = os.path.join(world["base"], "checkpoint-alice")
    with open(path, "w") as f:
        f.write(checkpoint)
    report = client(world, alice, "verify", path)["report"]
    assert report["valid"] and report["records"] == len(keys)


def test_tender_verify_through_the_broker_against_a_checkpoint(world, alice):
    socket_path = world["daemon"].socket
    made = as_user(alice, [TENDER, "checkpoint", "--broker", socket_path])
    assert made.returncode == 0, made.stderr
    path = os.path.join(world["base"], "checkpoint-cli")
    with open(path, "w") as f:
        f.write(made.stdout)
    verified = as_user(alice, [TENDER, "verify", "--broker", socket_path, "--checkpoint", path])
    assert verified.returncode == 0 and "ledger valid" in verified.stdout, verified.stdout + verified.stderr
    # Its home is the daemon's: nothing of Alice's is written anywhere else.
    assert "TESTING MODE" in verified.stdout


def test_the_system_login_through_pam_unix_as_the_packaged_service_runs_it():
    """pam_unix in a daemon that is not root: with the shadow group (as tenderd.service has it) it checks
    the connecting user's real password, which chpasswd set for a throwaway user."""
    tag = secrets.token_hex(3)
    daemon_user, user = f"tbkud{tag}", f"tbkuc{tag}"
    base = tempfile.mkdtemp(prefix="tender-broker-unix-", dir="/tmp")
    daemon = None
    try:
        for name in (daemon_user, user):
            subprocess.run(["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", name], check=True)
        subprocess.run(["chpasswd"], input=f"{user}:Unix-Secret-7\n", text=True, check=True)
        entry = pwd.getpwnam(daemon_user)
        os.chmod(base, 0o755)
        pam = os.path.join(base, "pam")
        os.mkdir(pam, 0o755)
        with open(os.path.join(pam, "tender-unix"), "w") as f:
            f.write("auth required pam_unix.so\naccount required pam_unix.so\n")
        with open(os.path.join(base, "policy.json"), "w") as f:
            json.dump({"testing": True, "authentication": {"service": "tender-unix", "pamConfigDirectory": pam}}, f)
        for directory, mode in (("state", 0o700), ("run", 0o755)):
            os.mkdir(os.path.join(base, directory), mode)
            os.chown(os.path.join(base, directory), entry.pw_uid, entry.pw_gid)
        daemon = Daemon(base, daemon_user, groups=str(grp.getgrnam("shadow").gr_gid))
        daemon.start()
        local = {"daemon": daemon}
        assert client(local, user, "setup") == {"ok": True}
        assert client(local, user, "pay", "not-the-password", "unix-0")["code"] == "FAILURE_CREDENTIALS_UNVERIFIED"
        assert client(local, user, "pay", "Unix-Secret-7", "unix-1")["code"] == "SUCCESS"
    finally:
        if daemon is not None and daemon.serving():
            daemon.kill(signal.SIGTERM)
        for name in (daemon_user, user):
            subprocess.run(["userdel", name], stderr=subprocess.DEVNULL)
        shutil.rmtree(base, ignore_errors=True)


def test_socket_activation_as_tenderd_socket_starts_it(world, alice):
    """--systemd: the listening socket comes as descriptor 3 with LISTEN_PID and LISTEN_FDS, as systemd passes it."""
    entry = pwd.getpwnam(world["daemon"].user)
    path = os.path.join(world["base"], "run", "activated")
    listener = socket.socket(socket.AF_UNIX)
    listener.bind(path)
    os.chmod(path, 0o666)
    listener.listen(16)
    try:
        # Descriptor 3 is pytest's in this process: the child alone puts the listener there.
        process = subprocess.Popen(
            ["setpriv", f"--reuid={entry.pw_uid}", f"--regid={entry.pw_gid}", "--clear-groups", "--", "sh", "-c",
             'LISTEN_PID=$$ LISTEN_FDS=1 exec "$0" "$@"', TENDERD, "--systemd", "--state", world["daemon"].state,
             "--policy", os.path.join(world["base"], "policy.json")],
            pass_fds=(3, listener.fileno()), preexec_fn=lambda: os.dup2(listener.fileno(), 3),
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env={"PATH": os.environ["PATH"]})
        try:
            activated = type("Activated", (), {"socket": path})
            assert client({"daemon": activated}, alice, "payments")["keys"], "no payments through the activated socket"
        finally:
            process.terminate()
            process.wait(timeout=20)
    finally:
        listener.close()
    # Without a socket passed, --systemd refuses to start.
    fresh = tempfile.mkdtemp(dir=world["base"])
    done = subprocess.run([TENDERD, "--systemd", "--state", fresh], capture_output=True, text=True, timeout=20)
    assert done.returncode == 2 and "no socket was passed" in done.stderr, done.stderr
    # Nor does it serve from a state directory it does not own.
    done = subprocess.run([TENDERD, "--socket", path + "-2", "--state", world["daemon"].state], capture_output=True, text=True, timeout=20)
    assert done.returncode == 2 and "must be a directory of tenderd's user with mode 0700" in done.stderr, done.stderr


def test_tender_intent_and_ask_pay_through_the_broker(world, alice):
    socket_path = world["daemon"].socket
    password = world["passwords"][alice]
    intent = json.dumps({"intent": "send_payment", "payee": {"name": "John Baily"},
                         "currencyAmount": {"amount": "7", "currency": "USD"}, "idempotencyKey": "cli-intent"})
    paid = as_user(alice, [TENDER, "intent", "--broker", socket_path, intent], input=f"yes\n{password}\n")
    assert paid.returncode == 0 and "success" in paid.stdout, paid.stdout + paid.stderr
    denied = as_user(alice, [TENDER, "ask", "--broker", socket_path, "--json", "send $6 to John Baily"], input="yes\nwrong\n")
    turns = [json.loads(line) for line in denied.stdout.splitlines()]
    assert denied.returncode == 1 and turns[-1]["code"] == "failureCredentialsUnverified", denied.stdout + denied.stderr
    asked = as_user(alice, [TENDER, "ask", "--broker", socket_path, "send $6 to John Baily"], input=f"yes\n{password}\n")
    assert asked.returncode == 0 and "success" in asked.stdout, asked.stdout + asked.stderr
    assert "cli-intent" in client(world, alice, "payments")["keys"]


def test_the_destination_question_through_the_broker(world, alice):
    # docs/dialog.md: a transfer that names nobody asks where the money goes; the daemon's session changes intent.
    socket_path = world["daemon"].socket
    done = as_user(alice, [TENDER, "ask", "--broker", socket_path, "--json", "can you do a transfer for me"], input="someone\n")
    turns = [json.loads(line) for line in done.stdout.splitlines()]
    questions = [t for t in turns if t["turn"] == "question"]
    assert questions[0]["parameter"] == "intent" and questions[0]["prompt"] == "destination", done.stdout + done.stderr
    assert questions[0]["message"] == "To someone else, or between your own accounts?"
    # "someone": to someone else; the send's own first question follows, then no answer is left.
    assert questions[1]["parameter"] == "payee", done.stdout
    assert done.returncode == 3 and turns[-1]["turn"] == "error", done.stdout + done.stderr
