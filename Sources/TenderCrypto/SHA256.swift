// SPDX-License-Identifier: Apache-2.0
internal import COpenSSL
import TenderCore

/// SHA-256 through OpenSSL (EVP_Digest), with the algorithm fetched once for the process.
public enum SHA256 {
    /// OpenSSL's SHA-256 implementation, fetched once (`EVP_MD_fetch`); nil when the fetch failed, and
    /// `EVP_sha256()` is used instead (OpenSSL then looks the implementation up again at every digest, as
    /// before: about a microsecond a digest, several a payment). Never freed; an EVP_MD is safe to share
    /// between threads once fetched.
    nonisolated(unsafe) private static let fetched: OpaquePointer? = EVP_MD_fetch(nil, "SHA256", nil)

    /// Whether digests use the implementation fetched once (false: OpenSSL looks it up at each digest).
    public static var usesFetchedImplementation: Bool { fetched != nil }

    /// The 32-byte digest of `bytes`.
    public static func hash(_ bytes: [UInt8]) throws(TenderError) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        guard EVP_Digest(bytes, bytes.count, &digest, &length, fetched ?? EVP_sha256(), nil) == 1, length == 32 else {
            throw OpenSSLError.failure("EVP_Digest")
        }
        return digest
    }
}
