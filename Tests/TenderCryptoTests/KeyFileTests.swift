// SPDX-License-Identifier: Apache-2.0
import Glibc
import Testing
import TenderCore
@testable import TenderCrypto

@Suite struct KeyFileTests {
    @Test func createsPrivateFilesExclusively() throws {
        let path = temporaryDirectory() + "/k.pem"
        try KeyFile.create(at: path, contents: Array("secret".utf8))
        var info = stat()
        #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o600)
        #expect(throws: TenderError.self) { try KeyFile.create(at: path, contents: Array("again".utf8)) }
        #expect(try KeyFile.load(at: path) == Array("secret".utf8))
    }

    @Test func refusesFilesOthersCanRead() throws {
        let path = temporaryDirectory() + "/k.pem"
        try KeyFile.create(at: path, contents: Array("secret".utf8))
        chmod(path, 0o640)
        #expect {
            try KeyFile.load(at: path)
        } throws: { error in
            guard case let .keyFile(message) = error as? TenderError else { return false }
            return message.contains("mode 640") && message.contains("chmod 600")
        }
    }

    @Test func refusesSymbolicLinks() throws {
        let dir = temporaryDirectory()
        try KeyFile.create(at: dir + "/real.pem", contents: Array("secret".utf8))
        symlink(dir + "/real.pem", dir + "/link.pem")
        #expect(throws: TenderError.self) { try KeyFile.load(at: dir + "/link.pem") }
        #expect(throws: TenderError.self) { try KeyFile.create(at: dir + "/link.pem", contents: [1]) }
    }

    @Test func keyDirectoryCreatesLoadsAndDestroys() throws {
        let home = temporaryDirectory()
        let keys = try KeyDirectory(home: home)
        let (kid, publicKey) = try keys.createKey()
        var info = stat()
        #expect(stat(keys.path, &info) == 0 && info.st_mode & 0o777 == 0o700)
        // A second directory object (another process) loads the same key from its file.
        let other = try KeyDirectory(home: home)
        let signer = try other.signer(keyID: kid)
        let message = Array("hello".utf8)
        #expect(try Ed25519PublicKey(bytes: publicKey).isValidSignature(try signer.sign(message), of: message))
        try keys.destroyKey(keyID: kid)
        #expect(throws: TenderError.self) { try KeyDirectory(home: home).signer(keyID: kid) }
    }
}
