# SPDX-License-Identifier: Apache-2.0
"""A throwaway PostgreSQL cluster for the tests (Tests/postgres, and Tests/broker with TENDER_TEST_POSTGRES=1):
initdb into a temporary directory, pg_ctl start on a Unix socket in it, run by a throwaway user, stopped at the end."""

import glob
import os
import pwd
import subprocess

PGBIN = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(p.split("/")[-2]) if p.split("/")[-2].isdigit() else 0)
PGBIN = PGBIN[-1] if PGBIN else None


def run_as(user, argv, **kwargs):
    entry = pwd.getpwnam(user)
    return subprocess.run(["setpriv", f"--reuid={entry.pw_uid}", f"--regid={entry.pw_gid}", "--clear-groups", "--", *argv],
                          capture_output=True, text=True, timeout=120, cwd="/", env={"PATH": os.environ["PATH"]}, **kwargs)


class Cluster:
    """A throwaway PostgreSQL cluster in `base`/pg, on a Unix socket there, owned by `user`."""

    def __init__(self, base, user, fsync=False):
        self.fsync = fsync
        self.user, self.data, self.socket = user, os.path.join(base, "pg", "data"), os.path.join(base, "pg", "socket")
        os.makedirs(self.socket)
        entry = pwd.getpwnam(user)
        for path in (os.path.dirname(self.data), self.socket):
            os.chown(path, entry.pw_uid, entry.pw_gid)
        done = run_as(user, [os.path.join(PGBIN, "initdb"), "-D", self.data, "--auth-local=peer", "--auth-host=reject", "--no-sync",
                             "-E", "UTF8", "--locale=C.UTF-8"])
        assert done.returncode == 0, done.stderr
        self.start()

    def start(self):
        # fsync off for the tests: they kill tenderd, never the server, whose durability is PostgreSQL's own (the bench keeps it on).
        options = f"-k {self.socket} -c listen_addresses= -c fsync={'on' if self.fsync else 'off'}"
        done = run_as(self.user, [os.path.join(PGBIN, "pg_ctl"), "-D", self.data, "-l", os.path.join(self.data, "..", "log"), "-w",
                                  "-o", options, "start"])
        assert done.returncode == 0, done.stdout + done.stderr

    def stop(self, mode="fast"):
        run_as(self.user, [os.path.join(PGBIN, "pg_ctl"), "-D", self.data, "-m", mode, "-w", "stop"])

    def sql(self, user, statement, database="tender"):
        """Runs `statement` through psql as `user` (peer authentication: the role of that name)."""
        return run_as(user, [os.path.join(PGBIN, "psql"), "-h", self.socket, "-d", database, "-X", "-q", "-A", "-t",
                             "-v", "ON_ERROR_STOP=1", "-c", statement])

    def uri(self, database="tender"):
        return f"postgresql:///{database}?host={self.socket}&requirepeer={self.user}"
