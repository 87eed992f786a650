# SPDX-License-Identifier: Apache-2.0
"""The README's snippets run as written: every fenced C and Python block of
README.md and docs/c-api.md (where the README's longer host moved) is
extracted and run, as libgit2 tests its examples.

Every ```c block is a whole program: it is built with pkg-config against a
copy installed into a temporary prefix (make install, which copies build/
without rebuilding), plus the rpath the README says a non-standard prefix
needs, with -std=c99 -pedantic -Wall -Wextra -Werror, and run. Every
```python block is run with the binding under test. Each runs with a fresh
home as its argument, under pam_wrapper with the service "tender" on
pam_matrix, the password on standard input, and must pay."""
import os
import pwd
import re
import subprocess
import sys

import pytest

import libtender as tender

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
README = os.path.join(REPO, "README.md")
#: The pages whose C and Python blocks are whole programs that must pay.
DOCUMENTS = [README, os.path.join(REPO, "docs", "c-api.md")]
WRAPPER = "/usr/lib/x86_64-linux-gnu/libpam_wrapper.so"
PAM_MATRIX = "/usr/lib/x86_64-linux-gnu/pam_wrapper/pam_matrix.so"
PASSWORD = "readme-Secret-7"
USER = pwd.getpwuid(os.geteuid()).pw_name

pytestmark = [
    pytest.mark.skipif(not os.path.exists(WRAPPER) or not os.path.exists(PAM_MATRIX),
                       reason="libpam-wrapper is missing (apt-get install libpam-wrapper)"),
    pytest.mark.skipif(not os.path.exists(os.path.join(REPO, "build", "bin", "tender")),
                       reason="build/ is not built (make build)"),
]


def blocks(language):
    found = []
    for document in DOCUMENTS:
        with open(document, encoding="utf-8") as f:
            found += re.findall(r"^```" + language + r"\n(.*?)^```$", f.read(), flags=re.S | re.M)
    return found


def readme_blocks(language):
    with open(README, encoding="utf-8") as f:
        return re.findall(r"^```" + language + r"\n(.*?)^```$", f.read(), flags=re.S | re.M)


def test_the_readme_has_c_and_python_blocks():
    assert len(readme_blocks("c")) == 1 and len(readme_blocks("python")) == 1
    assert len(blocks("c")) >= 2
    # no other spelling of the languages escapes the test
    for document in DOCUMENTS:
        with open(document, encoding="utf-8") as f:
            fences = set(re.findall(r"^```(\S+)$", f.read(), flags=re.M))
        assert fences <= {"c", "python", "sh"}, (document, fences)


@pytest.fixture
def pam_env(tmp_path):
    """pam_wrapper with the service "tender" on pam_matrix (and a deny-all "other")."""
    services = tmp_path / "pam-services"
    services.mkdir()
    passdb = tmp_path / "passdb"
    passdb.write_text(f"{USER}:{PASSWORD}:tender\n")
    (services / "tender").write_text(f"auth required {PAM_MATRIX} passdb={passdb}\n"
                                     f"account required {PAM_MATRIX} passdb={passdb}\n")
    (services / "other").write_text("".join(f"{g} required pam_deny.so\n" for g in ("auth", "account", "password", "session")))
    env = dict(os.environ)
    env.update(LD_PRELOAD=WRAPPER, PAM_WRAPPER="1", PAM_WRAPPER_SERVICE_DIR=os.fspath(services))
    return env


def run(args, env):
    # A new session has no controlling terminal: getpass reads standard input.
    return subprocess.run(args, input=PASSWORD + "\n", env=env, capture_output=True, text=True, timeout=120,
                          start_new_session=True)


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """A copy installed into a temporary prefix; pkg-config's flags for it."""
    prefix = tmp_path_factory.mktemp("readme-prefix")
    done = subprocess.run(["make", "-s", "--no-print-directory", "-C", REPO, "install", f"PREFIX={prefix}", f"PAMDIR={prefix}/etc/pam.d"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    env = dict(os.environ, PKG_CONFIG_PATH=os.path.join(prefix, "lib", "pkgconfig"))
    env.pop("LD_LIBRARY_PATH", None)

    def pkg_config(*args):
        return subprocess.run(["pkg-config", *args, "tender"], env=env, capture_output=True, text=True,
                              check=True).stdout.split()
    return pkg_config("--cflags", "--libs"), pkg_config("--variable=libdir")[0]


@pytest.mark.parametrize("index", range(len(blocks("c"))))
def test_c_block_builds_and_pays(index, tmp_path, installed, pam_env):
    flags, libdir = installed
    source = tmp_path / f"readme_{index}.c"
    source.write_text(blocks("c")[index])
    program = tmp_path / f"readme_{index}"
    built = subprocess.run(["cc", "-std=c99", "-pedantic", "-Wall", "-Wextra", "-Werror", os.fspath(source), *flags,
                            f"-Wl,-rpath,{libdir}", "-o", os.fspath(program)], capture_output=True, text=True)
    assert built.returncode == 0, built.stderr
    env = {k: v for k, v in pam_env.items() if k not in ("LD_LIBRARY_PATH", "TENDER_LIBRARY")}
    done = run([os.fspath(program), os.fspath(tmp_path / "home")], env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "handle: success" in done.stdout
    assert "Send $50 to John Baily from Checking? There is no fee." in done.stdout
    assert PASSWORD not in done.stdout + done.stderr
    assert "PWRAP_ERROR" not in done.stderr, done.stderr


@pytest.mark.parametrize("language,index", [("c", i) for i in range(len(blocks("c")))] +
                         [("python", i) for i in range(len(blocks("python")))])
def test_block_pays_on_the_demo_stack_without_a_login_password(language, index, tmp_path, installed):
    """Each host's second argument (issue 33.4): a demo home's PAM stack in testing mode, no pam_wrapper
    and no /etc/pam.d/tender needed: it pays for an account without a password (a locked root)."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("LD_LIBRARY_PATH", "TENDER_LIBRARY", "LD_PRELOAD", "PAM_WRAPPER", "PAM_WRAPPER_SERVICE_DIR")}
    if language == "c":
        flags, libdir = installed
        source = tmp_path / "host.c"
        source.write_text(blocks("c")[index])
        program = tmp_path / "host"
        built = subprocess.run(["cc", "-std=c99", "-pedantic", "-Wall", "-Wextra", "-Werror", os.fspath(source), *flags,
                                f"-Wl,-rpath,{libdir}", "-o", os.fspath(program)], capture_output=True, text=True)
        assert built.returncode == 0, built.stderr
        command = [os.fspath(program)]
    else:
        script = tmp_path / "host.py"
        script.write_text(blocks("python")[index])
        env["PYTHONPATH"] = os.path.dirname(os.path.dirname(os.path.abspath(tender.__file__)))
        if os.path.sep in tender.library_path:
            env["TENDER_LIBRARY"] = tender.library_path
        command = [sys.executable, os.fspath(script)]
    demo_home = tmp_path / "demo"
    made = subprocess.run([os.path.join(REPO, "build", "bin", "tender"), "demo", "--home", os.fspath(demo_home)],
                          capture_output=True, text=True, timeout=300)
    assert made.returncode == 0, made.stdout + made.stderr
    done = subprocess.run(command + [os.fspath(tmp_path / "home"), os.fspath(demo_home)], input="demo-password\n",
                          env=env, capture_output=True, text=True, timeout=120, start_new_session=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "success" in done.stdout.lower() and "Send $50 to John Baily from Checking? There is no fee." in done.stdout
    wrong = subprocess.run(command + [os.fspath(tmp_path / "home-2"), os.fspath(demo_home)], input="not-it\n",
                           env=env, capture_output=True, text=True, timeout=120, start_new_session=True)
    assert "failurecredentialsunverified" in wrong.stdout.lower().replace("_", ""), wrong.stdout + wrong.stderr


@pytest.mark.parametrize("index", range(len(blocks("python"))))
def test_python_block_runs_and_pays(index, tmp_path, pam_env):
    script = tmp_path / f"readme_{index}.py"
    script.write_text(blocks("python")[index])
    env = dict(pam_env)
    env["PYTHONPATH"] = os.path.dirname(os.path.dirname(os.path.abspath(tender.__file__)))
    if os.path.sep in tender.library_path:
        env["TENDER_LIBRARY"] = tender.library_path
    done = run([sys.executable, os.fspath(script), os.fspath(tmp_path / "home")], env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "SUCCESS" in done.stdout
    assert "Send $50 to John Baily from Checking? There is no fee." in done.stdout
    assert PASSWORD not in done.stdout + done.stderr
