// SPDX-License-Identifier: Apache-2.0
import TenderCore

/// How a public key is shown: PEM for openssl, JWK for JOSE libraries.
public enum PublicKeyFormat: Int32, Sendable {
    case pem = 0
    case jwk = 1

    /// The text of the raw Ed25519 `publicKey` in this format (the JWK carries `keyID`).
    public func render(publicKey: [UInt8], keyID: String) throws(TenderError) -> String {
        switch self {
        case .pem: return try Ed25519PublicKey(bytes: publicKey).pem()
        case .jwk: return JSONWriter.string(JWK.ed25519(publicKey: publicKey, keyID: keyID))
        }
    }
}
