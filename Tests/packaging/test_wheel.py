# SPDX-License-Identifier: Apache-2.0
"""make wheel (issue 13.3): a wheel carrying the library, installed into a fresh
virtual environment that sees no other libtender, runs examples/send_payment.py;
a missing system library is a clear ImportError naming it."""
import glob
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile

import pytest

from conftest import BUILD, REPO, SONAME, VERSION, needs_build, run

MACHINE = os.uname().machine


@pytest.fixture(scope="module")
def wheel():
    run(["make", "-s", "--no-print-directory", "-C", REPO, "wheel"])
    path = os.path.join(BUILD, "wheel", f"libtender-{VERSION}-py3-none-linux_{MACHINE}.whl")
    assert os.path.exists(path), os.listdir(os.path.join(BUILD, "wheel"))
    return path


# What would make pip install somewhere else, or see another libtender as installed already (noticed.md: pip exited 0,
# yet the fresh venv had no libtender). PYTHONPATH naming a tree with a stale libtender.egg-info (python/ after
# `pip install ./python`, which builds in place) made pip answer "libtender is already installed with the same version"
# and install nothing, which --quiet hid.
PIP_REDIRECTS = ("PYTHONPATH", "PYTHONHOME", "PYTHONUSERBASE", "PIP_TARGET", "PIP_PREFIX", "PIP_ROOT", "PIP_USER",
                 "PIP_REQUIREMENT", "PIP_CONSTRAINT", "PIP_CONFIG_FILE", "VIRTUAL_ENV")


def site_packages(path):
    return os.path.join(path, "lib", f"python{sys.version_info.major}.{sys.version_info.minor}", "site-packages")


def install(wheel, parent):
    """A fresh virtual environment in a directory of its own under `parent` (two runs at once never share one), the
    wheel installed into it offline by pip, from an environment and a working directory that name no other libtender.
    Fails the test with pip's output and the venv's site-packages listing unless `import libtender` then works there."""
    os.makedirs(parent, exist_ok=True)
    path = os.path.join(tempfile.mkdtemp(prefix="venv-", dir=parent), "venv")
    env = {k: v for k, v in os.environ.items() if k not in PIP_REDIRECTS}
    run([sys.executable, "-m", "venv", path], env=env, cwd=parent)
    python = os.path.join(path, "bin", "python")
    pip = subprocess.run([python, "-m", "pip", "install", "--no-index", "--disable-pip-version-check", wheel],
                         capture_output=True, text=True, env=env, cwd=parent)
    probe = subprocess.run([python, "-c", "import libtender"], capture_output=True, text=True, env=env, cwd=parent)
    if pip.returncode != 0 or probe.returncode != 0:
        listing = sorted(os.listdir(site_packages(path))) if os.path.isdir(site_packages(path)) else "(missing)"
        pytest.fail(f"the wheel is not importable in the fresh venv {path}\npip exited {pip.returncode}:\n{pip.stdout}\n{pip.stderr}\n"
                    f"import libtender:\n{probe.stderr}\nsite-packages: {listing}")
    return path


@pytest.fixture(scope="module")
def venv(wheel):
    """A fresh virtual environment (no system site-packages) with the wheel installed, offline."""
    path = install(wheel, os.path.join(BUILD, "wheel-test"))
    yield path
    shutil.rmtree(os.path.dirname(path), ignore_errors=True)


@needs_build
def test_a_stale_libtender_on_the_callers_path_does_not_stop_the_install(wheel, tmp_path, monkeypatch):
    """noticed.md: five tests failed with "No module named libtender" after a quiet pip install that exited 0. With
    PYTHONPATH naming a tree that holds a libtender.egg-info of the same version (what `pip install ./python` leaves in
    python/), pip took libtender for installed and installed nothing. The install must not see the caller's path."""
    stale = tmp_path / "tree"
    (stale / "libtender.egg-info").mkdir(parents=True)
    (stale / "libtender.egg-info" / "PKG-INFO").write_text(f"Metadata-Version: 2.1\nName: libtender\nVersion: {VERSION}\n")
    monkeypatch.setenv("PYTHONPATH", str(stale))
    monkeypatch.chdir(stale)
    path = install(wheel, str(tmp_path / "venvs"))
    assert "libtender" in os.listdir(site_packages(path))


def clean_environment(tmp):
    """No TENDER_LIBRARY, an empty pkg-config path and no loader path: only the wheel's own copy can be found."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("TENDER_LIBRARY", "LD_LIBRARY_PATH", "PYTHONPATH", "LD_PRELOAD", "PAM_WRAPPER")}
    env["PKG_CONFIG_PATH"] = env["PKG_CONFIG_LIBDIR"] = str(tmp)
    return env


@needs_build
def test_the_wheel_carries_the_library_and_the_version(wheel):
    with zipfile.ZipFile(wheel) as whl:
        names = whl.namelist()
        wheel_meta = whl.read(f"libtender-{VERSION}.dist-info/WHEEL").decode()
        metadata = whl.read(f"libtender-{VERSION}.dist-info/METADATA").decode()
        record = whl.read(f"libtender-{VERSION}.dist-info/RECORD").decode()
    assert f"libtender/{SONAME}" in names and "libtender/__init__.py" in names
    assert f"Tag: py3-none-linux_{MACHINE}" in wheel_meta and "Root-Is-Purelib: false" in wheel_meta
    assert f"Version: {VERSION}\n" in metadata
    assert all(n in record for n in names)


@needs_build
def test_a_fresh_venv_runs_the_example_with_the_bundled_library(venv, tmp_path):
    python = os.path.join(venv, "bin", "python")
    env = clean_environment(tmp_path)
    where = run([python, "-c", "import libtender; print(libtender.library_path); print(libtender.version())"],
                env=env, cwd=tmp_path).stdout.split()
    assert where == [os.path.join(site_packages(venv), "libtender", SONAME), VERSION]
    done = run([python, os.path.join(REPO, "examples", "send_payment.py"), str(tmp_path / "home")], env=env, cwd=tmp_path)
    assert "success" in done.stdout, done.stdout


@needs_build
def test_the_bundled_library_pays_through_real_pam_calls(venv, tmp_path):
    """The wheel's library under pam_wrapper: a payment re-authenticated by the service "tender"."""
    wrapper = (glob.glob("/usr/lib/*/libpam_wrapper.so") + [""])[0]
    matrix = (glob.glob("/usr/lib/*/pam_wrapper/pam_matrix.so") + [""])[0]
    if not wrapper or not matrix:
        pytest.skip("libpam-wrapper is not installed")
    services = tmp_path / "pam"
    services.mkdir()
    user = run(["id", "-un"]).stdout.strip()
    (services / "passdb").write_text(f"{user}:wheel-secret:tender\n")
    (services / "tender").write_text(f"auth required {matrix} passdb={services}/passdb\n"
                                     f"account required {matrix} passdb={services}/passdb\n")
    env = clean_environment(tmp_path)
    env.update(LD_PRELOAD=wrapper, PAM_WRAPPER="1", PAM_WRAPPER_SERVICE_DIR=str(services),
               TENDER_EXAMPLE_PASSWORD="wheel-secret")
    done = run([os.path.join(venv, "bin", "python"), os.path.join(REPO, "examples", "send_payment.py"),
                str(tmp_path / "home")], env=env, cwd=tmp_path)
    assert "success" in done.stdout, done.stdout


@needs_build
@pytest.mark.parametrize("soname,package", [("libsqlite3.so.0", "libsqlite3-0"), ("libcrypto.so.3", "libssl3"),
                                            ("libpam.so.0", "libpam0g")])
def test_a_missing_system_library_is_an_import_error_naming_it(venv, tmp_path, soname, package):
    """In a private mount namespace the system library is hidden (/dev/null mounted over it)."""
    real = os.path.realpath(f"/usr/lib/{MACHINE}-linux-gnu/{soname}")
    if not os.path.exists(real):
        pytest.skip(f"{soname} is not at /usr/lib/{MACHINE}-linux-gnu")
    unshare = ["unshare", "--mount"] if os.getuid() == 0 else ["unshare", "--user", "--map-root-user", "--mount"]
    probe = subprocess.run(unshare + ["true"], capture_output=True)
    if probe.returncode != 0:
        pytest.skip(f"no private mount namespace here: {probe.stderr.decode().strip()}")
    code = ("import sys\ntry:\n    import libtender\nexcept ImportError as e:\n"
            "    print(type(e).__name__, e.library, e.package); print(e)\n    sys.exit(0)\nsys.exit('imported')\n")
    script = f'mount --bind /dev/null "{real}" && exec "$0" -c "$1"'
    done = run(unshare + ["sh", "-c", script, os.path.join(venv, "bin", "python"), code],
               env=clean_environment(tmp_path), cwd=tmp_path)
    first, message = done.stdout.split("\n", 1)
    assert first == f"MissingSystemLibrary {soname} {package}"
    assert f"apt install {package}" in message and soname in message
