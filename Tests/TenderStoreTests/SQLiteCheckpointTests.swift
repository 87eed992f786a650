// SPDX-License-Identifier: Apache-2.0
import TenderTestSupport
import Glibc
import Testing
import TenderCore
import TenderCrypto
@testable import TenderStore

/// Issue 34, lever 1: the log is checkpointed by the process's workers, off the committers' path
/// (``StoreCheckpoints``, ``WALCheckpointer``); a committer checkpoints itself only past the bound; closing a store
/// stops and waits for its checkpoint and leaves the home as before (no log); many stores share at most two threads.
/// Each fails on 2467df6, where every checkpoint ran inside a commit (SQLite's automatic one) and none of this existed.
@Suite struct SQLiteCheckpointTests: CheckpointTesting {
    /// Past the worker's threshold the log is checkpointed by a worker; a committer copies only what is left at the
    /// bound (a few frames), and the log file stays near the bound's size (it starts again after that) instead of
    /// growing with the payments.
    @Test func aWorkerCheckpointsTheLogAndTheCommitterOnlyAtTheBound() throws {
        let home = TemporaryHome()
        let store = try store(home)
        store.checkpointFrames(worker: 40, committer: 600)
        for index in 0..<300 {
            try pay(store, "worker-\(index)")
            // Sequential payments a little apart, as a person's are: the worker keeps up.
            if index % 20 == 19 { _ = eventually(2) { store.checkpointCounts.background * 40 >= index } }
        }
        #expect(eventually { store.checkpointCounts.background >= 3 })
        let counts = store.checkpointCounts
        // ~1,500 frames: at most one committer checkpoint per 560 frames, the rest by workers.
        #expect(counts.inline <= 3)
        #expect(counts.background > counts.inline)
        #expect(counts.failed == 0)
        #expect((size(home.path + "/tender.sqlite3-wal") ?? .max) < 700 * 4120 + 32)
        #expect(try store.verify().resigned.isEmpty)
    }

    /// The descriptors this process holds on files of `home`.
    private func descriptors(under home: String) -> Int {
        guard let directory = opendir("/proc/self/fd") else { return -1 }
        defer { closedir(directory) }
        var count = 0
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
            var target = [CChar](repeating: 0, count: 4096)
            let length = readlink("/proc/self/fd/" + name, &target, target.count - 1)
            guard length > 0 else { continue }
            let path = String(decoding: target[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if path.hasPrefix(home + "/") { count += 1 }
        }
        return count
    }

    /// A worker's checkpoint connection is closed when its checkpoint ends. SQLite keeps a closed connection's store
    /// file descriptor while another connection of the process holds a lock on that file (POSIX locks belong to the
    /// process, so closing it would drop the writer's), and reuses it at the next open: between checkpoints an engine
    /// holds at most that one more than before its first, however many it ran (with the connection kept, 3 became 5 an
    /// engine, which a cache of 1,000 engines multiplies).
    @Test func anEngineBetweenCheckpointsHoldsNoCheckpointConnection() throws {
        let home = TemporaryHome()
        let store = try store(home)
        try pay(store, "first")
        #expect(store.checkpointCounts.background == 0)
        let before = descriptors(under: home.path)
        #expect(before > 0)
        store.checkpointFrames(worker: 30, committer: 4000)
        for round in 1...4 {
            for index in 0..<100 { try pay(store, "held-\(round)-\(index)") }
            #expect(eventually { store.checkpointCounts.background >= round })
            #expect(eventually { descriptors(under: home.path) <= before + 1 }, "\(before) -> \(descriptors(under: home.path))")
        }
        #expect(store.checkpointCounts.failed == 0)
    }

    /// A reader pinning the log (a long read transaction on another connection) stops checkpoints from finishing; the
    /// committer checkpoints itself from the bound on, as SQLite's automatic checkpoint did; once the reader ends, the
    /// next checkpoint empties the log.
    @Test func aReaderPinningTheLogMakesTheCommitterCheckpointPastTheBound() throws {
        let home = TemporaryHome()
        let store = try store(home)
        store.checkpointFrames(worker: 20, committer: 120)
        let reader = try SQLiteStoreTests.openStore(home.path)
        try reader.readingTogether { () throws(TenderError) in
            _ = try reader.accounts()  // the snapshot is taken: no checkpoint may move past it
            for index in 0..<80 { try pay(store, "pinned-\(index)") }
        }
        let pinned = store.checkpointCounts
        #expect(pinned.inline >= 1)
        for index in 0..<40 { try pay(store, "free-\(index)") }
        #expect(eventually { store.checkpointCounts.background > pinned.background })
        #expect(try reader.records().count == 120)
    }

    /// Closing stores while their checkpoints run: each close waits for (or stops) its checkpoint, no worker touches a
    /// closed connection (the sanitizers' runs and this loop would crash), and the home is left as before: no log, and
    /// the store reopens and verifies with every payment.
    @Test func closingAStoreDuringItsCheckpointLeavesTheHomeAsBefore() throws {
        let home = TemporaryHome()
        var paid = 0
        for round in 0..<12 {
            let store = try SQLiteStoreTests.openStore(home.path)
            if round == 0 { try store.importDirectory(try DirectoryDocument(json: try JSONParser.parse(SQLiteStoreTests.directory))) }
            store.checkpointFrames(worker: 5, committer: 1_000_000)
            for index in 0..<25 {
                try pay(store, "close-\(round)-\(index)")
                paid += 1
            }
            // Dropped at once: most rounds close while a worker is checkpointing or has the store queued.
        }
        // Checkpointed whole at the last close: the log is kept, empty (Database: SQLITE_FCNTL_PERSIST_WAL).
        #expect(size(home.path + "/tender.sqlite3-wal") == 0)
        let store = try SQLiteStoreTests.openStore(home.path)
        #expect(try store.records().count == paid)
        #expect(try store.verify().resigned.isEmpty)
    }

    /// Issue 34 (many homes): the last close checkpoints the whole log and keeps the store's `-wal`, emptied, and its
    /// `-shm`; the next open reuses both (the same inodes) instead of creating them again and removing them at its close,
    /// and what was paid is in the store file. Fails on 05c7fdf, whose close removed both files.
    @Test func theLastCloseKeepsTheLogEmptyAndTheNextOpenReusesIt() throws {
        let home = TemporaryHome()
        let wal = home.path + "/tender.sqlite3-wal"
        let shm = home.path + "/tender.sqlite3-shm"
        func inode(_ path: String) -> UInt64? {
            var info = stat()
            return lstat(path, &info) == 0 ? UInt64(info.st_ino) : nil
        }
        do {
            let first = try store(home)
            try pay(first, "kept-0")
            #expect((size(wal) ?? 0) > 0)
        }
        #expect(size(wal) == 0)
        #expect(exists(shm))
        let kept = (inode(wal), inode(shm))
        do {
            let second = try store(home, importing: false)
            try pay(second, "kept-1")
            #expect((size(wal) ?? 0) > 0)
        }
        #expect(size(wal) == 0)
        #expect(inode(wal) == kept.0 && inode(shm) == kept.1)
        // A read-only open of the home at rest reads the store file as immutable (its log is empty) and changes neither file.
        let shmSize = size(shm)
        #expect(shmSize != nil)
        let reading = try SQLiteStore(home: home.path, keys: try KeyDirectory(home: home.path, create: false), crypto: OpenSSLLedgerCrypto(), access: .readOnly)
        #expect(try reading.records().count == 2)
        #expect(try reading.verify().resigned.isEmpty)
        #expect(size(wal) == 0 && size(shm) == shmSize)
    }

    /// Many stores due at once share the process's workers: never more than two threads, and none left once every
    /// store is closed and nothing is due.
    @Test func manyStoresShareAtMostTwoThreads() throws {
        let homes = (0..<24).map { _ in TemporaryHome() }
        var stores: [SQLiteStore] = []
        for home in homes {
            let store = try store(home)
            store.checkpointFrames(worker: 5, committer: 1_000_000)
            stores.append(store)
        }
        let most = PthreadLocked(0)
        let shared = stores
        let payers = (0..<4).map { thread in
            TestThread {
                for round in 0..<15 {
                    for (index, store) in shared.enumerated() where index % 4 == thread {
                        try? pay(store, "many-\(round)")
                        let live = SQLiteStore.checkpointThreads.live
                        most.withLock { $0 = max($0, live) }
                    }
                }
            }
        }
        for payer in payers { payer.join() }
        #expect(most.withLock { $0 } <= 2)
        #expect(eventually { shared.allSatisfy { $0.checkpointCounts.background >= 1 } })
        stores.removeAll()
        #expect(eventually { SQLiteStore.checkpointThreads.live == 0 })
    }

    private func bytes(_ path: String) -> [UInt8] {
        guard let file = fopen(path, "rb") else { return [] }
        defer { fclose(file) }
        var all: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let got = fread(&chunk, 1, chunk.count, file)
            if got <= 0 { break }
            all += chunk[0..<got]
        }
        return all
    }

    /// Adversary: the store file is replaced (renamed over) after the engine opened it. The checkpoint connection opens
    /// the store by name, so it checks, as the reading connection does (``LazyReader``), that the file is still the one
    /// the writer opened: the worker refuses, and nothing is copied into the file put in the store's place.
    @Test func aStoreFileReplacedAfterTheOpenIsNeverCheckpointedInto() throws {
        let home = TemporaryHome()
        let foreignHome = TemporaryHome()
        let store = try store(home)
        store.checkpointFrames(worker: 10, committer: 1_000_000)
        do { _ = try self.store(foreignHome) }  // a whole other store, closed: no log of its own
        let before = bytes(foreignHome.path + "/tender.sqlite3")
        #expect(!before.isEmpty)
        #expect(rename(foreignHome.path + "/tender.sqlite3", home.path + "/tender.sqlite3") == 0)
        for index in 0..<20 { try pay(store, "replaced-\(index)") }
        #expect(eventually { store.checkpointCounts.failed >= 1 })
        #expect(store.checkpointCounts.background == 0)
        #expect(bytes(home.path + "/tender.sqlite3") == before)
    }
}
