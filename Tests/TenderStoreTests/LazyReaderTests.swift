// SPDX-License-Identifier: Apache-2.0
import TenderTestSupport
import Glibc
import Testing
import TenderCore
import TenderCrypto
@testable import TenderStore

/// Issue 34: a store opened for writing opens its reading connection at the first read that needs it
/// (a scan), long after the home's checks; that connection must be on the store file the writer opened,
/// still private, or the read is refused.
@Suite struct LazyReaderTests {
    private func refusedAsHome(_ body: () throws -> Void, saying words: String) -> Bool {
        do { try body() } catch let error as TenderError {
            if case let .home(message) = error { return message.contains(words) }
            return false
        } catch { return false }
        return false
    }

    @Test func anOpenStoreOpensNoReadingConnectionUntilAScan() throws {
        let home = TemporaryHome()
        let store = try SQLiteStoreTests.openStore(home.path)
        #expect(store.reader.withLock { $0 == nil })
        _ = try store.records()
        #expect(store.reader.withLock { $0 != nil })
    }

    @Test func aStoreFileReplacedBeforeTheFirstScanIsRefused() throws {
        let home = TemporaryHome()
        let store = try SQLiteStoreTests.openStore(home.path)
        let path = home.path + "/" + SQLiteStore.fileName
        // Another SQLite file of the same user put in the store's place (a copy: same contents, another inode).
        let copy = home.path + "/replacement"
        #expect(system("cp '\(path)' '\(copy)'") == 0)
        #expect(rename(copy, path) == 0)
        #expect(refusedAsHome({ _ = try store.records() }, saying: "was replaced"))
        #expect(store.reader.withLock { $0 == nil })
    }

    @Test func aStoreFileLoosenedOrLinkedBeforeTheFirstScanIsRefused() throws {
        let home = TemporaryHome()
        let store = try SQLiteStoreTests.openStore(home.path)
        let path = home.path + "/" + SQLiteStore.fileName
        #expect(chmod(path, 0o660) == 0)
        #expect(refusedAsHome({ _ = try store.records() }, saying: "writable by group or others"))
        #expect(chmod(path, 0o600) == 0)
        // A symbolic link in its place, even to the very same file, is refused.
        let moved = home.path + "/moved.sqlite3"
        #expect(rename(path, moved) == 0)
        #expect(symlink(moved, path) == 0)
        #expect(throws: TenderError.self) { _ = try store.records() }
        #expect(store.reader.withLock { $0 == nil })
        #expect(unlink(path) == 0 && rename(moved, path) == 0)
        // Put back as it was: the scan now opens its connection and reads.
        _ = try store.records()
        #expect(store.reader.withLock { $0 != nil })
    }

    // Adversary: the reading connection opens the store's -wal and -shm by name too, and only the store file was
    // checked again: a -wal of another user (put there once the home was loosened, as the open would refuse it) or
    // a loosened one was read as the store's. They are checked as the store is.
    @Test func aWalOrShmLoosenedOrOfAnotherUserBeforeTheFirstScanIsRefused() throws {
        let home = TemporaryHome()
        let store = try SQLiteStoreTests.openStore(home.path)
        let path = home.path + "/" + SQLiteStore.fileName
        for suffix in ["-wal", "-shm"] {
            var info = stat()
            try #require(lstat(path + suffix, &info) == 0)
            #expect(chmod(path + suffix, 0o666) == 0)
            #expect(throws: TenderError.self) { _ = try store.records() }
            #expect(store.reader.withLock { $0 == nil })
            #expect(chmod(path + suffix, 0o600) == 0)
            if geteuid() == 0 {
                #expect(chown(path + suffix, 65_534, 65_534) == 0)
                #expect(throws: TenderError.self) { _ = try store.records() }
                #expect(store.reader.withLock { $0 == nil })
                #expect(chown(path + suffix, 0, 0) == 0)
            }
        }
        _ = try store.records()
        #expect(store.reader.withLock { $0 != nil })
    }
}
