// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import TenderCore
import TenderCrypto

/// A public key given on the command line, as PEM or JWK, keyed by its thumbprint.
enum TrustedKey {
    static func load(_ path: String) throws -> [String: [UInt8]] {
        let key = try PublicKeyText.parse(try TextFile.read(path))
        return [key.keyID: key.publicKey]
    }
}
