# SPDX-License-Identifier: Apache-2.0
"""tenderd holds the signing keys of the sessions it serves: its unit makes no core dump, which would write them to
disk (a crash's core is kept by systemd-coredump or the kernel's core pattern, readable by whoever reads those)."""

import os

from conftest import REPO


def test_the_service_dumps_no_core():
    with open(os.path.join(REPO, "systemd", "tenderd.service")) as f:
        settings = [line.strip() for line in f if not line.lstrip().startswith("#")]
    assert "LimitCORE=0" in settings, "tenderd.service must set LimitCORE=0 (no core dump holding the users' keys)"
