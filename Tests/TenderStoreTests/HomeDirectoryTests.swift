// SPDX-License-Identifier: Apache-2.0
import TenderTestSupport
import Glibc
import Testing
import TenderCore
@testable import TenderStore

/// Issue 30.12: the directory that holds a home must not let another user put a directory of
/// theirs in its place (the race itself, with a second user, is in Tests/python/test_home_security.py).
@Suite struct HomeDirectoryTests {
    private func entries(_ path: String) -> [String] {
        guard let dir = opendir(path) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    @Test func aParentOthersMayWriteWithoutTheStickyBitIsRefusedAndNothingIsMade() throws {
        let scratch = TemporaryHome()
        let parent = scratch.path + "/shared"
        #expect(mkdir(parent, 0o700) == 0)
        for mode: mode_t in [0o777, 0o770, 0o702] {
            #expect(chmod(parent, mode) == 0)
            #expect {
                try HomeDirectory.prepare(parent + "/home", access: .readWrite(newLedger: false))
            } throws: { error in
                (error as? TenderError).map { if case let .home(message) = $0 { message.contains("without the sticky bit") } else { false } } ?? false
            }
            #expect(entries(parent).isEmpty)
        }
        // With the sticky bit (as /tmp), only an entry's owner may remove or rename it: accepted, and made private.
        #expect(chmod(parent, 0o1777) == 0)
        try HomeDirectory.prepare(parent + "/home", access: .readWrite(newLedger: false))
        var info = stat()
        #expect(lstat(parent + "/home", &info) == 0 && info.st_mode & 0o777 == 0o700 && info.st_uid == geteuid())
        #expect(Set(entries(parent + "/home")) == [HomeDirectory.markerName, SQLiteStore.fileName])
        // An existing home in such a parent is refused for writing too.
        #expect(chmod(parent, 0o777) == 0)
        #expect(throws: TenderError.self) { try HomeDirectory.prepare(parent + "/home", access: .readWrite(newLedger: false)) }
        #expect(chmod(parent, 0o755) == 0)
        try HomeDirectory.prepare(parent + "/home", access: .readWrite(newLedger: false))
    }

    @Test func aHomeIsMadeThroughItsParentWhateverThePathLooksLike() throws {
        let scratch = TemporaryHome()
        try HomeDirectory.prepare(scratch.path + "/a/b/home/", access: .readWrite(newLedger: false))
        var info = stat()
        #expect(lstat(scratch.path + "/a/b/home", &info) == 0 && info.st_mode & 0o777 == 0o700)
        #expect(lstat(scratch.path + "/a/b", &info) == 0 && info.st_mode & 0o777 == 0o700)
        #expect(throws: TenderError.self) { try HomeDirectory.prepare(scratch.path + "/a/..", access: .readWrite(newLedger: false)) }
    }

    /// As root, a parent of another user is refused: that user could rename the home away and put theirs there.
    @Test(.enabled(if: geteuid() == 0)) func aParentOfAnotherUserIsRefused() throws {
        let scratch = TemporaryHome()
        let parent = scratch.path + "/theirs"
        #expect(mkdir(parent, 0o755) == 0 && chown(parent, 65534, 65534) == 0)
        #expect {
            try HomeDirectory.prepare(parent + "/home", access: .readWrite(newLedger: false))
        } throws: { error in
            (error as? TenderError).map { if case let .home(message) = $0 { message.contains("belongs to uid 65534") } else { false } } ?? false
        }
        #expect(entries(parent).isEmpty)
    }
}
