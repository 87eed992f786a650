import ArgumentParser
import TenderCore
import TenderCrypto

/// A public key given on the command line, as PEM or JWK, keyed by its thumbprint.
enum TrustedKey {
    static func load(_ path: String) throws -> [String: [UInt8]] {
        let text = try TextFile.read(path)
        let raw: [UInt8]
        if text.contains("-----BEGIN PUBLIC KEY-----") {
            raw = try Ed25519PublicKey(pem: Array(text.utf8)).bytes
        } else {
            let jwk = try JSONParser.parse(text)
            guard jwk["kty"]?.stringValue == "OKP", jwk["crv"]?.stringValue == "Ed25519", let x = jwk["x"]?.stringValue,
                let bytes = Base64URL.decode(x), bytes.count == 32
            else { throw ValidationError("\(path) is neither an Ed25519 PEM public key nor an Ed25519 JWK") }
            raw = bytes
        }
        return [try JWK.ed25519Thumbprint(publicKey: raw, crypto: OpenSSLLedgerCrypto()): raw]
    }
}
