// SPDX-License-Identifier: Apache-2.0
import TenderCore

/// Reads an Ed25519 public key given as text: SubjectPublicKeyInfo PEM or an
/// RFC 8037 OKP JWK; names it by its RFC 7638 thumbprint.
public enum PublicKeyText {
    /// The key id and raw key of `text`; throws ``TenderError/invalidArgument(_:)`` for anything else.
    public static func parse(_ text: String) throws(TenderError) -> (keyID: String, publicKey: [UInt8]) {
        let raw: [UInt8]
        let text = String(text.drop { $0.isWhitespace })
        if text.hasPrefix("-----BEGIN PUBLIC KEY-----") {
            do throws(TenderError) { raw = try Ed25519PublicKey(pem: Array(text.utf8)).bytes } catch {
                throw .invalidArgument("the PEM text is not an Ed25519 public key")
            }
        } else {
            let jwk: JSONValue
            do throws(TenderError) { jwk = try JSONParser.parse(text) } catch {
                throw .invalidArgument("the key is neither an Ed25519 PEM public key nor an Ed25519 JWK")
            }
            guard jwk["kty"]?.stringValue == "OKP", jwk["crv"]?.stringValue == "Ed25519", let x = jwk["x"]?.stringValue,
                let bytes = Base64URL.decode(x), bytes.count == 32
            else { throw .invalidArgument("the key is neither an Ed25519 PEM public key nor an Ed25519 JWK") }
            raw = bytes
            let thumbprint = try JWK.ed25519Thumbprint(publicKey: raw, crypto: OpenSSLLedgerCrypto())
            if let kid = jwk["kid"] {
                guard kid.stringValue == thumbprint else { throw .invalidArgument("the JWK's kid is not its RFC 7638 thumbprint") }
            }
            return (thumbprint, raw)
        }
        return (try JWK.ed25519Thumbprint(publicKey: raw, crypto: OpenSSLLedgerCrypto()), raw)
    }
}
