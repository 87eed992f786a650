# SPDX-License-Identifier: Apache-2.0
"""tenderd's systemd units, sysusers and tmpfiles entries, checked by systemd's own tools
on a throwaway root: no unit is loaded and no user is made on this machine."""

import os
import shutil
import subprocess

import pytest

from conftest import BUILD, REPO

UNITS = os.path.join(REPO, "systemd")


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is missing (apt-get install systemd)")
@pytest.mark.skipif(not os.path.exists(os.path.join(BUILD, "bin", "tenderd")), reason="build/bin/tenderd is missing: make build")
def test_units_verify(tmp_path):
    for name in ("tenderd.socket", "tenderd.service"):
        with open(os.path.join(UNITS, name)) as f:
            text = f.read().replace("/usr/sbin/tenderd", os.path.join(BUILD, "bin", "tenderd"))
        (tmp_path / name).write_text(text)
    done = subprocess.run(["systemd-analyze", "verify", "--man=no", str(tmp_path / "tenderd.socket"), str(tmp_path / "tenderd.service")],
                          capture_output=True, text=True, env={**os.environ, "SYSTEMD_LOG_LEVEL": "notice"})
    assert done.returncode == 0 and done.stderr.strip() == "", done.stderr
    service = (tmp_path / "tenderd.service").read_text()
    assert "User=tender" in service and "--systemd" in service and "SupplementaryGroups=shadow" in service
    assert "ListenStream=/run/tender/socket" in (tmp_path / "tenderd.socket").read_text()


@pytest.mark.skipif(shutil.which("systemd-sysusers") is None or shutil.which("systemd-tmpfiles") is None,
                    reason="systemd-sysusers and systemd-tmpfiles are missing (apt-get install systemd)")
@pytest.mark.skipif(os.geteuid() != 0, reason="systemd-sysusers and systemd-tmpfiles --root need root")
def test_sysusers_and_tmpfiles_make_the_user_and_a_private_state(tmp_path):
    (tmp_path / "etc").mkdir()
    for name in ("passwd", "group", "shadow", "gshadow"):
        (tmp_path / "etc" / name).write_text("")
    subprocess.run(["systemd-sysusers", f"--root={tmp_path}", os.path.join(UNITS, "tender.sysusers")], check=True, capture_output=True)
    entry = [line for line in (tmp_path / "etc" / "passwd").read_text().splitlines() if line.startswith("tender:")]
    assert len(entry) == 1 and entry[0].endswith(":/var/lib/tender:/usr/sbin/nologin"), entry
    uid = int(entry[0].split(":")[2])
    subprocess.run(["systemd-tmpfiles", f"--root={tmp_path}", "--create", os.path.join(UNITS, "tender.tmpfiles")], check=True,
                   capture_output=True)
    state = os.stat(tmp_path / "var" / "lib" / "tender")
    assert state.st_mode & 0o777 == 0o700 and state.st_uid == uid
