// SPDX-License-Identifier: Apache-2.0
import Glibc
import Testing
@testable import TenderPostgres

/// The bench's reading of a process's CPU from /proc (``PostgresServerCPU``): the command name between the first `(` and the
/// last `)`, then the fields numbered from 3; no server needed.
struct PostgresServerCPUTests {
    @Test func thisProcessesStatNamesItsParentAndCountsItsTime() throws {
        // Some CPU spent first, so the process's own ticks are counted.
        var spin = 0
        for index in 0..<20_000_000 { spin &+= index }
        #expect(spin != 0)
        let stat = try #require(PostgresServerCPU.stat(of: getpid()))
        #expect(stat.parent == getppid())
        #expect(!stat.name.isEmpty && !stat.name.contains(")"))
        #expect(stat.user + stat.system > 0)
    }

    @Test func aProcessThatDoesNotExistHasNoStat() {
        #expect(PostgresServerCPU.stat(of: Int32.max) == nil)
        // A server whose postmaster is gone reads no time.
        #expect(PostgresServerCPU(postmaster: Int32.max, ticks: 100).seconds() == nil)
    }
}
