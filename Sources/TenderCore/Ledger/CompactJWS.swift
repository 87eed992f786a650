/// A JWS in compact serialization (RFC 7515 §7.1): header.payload.signature,
/// each base64url, signed with Ed25519 (alg "Ed25519", RFC 9864).
public struct CompactJWS: Equatable, Sendable {
    /// The algorithm names accepted when verifying; "Ed25519" is written.
    public static let acceptedAlgorithms: Set<String> = ["Ed25519", "EdDSA"]

    public let text: String
    public let keyID: String
    public let algorithm: String
    public let payload: [UInt8]
    public let signature: [UInt8]

    /// The bytes the signature covers: the first two parts and the dot between them.
    public var signingInput: [UInt8] {
        guard let lastDot = text.utf8.lastIndex(of: UInt8(ascii: ".")) else { return [] }
        return Array(text.utf8[..<lastDot])
    }

    /// Signs `payload` with `signer`, header `{"alg":"Ed25519","kid":...}`.
    public static func sign(payload: [UInt8], signer: any RecordSigner) throws(TenderError) -> CompactJWS {
        let header = JSONWriter.string(.object([("alg", .string("Ed25519")), ("kid", .string(signer.keyID))]))
        let input = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(payload)
        let signature = try signer.sign(Array(input.utf8))
        return CompactJWS(
            text: input + "." + Base64URL.encode(signature), keyID: signer.keyID, algorithm: "Ed25519", payload: payload,
            signature: signature)
    }

    private init(text: String, keyID: String, algorithm: String, payload: [UInt8], signature: [UInt8]) {
        self.text = text
        self.keyID = keyID
        self.algorithm = algorithm
        self.payload = payload
        self.signature = signature
    }

    /// Parses compact text; throws ``TenderError/ledgerTampered(_:)`` when it is not a well-formed Ed25519 JWS with a kid.
    public init(parsing text: String) throws(TenderError) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerBytes = Base64URL.decode(parts[0]), let payload = Base64URL.decode(parts[1]),
            let signature = Base64URL.decode(parts[2])
        else { throw .ledgerTampered("not a compact JWS") }
        let header: JSONValue
        do throws(TenderError) { header = try JSONParser.parse(headerBytes) } catch { throw .ledgerTampered("the JWS header is not JSON") }
        guard let alg = header["alg"]?.stringValue, CompactJWS.acceptedAlgorithms.contains(alg) else {
            throw .ledgerTampered("the JWS algorithm is not Ed25519")
        }
        guard let kid = header["kid"]?.stringValue else { throw .ledgerTampered("the JWS header has no kid") }
        guard header["crit"] == nil else { throw .ledgerTampered("the JWS header has critical extensions") }
        self.init(text: text, keyID: kid, algorithm: alg, payload: payload, signature: signature)
    }
}
