// SPDX-License-Identifier: Apache-2.0
internal import COpenSSL
import TenderCore

/// SHA-256 through OpenSSL (EVP_Digest with EVP_sha256).
public enum SHA256 {
    /// The 32-byte digest of `bytes`.
    public static func hash(_ bytes: [UInt8]) throws(TenderError) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        guard EVP_Digest(bytes, bytes.count, &digest, &length, EVP_sha256(), nil) == 1, length == 32 else {
            throw OpenSSLError.failure("EVP_Digest")
        }
        return digest
    }
}
