# SPDX-License-Identifier: Apache-2.0
"""What every PostgreSQL test and bench sets up and takes down, once: throwaway users, a base directory in /tmp,
a throwaway cluster owned by one of them, tenderd's role and database, and the tenderd processes started on it,
all killed, stopped and removed at the end, whatever happened (Tests/postgres: test_postgres.py, test_migrate.py,
crash_postgres.py, bench_postgres.py)."""

import os
import pwd
import secrets
import shutil
import signal
import subprocess
import tempfile

from pg_cluster import Cluster


class Throwaway:
    """`with Throwaway("tpg", ("d", "a", "p")) as world:` throwaway users named PREFIX+ROLE+TAG (`world.names[role]`),
    `world.base` (0755), `world.cluster` run by the user of role "p", and role "d"'s PostgreSQL role owning database
    `tender` (not a superuser: row-level security holds it). Daemons given to `started()`, and users to `user()`,
    are cleaned up too."""

    def __init__(self, prefix, roles, fsync=False, cluster_role="p", daemon_role="d"):
        self.tag = secrets.token_hex(3)
        self.names = {role: f"{prefix}{role}{self.tag}" for role in roles}
        self.fsync, self.cluster_role, self.daemon_role = fsync, cluster_role, daemon_role
        self.base, self.cluster, self.daemons, self.extra_users = None, None, [], []

    def __enter__(self):
        try:
            self.base = tempfile.mkdtemp(prefix="tender-postgres-", dir="/tmp")
            os.chmod(self.base, 0o755)
            for name in self.names.values():
                self._useradd(name)
            self.cluster = Cluster(self.base, self.names[self.cluster_role], fsync=self.fsync)
            daemon = self.names[self.daemon_role]
            for statement in (f'CREATE ROLE "{daemon}" LOGIN', f'CREATE DATABASE tender OWNER "{daemon}"'):
                done = self.cluster.sql(self.names[self.cluster_role], statement, database="postgres")
                assert done.returncode == 0, done.stderr
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def _useradd(self, name):
        subprocess.run(["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", name], check=True)

    def user(self, name):
        """A further throwaway user, removed at the end."""
        self.extra_users.append(name)
        self._useradd(name)
        return name

    def directories(self, *paths, owner=None):
        """Makes each (relative path, mode) under base, owned by `owner` (default: the daemon's user)."""
        entry = pwd.getpwnam(owner or self.names[self.daemon_role])
        for path, mode in paths:
            full = os.path.join(self.base, path)
            os.makedirs(full, exist_ok=True)
            os.chmod(full, mode)
            os.chown(full, entry.pw_uid, entry.pw_gid)
        return os.path.join(self.base, paths[0][0])

    def started(self, daemon):
        """Starts `daemon` (test_broker's Daemon) and kills it at the end if it still runs."""
        self.daemons.append(daemon)
        daemon.start()
        return daemon

    def __exit__(self, *exc):
        for daemon in self.daemons:
            if daemon.process and daemon.serving():
                daemon.kill(signal.SIGTERM)
        if self.cluster:
            self.cluster.stop("immediate")
        for name in list(self.names.values()) + self.extra_users:
            subprocess.run(["userdel", name], stderr=subprocess.DEVNULL)
        if self.base:
            shutil.rmtree(self.base, ignore_errors=True)
        return False
