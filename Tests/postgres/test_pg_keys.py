# SPDX-License-Identifier: Apache-2.0
"""A key per machine on PostgreSQL (make test-postgres, docs/scale.md "Keys and trust"): tenderd processes with
state directories of their own (as on separate machines) on one database. Each signs with its own key; a machine's
key signs only once a machine whose key signs enrolled it (`tenderd --enroll-key`, a signed `key_added` entry);
revoked (`tenderd --revoke-key`), it signs nothing more, and neither does any key it enrolled. A row written into
the database alone (the daemons' shared role) makes no key sign that verify accepts.

Run as root, like test_postgres.py (a throwaway cluster, throwaway users); skips, saying why, otherwise.
"""

import base64
import json
import os
import pwd
import secrets
import signal
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from test_postgres import pytestmark  # noqa: E402,F401  (the same skips)
from test_postgres import client, ledger_rows  # noqa: E402
from test_broker import CLIENT, SERVICE as SERVICE_NAME, TENDER, TENDERD, Daemon, as_user, write_pam_stack  # noqa: E402
from pg_cluster import run_as  # noqa: E402
from pg_world import Throwaway  # noqa: E402


@pytest.fixture(scope="module")
def machines():
    with Throwaway("tpk", ("d", "a", "b", "p")) as throwaway:
        names, base, cluster = throwaway.names, throwaway.base, throwaway.cluster
        daemon_user = pwd.getpwnam(names["d"])
        pam = write_pam_stack(base, daemon_user.pw_gid, {names["a"]: "alice-Secret-1", names["b"]: "bob-Secret-2"})
        with open(os.path.join(base, "policy.json"), "w") as f:
            json.dump({"testing": True, "store": cluster.uri(), "authentication": {
                "service": SERVICE_NAME, "pamConfigDirectory": pam, "restrictedIntents": []}}, f)
        # Three machines: a state directory (its keys) and a socket each, one database.
        daemons = {}
        for machine in ("A", "B", "C"):
            throwaway.directories((f"state{machine}", 0o700), (f"run{machine}", 0o755))
            daemon = Daemon(base, names["d"])
            daemon.state = os.path.join(base, f"state{machine}")
            daemon.socket = os.path.join(base, f"run{machine}", "socket")
            daemons[machine] = throwaway.started(daemon)
        alice, bob = names["a"], names["b"]
        for person, password in ((alice, "alice-Secret-1"), (bob, "bob-Secret-2")):
            assert client(daemons["A"], person, "setup") == {"ok": True}
            assert client(daemons["A"], person, "pay", password, "first")["code"] == "SUCCESS"
        yield {"base": base, "cluster": cluster, "daemons": daemons, "names": names, "alice": alice, "password": "alice-Secret-1",
               "uid": pwd.getpwnam(alice).pw_uid, "bob": bob, "throwaway": throwaway}


def keys_tool(world, machine, *action, uid=None):
    """`tenderd --uid UID ACTION` on `machine` (its state directory), as tenderd's user: (exit status, JSON or stderr)."""
    daemon = world["daemons"][machine]
    uid = world["uid"] if uid is None else uid
    done = run_as(world["names"]["d"], [TENDERD, "--state", daemon.state, "--store", world["cluster"].uri(), "--uid", str(uid), *action])
    return done.returncode, (json.loads(done.stdout) if done.returncode == 0 else done.stderr)


def key_states(world, uid=None):
    status, listed = keys_tool(world, "A", "--keys", uid=uid)
    assert status == 0, listed
    return {key["kid"]: key["state"] for key in listed["keys"]}


def header_kid(jws):
    header = jws.split(".")[0]
    return json.loads(base64.urlsafe_b64decode(header + "=" * (-len(header) % 4)))["kid"]


def verified(world, machine, pin=None, person=None, signer=None):
    """`tender verify --broker` through `machine` as `person` (Alice), against a checkpoint made through `signer` (that machine),
    with `pin` pinned."""
    socket = world["daemons"][machine].socket
    alice = person or world["alice"]
    made = as_user(alice, [TENDER, "checkpoint", "--broker", world["daemons"][signer or machine].socket])
    assert made.returncode == 0, made.stderr
    path = os.path.join(world["base"], f"checkpoint-{machine}")
    with open(path, "w") as f:
        f.write(made.stdout)
    os.chmod(path, 0o644)
    argv = [TENDER, "verify", "--broker", socket, "--checkpoint", path, "--json"]
    if pin:
        argv += ["--public-key", pin]
    return as_user(alice, argv)


def root_key_pem(world):
    """Alice's first key (machine A's), as a PEM public key others can read: the pinned root of trust."""
    keys = os.path.join(world["daemons"]["A"].state, str(world["uid"]), "keys")
    first = next(kid for kid, state in key_states(world).items() if os.path.exists(os.path.join(keys, kid + ".pem")))
    pem = subprocess.run(["openssl", "pkey", "-in", os.path.join(keys, first + ".pem"), "-pubout"], capture_output=True, text=True, check=True)
    path = os.path.join(world["base"], "root.pub.pem")
    with open(path, "w") as f:
        f.write(pem.stdout)
    os.chmod(path, 0o644)
    return path


def root_key_pem_of(world, uid, kid):
    """The public half of machine A's key `kid` for `uid`, as a PEM file others can read."""
    pem = subprocess.run(["openssl", "pkey", "-in", os.path.join(world["daemons"]["A"].state, str(uid), "keys", kid + ".pem"), "-pubout"],
                         capture_output=True, text=True, check=True)
    path = os.path.join(world["base"], f"first-{uid}.pub.pem")
    with open(path, "w") as f:
        f.write(pem.stdout)
    os.chmod(path, 0o644)
    return path


def sql(world, statement, uid=None):
    uid = world["uid"] if uid is None else uid
    done = world["cluster"].sql(world["names"]["d"], f"SET tender.uid = '{uid}'; {statement}")
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def person_with_a_pending_key(world, prefix, machine):
    """A new throwaway person (a name starting with `prefix`, removed with the module's throwaway users) who paid once
    through machine A, then asked `machine` to pay, which made that machine's key for them, pending: (name, uid, the
    pending key's kid, as `machine` lists it as its own; a uid freed by userdel may come back with rows)."""
    person = f"{prefix}{secrets.token_hex(3)}"
    world["throwaway"].user(person)
    uid = pwd.getpwnam(person).pw_uid
    assert client(world["daemons"]["A"], person, "setup") == {"ok": True}
    assert client(world["daemons"]["A"], person, "pay", world["password"], "first")["code"] == "SUCCESS"
    outcome = client(world["daemons"][machine], person, "pay", world["password"], f"{machine.lower()}-pending")
    assert outcome.get("error") == "KeyFileError", outcome
    listed = keys_tool(world, machine, "--keys", uid=uid)[1]["keys"]
    return person, uid, next(key["kid"] for key in listed if key["state"] == "pending" and key["here"])


def test_each_machine_signs_with_its_own_key_once_enrolled(machines):
    world, alice, password = machines, machines["alice"], machines["password"]
    a, b = world["daemons"]["A"], world["daemons"]["B"]
    before = ledger_rows(world, alice)
    # B has no key of Alice's: it registers one of its own, pending, and signs nothing with it.
    refused = client(b, alice, "pay", password, "b-before")
    assert refused.get("error") == "KeyFileError" and "not enrolled" in refused["message"], refused
    assert ledger_rows(world, alice) == before
    states = key_states(world)
    pending = [kid for kid, state in states.items() if state == "pending"]
    assert len(pending) == 1 and sorted(states.values()) == ["enrolled", "pending"], states
    assert os.path.exists(os.path.join(b.state, str(world["uid"]), "keys", pending[0] + ".pem"))
    # A, whose key signs for Alice, enrolls it: a key_added entry signed by A's key.
    status, enrolled = keys_tool(world, "A", "--enroll-key", pending[0])
    assert status == 0 and enrolled == {"enrolled": pending[0]}, enrolled
    paid_b = client(b, alice, "pay", password, "b-after")
    paid_a = client(a, alice, "pay", password, "a-after")
    assert paid_b["code"] == paid_a["code"] == "SUCCESS", (paid_a, paid_b)
    assert header_kid(paid_b["jws"]) == pending[0] and header_kid(paid_a["jws"]) != pending[0]
    # One chain; verify passes through either machine, from A's first key pinned, and names both keys.
    count, last, distinct, _, _ = ledger_rows(world, alice)
    assert count == last == distinct
    pin = root_key_pem(world)
    for machine in ("A", "B"):
        done = verified(world, machine, pin)
        assert done.returncode == 0, done.stdout + done.stderr
        report = json.loads(done.stdout)
        assert report["valid"] and report["records"] == count and pending[0] in report["keys"] and len(report["keys"]) == 2, report


def test_a_machine_rotates_its_own_key_and_the_others_go_on(machines):
    world, alice, password = machines, machines["alice"], machines["password"]
    a, b = world["daemons"]["A"], world["daemons"]["B"]
    keys_b = os.path.join(b.state, str(world["uid"]), "keys")
    old = next(kid for kid, state in key_states(world).items() if state == "enrolled" and os.path.exists(os.path.join(keys_b, kid + ".pem")))
    # Alice asks B to rotate (over the broker): B's key hands its place to a new one; A's is untouched.
    code = ("import sys, libtender as t\n"
            "with t.Engine('/nonexistent-home', broker=sys.argv[1]) as e: print(e.rotate_key())")
    done = as_user(alice, [sys.executable, "-c", code, b.socket])
    assert done.returncode == 0, done.stderr
    new = done.stdout.strip()
    states = key_states(world)
    assert states[old] == "retired" and states[new] == "enrolled" and not os.path.exists(os.path.join(keys_b, old + ".pem"))
    paid_b, paid_a = client(b, alice, "pay", password, "b-rotated"), client(a, alice, "pay", password, "a-beside-rotated")
    assert paid_b["code"] == paid_a["code"] == "SUCCESS" and header_kid(paid_b["jws"]) == new, (paid_a, paid_b)
    done = verified(world, "A", root_key_pem(world))
    assert done.returncode == 0 and new in json.loads(done.stdout)["keys"], done.stdout + done.stderr


def test_a_row_written_into_the_database_makes_no_key_that_verifies(machines):
    world, bob, password = machines, machines["bob"], "bob-Secret-2"
    uid = pwd.getpwnam(bob).pw_uid
    c = world["daemons"]["C"]
    # C registers a pending key for Bob; the daemons' shared role (a compromised machine) marks it enrolled by hand.
    assert client(c, bob, "pay", password, "c-pending").get("error") == "KeyFileError"
    pending = [kid for kid, state in key_states(world, uid).items() if state == "pending"]
    assert len(pending) == 1
    assert verified(world, "A", person=bob).returncode == 0
    sql(world, f"UPDATE tender.signing_keys SET active = 1 WHERE kid = '{pending[0]}'", uid)
    # C believes the row and signs; verify follows the chain, which never enrolled that key: refused.
    assert client(c, bob, "pay", password, "c-forged")["code"] == "SUCCESS"
    done = verified(world, "A", person=bob)
    assert done.returncode != 0 and f"signed by key {pending[0]}" in done.stdout + done.stderr, done.stdout + done.stderr


def test_a_pending_key_whose_row_was_changed_is_not_enrolled(machines):
    world, bob = machines, machines["bob"]
    uid = pwd.getpwnam(bob).pw_uid
    # A row naming one machine's key id with another public key (the database's writer swapping in its own): refused.
    attacker = subprocess.run(["openssl", "genpkey", "-algorithm", "ed25519", "-outform", "DER"], capture_output=True, check=True).stdout
    raw = subprocess.run(["openssl", "pkey", "-inform", "DER", "-pubout", "-outform", "DER"], input=attacker, capture_output=True,
                         check=True).stdout[-32:]
    sql(world, f"INSERT INTO tender.signing_keys (kid, public_key, created_at_ms, active) VALUES ('{'B' * 43}', '\\x{raw.hex()}', 0, 2)", uid)
    status, said = keys_tool(world, "A", "--enroll-key", "B" * 43, uid=uid)
    assert status == 1 and "not the key its id names" in said, said
    listed = keys_tool(world, "A", "--keys", uid=uid)[1]["keys"]
    assert [key["state"] for key in listed if key["kid"] == "B" * 43] == ["pending"]
    # The listing says which key this machine holds: the one to enroll is the one its own machine lists as here.
    assert sum(1 for key in listed if key["here"]) == 1


def test_a_revoked_key_set_back_to_pending_is_not_enrolled_again(machines):
    # Adversarial review: a revoked machine (or anyone with the daemons' role) sets its row back to pending; an
    # administrator enrolling the pending keys then signed a key_added entry for a key the ledger had revoked. The machine
    # signed again, and verify refused that entry, so the person's ledger failed verify from there on, for every machine.
    world, password = machines, machines["password"]
    a, c = world["daemons"]["A"], world["daemons"]["C"]
    carol, uid, c_key = person_with_a_pending_key(world, "tpkc", "C")
    assert keys_tool(world, "A", "--enroll-key", c_key, uid=uid)[0] == 0
    assert client(c, carol, "pay", password, "c-enrolled")["code"] == "SUCCESS"
    status, revoked = keys_tool(world, "A", "--revoke-key", c_key, uid=uid)
    assert status == 0 and revoked["revoked"] == [c_key], revoked
    before = ledger_rows(world, carol)
    sql(world, f"UPDATE tender.signing_keys SET active = 2 WHERE kid = '{c_key}'", uid)
    status, said = keys_tool(world, "A", "--enroll-key", c_key, uid=uid)
    assert status == 1 and "not enrolled again" in said, (status, said)
    assert ledger_rows(world, carol) == before
    assert client(c, carol, "pay", password, "c-again").get("error") == "KeyFileError"
    assert client(a, carol, "pay", password, "a-after")["code"] == "SUCCESS"
    done = verified(world, "A", person=carol)
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_revocation_racing_the_revoked_machines_payments_leaves_a_ledger_that_verifies(machines):
    # Adversarial review (held): machine B pays for Dave in a burst while A revokes B's key. Each payment's key check and
    # the revocation are serialized by Dave's lock: every record B signed lies before the key_revoked entry, B's payments
    # after it are refused, and the ledger verifies.
    import threading
    import time
    world, password = machines, machines["password"]
    b = world["daemons"]["B"]
    dave, uid, b_key = person_with_a_pending_key(world, "tpke", "B")
    status, said = keys_tool(world, "A", "--enroll-key", b_key, uid=uid)
    assert status == 0, said
    burst = threading.Thread(target=lambda: as_user(dave, [sys.executable, CLIENT, b.socket, "burst", password, "25", "race"]))
    burst.start()
    for _ in range(300):  # revoked once B's burst is paying
        if int(sql(world, "SELECT count(*) FROM tender.ledger WHERE idempotency_key LIKE 'race-%'", uid)) > 0:
            break
        time.sleep(0.1)
    status, revoked = keys_tool(world, "A", "--revoke-key", b_key, uid=uid)
    burst.join(timeout=120)
    assert status == 0 and revoked["revoked"] == [b_key], revoked
    revocation = int(sql(world, "SELECT max(sequence) FROM tender.ledger WHERE type = 'key_revoked'", uid))
    signed_by_b = [int(line.split("|")[0]) for line in sql(world, "SELECT sequence, jws FROM tender.ledger", uid).splitlines()
                   if header_kid(line.split("|", 1)[1]) == b_key]
    assert signed_by_b and max(signed_by_b) < revocation, (signed_by_b, revocation)
    print(f"B signed {len(signed_by_b)} of the burst's payments before its revocation at record {revocation}")
    assert client(b, dave, "pay", password, "b-after").get("error") == "KeyFileError"
    done = verified(world, "A", person=dave)
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_revoked_machine_signs_nothing_and_neither_do_keys_it_enrolled(machines):
    world, alice, password = machines, machines["alice"], machines["password"]
    a, b, c = world["daemons"]["A"], world["daemons"]["B"], world["daemons"]["C"]
    assert client(c, alice, "pay", password, "c-pending").get("error") == "KeyFileError"
    c_key = next(kid for kid, state in key_states(world).items() if state == "pending")
    # B (enrolled by A) enrolls C: B can add a key, as any machine whose key signs can (it could sign anything itself).
    status, enrolled = keys_tool(world, "B", "--enroll-key", c_key)
    assert status == 0, enrolled
    assert client(c, alice, "pay", password, "c-enrolled")["code"] == "SUCCESS"
    b_key = next(kid for kid, state in key_states(world).items()
                 if state == "enrolled" and os.path.exists(os.path.join(b.state, str(world["uid"]), "keys", kid + ".pem")))
    # B cannot revoke A, which enrolled it (one machine cannot lock the others out); A revokes B, and C, which B enrolled,
    # goes with it (no key outlives its enroller's revocation).
    a_key = next(kid for kid, state in key_states(world).items()
                 if state == "enrolled" and os.path.exists(os.path.join(a.state, str(world["uid"]), "keys", kid + ".pem")))
    status, said = keys_tool(world, "B", "--revoke-key", a_key)
    assert status == 1 and "first key" in said, said
    status, revoked = keys_tool(world, "A", "--revoke-key", b_key)
    assert status == 0 and sorted(revoked["revoked"]) == sorted([b_key, c_key]), revoked
    before = ledger_rows(world, alice)
    for machine, key in (("B", "b-revoked"), ("C", "c-revoked")):
        outcome = client(world["daemons"][machine], alice, "pay", password, key)
        assert outcome.get("error") == "KeyFileError" and "revoked" in outcome["message"], outcome
    assert ledger_rows(world, alice) == before
    # A still signs; the ledger verifies through every machine (reading needs no key; B and C cannot sign a checkpoint).
    assert client(a, alice, "pay", password, "a-after-revoke")["code"] == "SUCCESS"
    made = as_user(alice, [TENDER, "checkpoint", "--broker", b.socket])
    assert made.returncode != 0 and "revoked" in made.stderr, made.stderr
    for machine in ("A", "B", "C"):
        done = verified(world, machine, root_key_pem(world), signer="A")
        assert done.returncode == 0, done.stdout + done.stderr
    # B's role sets its row back to enrolled (the database is writable by every daemon): B signs, verify refuses it.
    sql(world, f"UPDATE tender.signing_keys SET active = 1 WHERE kid = '{b_key}'")
    assert client(b, alice, "pay", password, "b-unrevoked")["code"] == "SUCCESS"
    done = verified(world, "A")
    assert done.returncode != 0 and "revoked before it" in done.stdout + done.stderr, done.stdout + done.stderr


def test_a_key_removed_from_the_database_signs_no_more(machines):
    world, alice, password = machines, machines["alice"], machines["password"]
    a = world["daemons"]["A"]
    keys = os.path.join(a.state, str(world["uid"]), "keys")
    a_keys = [kid for kid, state in key_states(world).items() if state == "enrolled" and os.path.exists(os.path.join(keys, kid + ".pem"))]
    assert len(a_keys) == 1
    assert client(a, alice, "pay", password, "a-before-removal")["code"] == "SUCCESS"
    # Removed by hand (the database's administrator, or any machine's role): A's next signature is refused.
    sql(world, f"DELETE FROM tender.signing_keys WHERE kid = '{a_keys[0]}'")
    outcome = client(a, alice, "pay", password, "a-removed")
    assert outcome.get("error") == "KeyFileError" and "removed" in outcome["message"], outcome
    # Restarted, A holds a key file the store no longer records: the person's store is refused there altogether.
    a.kill(signal.SIGTERM)
    a.start()
    outcome = client(a, alice, "pay", password, "a-removed-restarted")
    assert outcome.get("error") == "HomeError" and "never recorded" in outcome["message"], outcome


def test_enrolling_and_revoking_are_refused_where_they_make_no_sense(machines):
    world = machines
    # A machine cannot enroll a key nobody registered, nor revoke one the store does not record.
    status, said = keys_tool(world, "B", "--enroll-key", "A" * 43)
    assert status == 1 and "notFound" in said, said
    status, said = keys_tool(world, "B", "--revoke-key", "A" * 43)
    assert status == 1 and "notFound" in said, said
    done = run_as(world["names"]["d"], [TENDERD, "--state", world["daemons"]["B"].state, "--store", world["cluster"].uri(), "--keys"])
    assert done.returncode == 2 and "--uid" in done.stderr, done.stderr


def checkpoint_through(world, machine, person, name):
    """`tender checkpoint --broker` through `machine` as `person`, kept in BASE/NAME (readable by all): (exit status, path)."""
    made = as_user(person, [TENDER, "checkpoint", "--broker", world["daemons"][machine].socket])
    path = os.path.join(world["base"], name)
    with open(path, "w") as f:
        f.write(made.stdout)
    os.chmod(path, 0o644)
    return made.returncode, path


def test_the_first_key_is_revoked_by_no_machine_and_a_revoked_keys_later_checkpoint_is_refused(machines):
    # noticed.md: (1) the first key of a person could not be revoked, and the refusal said "did not enroll" (or, from its
    # own machine, "revoke it from another machine", which no machine may do). It stays so (docs/scale.md, "Keys and
    # trust"), and says why. (2) A checkpoint signed by a since-revoked key was accepted whatever length it covered: a
    # revoked machine (its row set back by the daemons' role, or its key file alone) vouched for the ledger after its
    # revocation. Its checkpoints from before the revocation still verify.
    world, password = machines, machines["password"]
    a, b = world["daemons"]["A"], world["daemons"]["B"]
    erin, uid, b_key = person_with_a_pending_key(world, "tpkf", "B")
    a_key = next(key["kid"] for key in keys_tool(world, "A", "--keys", uid=uid)[1]["keys"] if key["state"] == "enrolled" and key["here"])
    assert keys_tool(world, "A", "--enroll-key", b_key, uid=uid)[0] == 0
    assert client(b, erin, "pay", password, "b-enrolled")["code"] == "SUCCESS"
    before = ledger_rows(world, erin)
    for machine in ("B", "A"):
        status, said = keys_tool(world, machine, "--revoke-key", a_key, uid=uid)
        assert status == 1 and "first key" in said and "Keys and trust" in said, (machine, status, said)
    assert ledger_rows(world, erin) == before
    status, early = checkpoint_through(world, "B", erin, "checkpoint-erin-early")
    assert status == 0
    status, revoked = keys_tool(world, "A", "--revoke-key", b_key, uid=uid)
    assert status == 0 and revoked["revoked"] == [b_key], revoked
    assert client(a, erin, "pay", password, "a-after")["code"] == "SUCCESS"
    # B's row set back to enrolled: B signs a checkpoint of the ledger as it is now (no record), then the row is put back.
    sql(world, f"UPDATE tender.signing_keys SET active = 1 WHERE kid = '{b_key}'", uid)
    status, late = checkpoint_through(world, "B", erin, "checkpoint-erin-late")
    sql(world, f"UPDATE tender.signing_keys SET active = 3 WHERE kid = '{b_key}'", uid)
    assert status == 0
    done = as_user(erin, [TENDER, "verify", "--broker", a.socket, "--checkpoint", late, "--json"])
    assert done.returncode != 0 and "did not sign when the ledger held" in done.stdout + done.stderr, done.stdout + done.stderr
    done = as_user(erin, [TENDER, "verify", "--broker", a.socket, "--checkpoint", early, "--json"])
    assert done.returncode == 0, done.stdout + done.stderr



def test_a_checkpoint_names_the_first_key_so_records_signed_again_by_another_do_not_meet_it(machines):
    # Adversarial review (advmends): the chain's hashes cover the records' payloads, not who signed them, and verify's
    # root of trust without a pinned key is the store's first signing_keys row, which the daemons' shared role writes. That
    # role (holding no key of the person) recorded a key of its own first and signed the first key's records again with it
    # (the same payloads, so the same hashes): verify --broker passed against a checkpoint the person took through machine
    # B (signed by B's key, which the payloads name), and the role's key signed on from there. A checkpoint now names the
    # key that signed the first record (firstKid), and verify refuses a ledger whose first record another key signed.
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
    import hashlib

    def b64(data):
        return base64.urlsafe_b64encode(data).rstrip(b"=").decode()

    world, password = machines, machines["password"]
    a, b = world["daemons"]["A"], world["daemons"]["B"]
    fay, uid, b_key = person_with_a_pending_key(world, "tpkr", "B")
    a_key = next(key["kid"] for key in keys_tool(world, "A", "--keys", uid=uid)[1]["keys"] if key["state"] == "enrolled" and key["here"])
    assert keys_tool(world, "A", "--enroll-key", b_key, uid=uid)[0] == 0
    assert client(b, fay, "pay", password, "b-enrolled")["code"] == "SUCCESS"
    status, kept = checkpoint_through(world, "B", fay, "checkpoint-fay")
    assert status == 0
    done = as_user(fay, [TENDER, "verify", "--broker", b.socket, "--checkpoint", kept, "--json"])
    assert done.returncode == 0, done.stdout + done.stderr
    # The role's own key, recorded before every other, and the first key's records signed again with it.
    forged = Ed25519PrivateKey.generate()
    raw = forged.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    kid = b64(hashlib.sha256(('{"crv":"Ed25519","kty":"OKP","x":"%s"}' % b64(raw)).encode()).digest())
    sql(world, "INSERT INTO tender.signing_keys (rowid, kid, public_key, created_at_ms, active) OVERRIDING SYSTEM VALUE "
               f"VALUES (0, '{kid}', '\\x{raw.hex()}'::bytea, 0, 0)", uid)
    resigned = 0
    for line in sql(world, "SELECT sequence, jws FROM tender.ledger ORDER BY sequence", uid).splitlines():
        sequence, jws = line.split("|", 1)
        if header_kid(jws) != a_key:
            continue
        header = b64(json.dumps({"alg": "Ed25519", "kid": kid}, separators=(",", ":")).encode())
        payload = jws.split(".")[1]
        signature = b64(forged.sign(f"{header}.{payload}".encode()))
        sql(world, f"UPDATE tender.ledger SET jws = '{header}.{payload}.{signature}' WHERE sequence = {sequence}", uid)
        resigned += 1
    assert resigned >= 2  # the first records and the enrollment of B's key
    done = as_user(fay, [TENDER, "verify", "--broker", b.socket, "--checkpoint", kept, "--json"])
    assert done.returncode != 0 and "first key the checkpoint names" in done.stdout + done.stderr, done.stdout + done.stderr
    # A checkpoint in the earlier format (no firstKid), signed by B's key, is still met: what the attack did before
    # (docs/scale.md: take a new checkpoint, or pin the first key).
    from cryptography.hazmat.primitives.serialization import load_pem_private_key
    with open(kept) as f:
        signed = json.loads(base64.urlsafe_b64decode(f.read().strip().split(".")[1] + "=="))
    assert signed["firstKid"] == a_key, signed
    with open(os.path.join(b.state, str(uid), "keys", b_key + ".pem"), "rb") as f:
        b_private = load_pem_private_key(f.read(), None)
    header = b64(json.dumps({"alg": "Ed25519", "kid": b_key}, separators=(",", ":")).encode())
    payload = b64(json.dumps({key: signed[key] for key in ("type", "count", "headHash", "createdAt")}, separators=(",", ":")).encode())
    old = os.path.join(world["base"], "checkpoint-fay-old")
    with open(old, "w") as f:
        f.write(f"{header}.{payload}.{b64(b_private.sign(f'{header}.{payload}'.encode()))}\n")
    os.chmod(old, 0o644)
    done = as_user(fay, [TENDER, "verify", "--broker", b.socket, "--checkpoint", old, "--json"])
    assert done.returncode == 0 and json.loads(done.stdout)["keys"][0] == kid, done.stdout + done.stderr
    # The first key pinned catches it too.
    done = as_user(fay, [TENDER, "verify", "--broker", b.socket, "--public-key", root_key_pem_of(world, uid, a_key)])
    assert done.returncode != 0, done.stdout + done.stderr
    # Held (advmends): every key row removed, the ledger kept: no machine makes a new first key, nothing is written; the
    # ledger removed as well, a checkpoint kept elsewhere refuses it.
    sql(world, "DELETE FROM tender.signing_keys", uid)
    before = ledger_rows(world, fay)
    refused = client(a, fay, "pay", password, "after-keys-removed")
    assert refused.get("code") != "SUCCESS" and "error" in refused, refused
    assert ledger_rows(world, fay) == before
    sql(world, "DELETE FROM tender.ledger", uid)
    done = as_user(fay, [TENDER, "verify", "--broker", b.socket, "--checkpoint", kept, "--json"])
    assert done.returncode != 0, done.stdout + done.stderr
