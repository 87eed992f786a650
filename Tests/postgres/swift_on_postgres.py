# SPDX-License-Identifier: Apache-2.0
"""The Swift ledger tests on PostgreSQL (Tests/TenderPostgresTests/PostgresLedgerTests): a throwaway cluster, a role
`root` of the tests' own (not a superuser: row-level security holds it; peer login, as root runs swift test) owning a
database of its own, then `swift test --filter "PostgresLedgerTests|PostgresRoundTripTests|PostgresSignedInFlightTests|PostgresPaymentCallTests|PostgresPaymentCallAttackTests"` with TENDER_TEST_POSTGRES_URI naming it.

    python3 Tests/postgres/swift_on_postgres.py SWIFT SCRATCH     (root; scripts/test-postgres.sh)
"""

import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from pg_world import Throwaway  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(HERE))


def main(swift, scratch):
    with Throwaway("tps", ("d", "p")) as world:
        for statement in ('CREATE ROLE root LOGIN', 'CREATE DATABASE swifttest OWNER root'):
            done = world.cluster.sql(world.names["p"], statement, database="postgres")
            assert done.returncode == 0, done.stderr
        env = dict(os.environ, TENDER_TEST_POSTGRES_URI=world.cluster.uri("swifttest"))
        done = subprocess.run([swift, "test", "--scratch-path", scratch, "--filter", "PostgresLedgerTests|PostgresRoundTripTests|PostgresSignedInFlightTests|PostgresPaymentCallTests|PostgresPaymentCallAttackTests"], cwd=ROOT, env=env, timeout=1800)
        return done.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
