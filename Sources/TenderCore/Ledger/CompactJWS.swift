// SPDX-License-Identifier: Apache-2.0
/// A JWS in compact serialization (RFC 7515 §7.1): header.payload.signature,
/// each base64url, signed with Ed25519 (alg "Ed25519", RFC 9864).
public struct CompactJWS: Sendable {
    /// The algorithm names accepted when verifying; "Ed25519" is written.
    public static let acceptedAlgorithms: Set<String> = ["Ed25519", "EdDSA"]

    public let text: String
    public let keyID: String
    public let algorithm: String
    public let payload: [UInt8]
    public let signature: [UInt8]

    /// The bytes the signature covers: the first two parts and the dot between them.
    public var signingInput: [UInt8] {
        let bytes = Array(text.utf8)
        guard let end = signingInputEnd ?? bytes.lastIndex(of: UInt8(ascii: ".")) else { return [] }
        return Array(bytes[..<end])
    }

    /// Signs `payload` with `signer`, header `{"alg":"Ed25519","kid":...}`.
    public static func sign(payload: [UInt8], signer: any RecordSigner) throws(TenderError) -> CompactJWS {
        let input = encodedHeader(keyID: signer.keyID) + "." + Base64URL.encode(payload)
        let signature = try signer.sign(Array(input.utf8))
        return CompactJWS(
            text: input + "." + Base64URL.encode(signature), keyID: signer.keyID, algorithm: "Ed25519", payload: payload,
            signature: signature)
    }

    /// Several payloads signed as they are added, possibly on other cores
    /// (``RecordSigner/startBatch(capacity:)``). Used by one thread; end it with
    /// ``finish()`` or ``abandon()``.
    public final class Batch {
        private let header: String
        private let signing: any SigningBatch
        private var inputs: [String] = []

        public init(signer: any RecordSigner, capacity: Int) {
            header = CompactJWS.encodedHeader(keyID: signer.keyID)
            signing = signer.startBatch(capacity: capacity)
            inputs.reserveCapacity(capacity)
        }

        /// Adds the next payload; signing may start at once. Returns its
        /// signing input (`header.payload`), which its JWS will begin with.
        @discardableResult
        public func add(payload: [UInt8]) throws(TenderError) -> String {
            let input = header + "." + Base64URL.encode(payload)
            try signing.add(Array(input.utf8))
            inputs.append(input)
            return input
        }

        /// The compact JWS of every payload, in the order added.
        public func finish() throws(TenderError) -> [String] {
            let signatures = try signing.finish()
            guard signatures.count == inputs.count else { throw .internal("the signer returned \(signatures.count) signatures for \(inputs.count)") }
            return zip(inputs, signatures).map { $0 + "." + Base64URL.encode($1) }
        }

        /// Stops signing; nothing is returned. Safe to call after ``finish()``.
        public func abandon() { signing.abandon() }
    }

    /// The base64url protected header every Tender JWS carries: `{"alg":"Ed25519","kid":...}`.
    private static func encodedHeader(keyID: String) -> String {
        Base64URL.encode(JSONWriter.bytes(.object([("alg", .string("Ed25519")), ("kid", .string(keyID))])))
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
        let bytes = Array(text.utf8)
        guard let firstDot = bytes.firstIndex(of: UInt8(ascii: ".")), let lastDot = bytes.lastIndex(of: UInt8(ascii: ".")),
            firstDot < lastDot, !bytes[(firstDot + 1)..<lastDot].contains(UInt8(ascii: "."))
        else { throw .ledgerTampered("not a compact JWS") }
        let (alg, kid) = try CompactJWS.header(bytes[..<firstDot])
        guard let payload = Base64URL.decode(bytes[(firstDot + 1)..<lastDot]), let signature = Base64URL.decode(bytes[(lastDot + 1)...])
        else { throw .ledgerTampered("not a compact JWS") }
        self.init(text: text, keyID: kid, algorithm: alg, payload: payload, signature: signature)
        signingInputEnd = lastDot
    }

    private var signingInputEnd: Int?

    /// The algorithm and key id of an encoded header.
    private static func header(_ encoded: ArraySlice<UInt8>) throws(TenderError) -> (String, String) {
        guard let bytes = Base64URL.decode(encoded) else { throw .ledgerTampered("not a compact JWS") }
        let header: JSONValue
        do throws(TenderError) { header = try JSONParser.parse(bytes) } catch { throw .ledgerTampered("the JWS header is not JSON") }
        guard let alg = header["alg"]?.stringValue, CompactJWS.acceptedAlgorithms.contains(alg) else {
            throw .ledgerTampered("the JWS algorithm is not Ed25519")
        }
        guard let kid = header["kid"]?.stringValue else { throw .ledgerTampered("the JWS header has no kid") }
        guard header["crit"] == nil else { throw .ledgerTampered("the JWS header has critical extensions") }
        return (alg, kid)
    }
}
