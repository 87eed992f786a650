# SPDX-License-Identifier: Apache-2.0
"""The whole process under pam_wrapper: examples/send_payment.py with the
default authentication policy, i.e. the real PAM calls (pam_start, not
pam_start_confdir) on the service "tender".

pam_wrapper (LD_PRELOAD=libpam_wrapper.so, PAM_WRAPPER=1) points Linux-PAM
at PAM_WRAPPER_SERVICE_DIR instead of /etc/pam.d; there the service file
"tender" loads pam_matrix with a password file of its own. The interpreter
itself runs preloaded, which is fine. Nothing in /etc/pam.d is read or
changed.
"""

import json
import os
import pwd
import shutil
import subprocess
import sys

import pytest

import libtender as tender

CLI = os.environ.get("TENDER_CLI") or os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "build", "bin", "tender")

WRAPPER = "/usr/lib/x86_64-linux-gnu/libpam_wrapper.so"
PAM_MATRIX = "/usr/lib/x86_64-linux-gnu/pam_wrapper/pam_matrix.so"
EXAMPLE = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                       "examples", "send_payment.py")
PASSWORD = "example-Secret-42"
USER = pwd.getpwuid(os.geteuid()).pw_name

pytestmark = [
    pytest.mark.skipif(not os.path.exists(WRAPPER),
                       reason=f"{WRAPPER} is missing: install libpam-wrapper (apt-get install libpam-wrapper)"),
    pytest.mark.skipif(not os.path.exists(PAM_MATRIX),
                       reason=f"{PAM_MATRIX} is missing: install libpam-wrapper (apt-get install libpam-wrapper)"),
]


@pytest.fixture
def services(tmp_path):
    """PAM_WRAPPER_SERVICE_DIR: the service "tender" on pam_matrix."""
    directory = tmp_path / "pam-services"
    directory.mkdir()
    passdb = tmp_path / "passdb"
    passdb.write_text(f"{USER}:{PASSWORD}:tender\n")
    (directory / "tender").write_text(
        f"auth required {PAM_MATRIX} passdb={passdb}\n"
        f"account required {PAM_MATRIX} passdb={passdb}\n")
    # Linux-PAM also reads "other", the default for every group a service leaves
    # out (else it logs "no default config other"): deny everything.
    (directory / "other").write_text("".join(f"{group} required pam_deny.so\n"
                                             for group in ("auth", "account", "password", "session")))
    return directory


def run_example(home, services=None, password=None, preload=WRAPPER):
    env = {k: v for k, v in os.environ.items()
           if k not in ("LD_PRELOAD", "PAM_WRAPPER", "PAM_WRAPPER_SERVICE_DIR", "TENDER_EXAMPLE_PASSWORD")}
    # the binding under test and the library it loaded
    env["PYTHONPATH"] = os.path.dirname(os.path.dirname(os.path.abspath(tender.__file__)))
    if os.path.sep in tender.library_path:
        env["TENDER_LIBRARY"] = tender.library_path
    if services is not None:
        env.update(LD_PRELOAD=os.fspath(preload), PAM_WRAPPER="1", PAM_WRAPPER_SERVICE_DIR=os.fspath(services))
    if password is not None:
        env["TENDER_EXAMPLE_PASSWORD"] = password
    return subprocess.run([sys.executable, EXAMPLE, os.fspath(home)], env=env, capture_output=True,
                          text=True, timeout=120)


def permit_stack(tmp_path):
    """A PAM service directory whose `tender` service permits any password (and `other` denies all)."""
    permit = tmp_path / "permit"
    permit.mkdir()
    (permit / "tender").write_text("auth required pam_permit.so\naccount required pam_permit.so\n")
    (permit / "other").write_text("".join(f"{group} required pam_deny.so\n" for group in ("auth", "account", "password", "session")))
    return permit


def assert_paid_in_testing_mode(proc, home, verify=False):
    """The example paid with a wrong password, and the audit (and, with `verify`, `tender verify`) says testing mode."""
    assert proc.returncode == 0 and "handle: SUCCESS" in proc.stdout, proc.stdout + proc.stderr
    with tender.Engine(home, authentication={"restrictedIntents": []}) as engine:
        [entry] = engine.audit()
        assert entry["event"] == "authenticated" and entry["detail"].startswith("testing mode (PAM service tender): "), entry
    if verify:
        env = {k: v for k, v in os.environ.items() if k not in ("LD_PRELOAD", "PAM_WRAPPER", "PAM_WRAPPER_SERVICE_DIR")}
        verified = subprocess.run([CLI, "verify", "--home", os.fspath(home)], env=env, capture_output=True, text=True, timeout=120)
        assert verified.returncode == 0, verified.stdout + verified.stderr
        assert "TESTING MODE: 1 audit entry" in verified.stdout, verified.stdout


def test_the_right_password_pays(tmp_path, services):
    home = tmp_path / "home"
    proc = run_example(home, services, PASSWORD)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "PWRAP_ERROR" not in proc.stderr, proc.stderr  # no noise: the service directory is complete
    out = proc.stdout
    assert 'authentication: the default policy (PAM service "tender")' in out
    assert "(answered from $TENDER_EXAMPLE_PASSWORD)" in out  # PAM asked through the conversation
    assert "handle: SUCCESS (success)" in out
    assert '"status": "completed"' in out and "jws: " in out
    # pam_wrapper picked the stack, not the configuration: the engine ran in testing mode and says so.
    assert "audit: authenticated send_payment (testing mode (PAM service tender): restrictedIntent: PAM service tender)" in out
    assert PASSWORD not in out + proc.stderr
    with tender.Engine(home, authentication={"restrictedIntents": []}) as engine:
        [record] = engine.payments()
        assert record["payee"]["id"] == "john-baily" and record["currencyAmount"]["amount"] == "50.00"
        assert [e["event"] for e in engine.audit()] == ["authenticated"]


def test_a_wrong_password_is_denied(tmp_path, services):
    home = tmp_path / "home"
    wrong = "not-the-password"
    proc = run_example(home, services, wrong)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    out = proc.stdout
    assert "handle: FAILURE_CREDENTIALS_UNVERIFIED (failureCredentialsUnverified)" in out
    assert "not authenticated: wrongCredentials: " in out
    assert '"status": "completed"' not in out
    assert wrong not in out + proc.stderr and PASSWORD not in out + proc.stderr
    with tender.Engine(home, authentication={"restrictedIntents": []}) as engine:
        assert engine.payments() == []
        [entry] = engine.audit()
        assert entry["event"] == "denied" and entry["detail"].startswith("testing mode (PAM service tender): wrongCredentials: ")
        assert engine.directory()["accounts"][0]["balance"]["amount"] == "1000.00"


def test_without_a_password_the_example_asks_nothing(tmp_path, services):
    # under pam_wrapper too: it falls back to restrictedIntents []
    proc = run_example(tmp_path / "home", services)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "authentication: off (restrictedIntents [])" in proc.stdout
    assert "tender asks" not in proc.stdout
    # every payment is audited, saying why it did not ask
    assert "audit: notRequired send_payment (testing mode (PAM service tender): policy unrestricted: no rule restricts this payment)" in proc.stdout


def test_the_service_file_is_looked_up_in_the_wrapper_directory(tmp_path, services):
    (services / "tender").unlink()
    proc = run_example(tmp_path / "home", services, PASSWORD)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "TENDER_E_AUTH_SERVICE" in proc.stderr and os.fspath(services) in proc.stderr


def test_a_preloaded_pam_wrapper_puts_the_engine_in_testing_mode(tmp_path):
    """Issue 30.4: pam_wrapper preloaded with a pam_permit stack makes a wrong password pay. Tender cannot
    stop what a preloaded library does to PAM, but the engine must not pass it off as the system's login:
    it runs in testing mode, its audit entries say so and `tender verify` reports them."""
    permit = permit_stack(tmp_path)
    home = tmp_path / "home"
    proc = run_example(home, permit, "not-the-password")
    assert_paid_in_testing_mode(proc, home, verify=True)


LOADED_CHILD = r'''
import ctypes, json, os, sys
how = sys.argv[2]
if how == "dlopen-after-an-engine":
    import libtender as tender
    with tender.Engine(sys.argv[1] + "-before", authentication={"restrictedIntents": []}):
        pass                                             # an answer kept from before the load (no wrapper) must not stay
    ctypes.CDLL(sys.argv[3], mode=ctypes.RTLD_GLOBAL)
elif how == "dlopen":
    ctypes.CDLL(sys.argv[3], mode=ctypes.RTLD_GLOBAL)   # loaded, never preloaded
else:
    os.environ.pop("LD_PRELOAD")                         # preloaded, then hidden from the environment
import libtender as tender
directory = json.loads(sys.argv[4])
with tender.Engine(sys.argv[1], authentication={"restrictedIntents": []}) as engine:
    engine.import_directory(directory)
    doc = {"intent": "send_payment", "payee": {"id": "tim-cook"},
           "currencyAmount": {"amount": "1.00", "currency": "USD"}, "idempotencyKey": "hidden-wrapper"}
    with engine.session(doc) as session:
        assert session.resolve()["complete"]
        session.confirm()
        session.agree(True)
        code, _ = session.handle()
        print(code.name)
'''


@pytest.mark.parametrize("how", ["dlopen", "preload-hidden", "dlopen-after-an-engine"])
def test_a_pam_wrapper_the_environment_does_not_name_still_means_testing_mode(tmp_path, how, directory_doc):
    """Issue 34: the engine open finds pam_wrapper in the dynamic loader's list (dl_iterate_phdr) instead of
    /proc/self/maps; a copy loaded with dlopen, or preloaded and then dropped from LD_PRELOAD before the
    engine opens, must still put the engine in testing mode (a signed mark that `tender verify` reports).
    Loaded after an engine opened without it, whose answer the loader's counts keep, too."""
    home = tmp_path / "home"
    env = {k: v for k, v in os.environ.items() if k not in ("LD_PRELOAD", "PAM_WRAPPER", "PAM_WRAPPER_SERVICE_DIR")}
    env["PYTHONPATH"] = os.path.dirname(os.path.dirname(os.path.abspath(tender.__file__)))
    if os.path.sep in tender.library_path:
        env["TENDER_LIBRARY"] = tender.library_path
    if how == "preload-hidden":
        env["LD_PRELOAD"] = WRAPPER
    proc = subprocess.run([sys.executable, "-c", LOADED_CHILD, os.fspath(home), how, WRAPPER, json.dumps(directory_doc)],
                          env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and "SUCCESS" in proc.stdout, proc.stdout + proc.stderr
    clean = {k: v for k, v in env.items() if k != "LD_PRELOAD"}
    verified = subprocess.run([CLI, "verify", "--home", os.fspath(home)], env=clean, capture_output=True, text=True, timeout=120)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "TESTING MODE" in verified.stdout, verified.stdout


def test_an_engine_without_pam_wrapper_is_not_in_testing_mode(tmp_path, directory_doc):
    """The loader's list holds no pam_wrapper in a plain process: no testing mark (the check can say no)."""
    home = tmp_path / "home"
    with tender.Engine(home, authentication={"restrictedIntents": []}) as engine:
        engine.import_directory(directory_doc)
        doc = {"intent": "send_payment", "payee": {"id": "tim-cook"},
               "currencyAmount": {"amount": "1.00", "currency": "USD"}, "idempotencyKey": "no-wrapper"}
        with engine.session(doc) as session:
            assert session.resolve()["complete"]
            session.confirm()
            session.agree(True)
            code, _ = session.handle()
            assert code.name == "SUCCESS"
    verified = subprocess.run([CLI, "verify", "--home", os.fspath(home)], capture_output=True, text=True, timeout=120)
    assert verified.returncode == 0 and "TESTING MODE" not in verified.stdout, verified.stdout


YES = r"""
int pam_authenticate(void *handle, int flags) { (void)handle; (void)flags; return 0; }
int pam_acct_mgmt(void *handle, int flags) { (void)handle; (void)flags; return 0; }
"""


@pytest.mark.parametrize("how", ["renamed", "interposer"])
def test_a_preload_answering_for_pam_under_another_name_still_means_testing_mode(tmp_path, how):
    """Adversary: pam_wrapper was recognised by its file name only (libpam_wrapper*), so the same library copied
    under another name, or any preload defining pam_authenticate, made a wrong password pay with no testing mark.
    The engine now looks where the PAM functions it calls are bound (dladdr): outside libpam.so, testing mode.
    (The file names keep "pam_wrapper" only so that Tender looks for the service file in the test's directory;
    with /etc/pam.d/tender installed any name does.)"""
    permit = permit_stack(tmp_path)
    if how == "renamed":
        preload = tmp_path / "renamed_pam_wrapper.so"
        shutil.copy(WRAPPER, preload)
    else:
        compiler = shutil.which("cc")
        if compiler is None:
            pytest.skip("no C compiler (cc) to build the interposer")
        source = tmp_path / "yes.c"
        source.write_text(YES)
        preload = tmp_path / "yes_pam_wrapper.so"
        subprocess.run([compiler, "-shared", "-fPIC", "-o", os.fspath(preload), os.fspath(source)], check=True)
    home = tmp_path / "home"
    proc = run_example(home, permit, "not-the-password", preload=preload)
    assert_paid_in_testing_mode(proc, home, verify=True)


FAKE_LIBPAM = r"""
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
static void *real(const char *name) {
    static void *pam;
    if (!pam) pam = dlopen(REAL_LIBPAM, RTLD_NOW | RTLD_LOCAL);
    if (!pam) abort();
    return dlsym(pam, name);
}
typedef int (*start_t)(const char *, const char *, const void *, void **);
typedef int (*start_confdir_t)(const char *, const char *, const void *, const char *, void **);
typedef int (*handle_int_t)(void *, int);
typedef int (*get_item_t)(void *, int, const void **);
typedef const char *(*strerror_t)(void *, int);
int pam_start(const char *s, const char *u, const void *c, void **h) { return ((start_t)real("pam_start"))(s, u, c, h); }
int pam_start_confdir(const char *s, const char *u, const void *c, const char *d, void **h) {
    return ((start_confdir_t)real("pam_start_confdir"))(s, u, c, d, h);
}
int pam_end(void *h, int r) { return ((handle_int_t)real("pam_end"))(h, r); }
int pam_get_item(void *h, int i, const void **v) { return ((get_item_t)real("pam_get_item"))(h, i, v); }
const char *pam_strerror(void *h, int r) { return ((strerror_t)real("pam_strerror"))(h, r); }
int pam_authenticate(void *h, int f) { (void)h; (void)f; return 0; }
int pam_acct_mgmt(void *h, int f) { (void)h; (void)f; return 0; }
"""


AUDITOR = r"""
#define _GNU_SOURCE
#include <link.h>
#include <string.h>
unsigned int la_version(unsigned int version) { (void)version; return LAV_CURRENT; }
char *la_objsearch(const char *name, uintptr_t *cookie, unsigned int flag) {
    (void)cookie; (void)flag;
    return strstr(name, "/pam_deny.so") ? (char *)PERMIT : (char *)name;
}
"""


@pytest.mark.parametrize("how", ["ld_library_path", "ld_audit"])
def test_a_libpam_of_ones_own_or_an_auditor_means_testing_mode(tmp_path, how):
    """Adversary: the system's stack (/etc/pam.d/tender, here pam_deny for everyone) is bypassed without pam_wrapper:
    - a libpam.so.0 of one's own found through LD_LIBRARY_PATH answers yes to every password; its file is named as
      Linux-PAM's, so only where it lies tells it apart (outside the system's library directories: testing mode);
    - an LD_AUDIT library has the loader load pam_permit.so where libpam asks for pam_deny.so; an auditor lives in
      a link-map namespace of its own, which the engine open now counts (testing mode).
    Both made a wrong password pay with no testing mark. Root only: /etc/pam.d is replaced in a mount namespace."""
    compiler, unshare = shutil.which("cc"), shutil.which("unshare")
    real = os.path.realpath(os.path.join(os.path.dirname(WRAPPER), "libpam.so.0"))
    permit = os.path.join(os.path.dirname(WRAPPER), "security", "pam_permit.so")
    if os.geteuid() != 0 or compiler is None or unshare is None or not os.path.exists(real) or not os.path.exists(permit):
        pytest.skip("needs root, cc, unshare, the system's libpam.so.0 and pam_permit.so")
    extra = {}
    if how == "ld_library_path":
        fake = tmp_path / "fake"
        fake.mkdir()
        source = tmp_path / "fake_libpam.c"
        source.write_text(FAKE_LIBPAM)
        script = tmp_path / "versions.map"
        script.write_text("LIBPAM_1.0 { global: *; };\nLIBPAM_1.4 { global: pam_start_confdir; } LIBPAM_1.0;\n")
        subprocess.run([compiler, "-shared", "-fPIC", f'-DREAL_LIBPAM="{real}"', "-Wl,-soname,libpam.so.0",
                        f"-Wl,--version-script={script}", "-o", os.fspath(fake / "libpam.so.0"), os.fspath(source), "-ldl"],
                       check=True)
        extra["LD_LIBRARY_PATH"] = os.fspath(fake)
    else:
        source = tmp_path / "auditor.c"
        source.write_text(AUDITOR)
        auditor = tmp_path / "auditor.so"
        subprocess.run([compiler, "-shared", "-fPIC", f'-DPERMIT="{permit}"', "-o", os.fspath(auditor), os.fspath(source)],
                       check=True)
        extra["LD_AUDIT"] = os.fspath(auditor)
    pamd = tmp_path / "pam.d"
    pamd.mkdir()
    for name in ("tender", "other"):
        (pamd / name).write_text("auth required pam_deny.so\naccount required pam_deny.so\n")
    home = tmp_path / "home"
    env = {k: v for k, v in os.environ.items()
           if k not in ("LD_PRELOAD", "PAM_WRAPPER", "PAM_WRAPPER_SERVICE_DIR", "LD_LIBRARY_PATH", "LD_AUDIT")}
    env["PYTHONPATH"] = os.path.dirname(os.path.dirname(os.path.abspath(tender.__file__)))
    if os.path.sep in tender.library_path:
        env["TENDER_LIBRARY"] = tender.library_path
    env["TENDER_EXAMPLE_PASSWORD"] = "not-the-password"
    env["PAMD"] = os.fspath(pamd)
    # The loader variable is set only for the example, not for unshare or the shell.
    name, value = next(iter(extra.items()))
    env["LOADER_SETTING"] = f"{name}={value}"
    proc = subprocess.run([unshare, "-m", "sh", "-c", 'mount --bind "$PAMD" /etc/pam.d && exec env "$LOADER_SETTING" "$0" "$@"',
                           sys.executable, EXAMPLE, os.fspath(home)], env=env, capture_output=True, text=True, timeout=120)
    if proc.returncode != 0 and "handle:" not in proc.stdout and "mount" in proc.stderr:
        pytest.skip("cannot bind-mount in a mount namespace here: " + proc.stderr)
    assert_paid_in_testing_mode(proc, home)
