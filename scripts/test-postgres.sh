#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The PostgreSQL tests (Tests/postgres, its crash test, then Tests/broker on PostgreSQL): a throwaway cluster (initdb into a temporary directory, pg_ctl start
# on a Unix socket in it, stopped at the end) and two tenderd processes on one database. They need root (to
# make the throwaway users the cluster, the daemons and the clients run as; PostgreSQL refuses root) and
# PostgreSQL's server (Debian postgresql, scripts/ensure-deps.sh test); without either they skip, saying why.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
export TMPDIR="${TMPDIR:-$root/.build-tmp}"; mkdir -p "$TMPDIR"
if [ "$(id -u)" != 0 ]; then
    echo "PostgreSQL tests skipped: they run a throwaway cluster and tenderd as throwaway users, which needs root (run make test-postgres as root)"
    exit 0
fi
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
    echo "PostgreSQL tests skipped: PostgreSQL's server is not installed (as root: apt-get install --no-install-recommends postgresql)"
    exit 0
fi
python=${PYTHON:-python3}
timeout 300 "$python" -m pytest -q -p no:cacheprovider "$root/Tests/postgres"
# The crash test on PostgreSQL, a few rounds (make test-crash-postgres ROUNDS=N for more): two daemons, one killed -9 mid-payment.
timeout 300 "$python" "$root/Tests/postgres/crash_postgres.py" --rounds "${CRASH_ROUNDS:-3}"
# The Swift ledger tests on PostgreSQL, when the Swift tests are built (make test-swift, which make test runs first).
if [ -d "$root/.build-test/debug" ]; then
    timeout 1800 "$python" "$root/Tests/postgres/swift_on_postgres.py" "${SWIFT:-$(command -v swift || echo /opt/swift/usr/bin/swift)}" "$root/.build-test"
else
    echo "Swift ledger tests on PostgreSQL skipped: the Swift tests are not built (make test-swift builds them; make test runs it first)"
fi
# The broker suite again, its tenderd keeping every store in a throwaway cluster.
TENDER_TEST_POSTGRES=1 exec timeout 300 "$python" -m pytest -q -p no:cacheprovider "$root/Tests/broker"
