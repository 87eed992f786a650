// SPDX-License-Identifier: Apache-2.0
// The C exports below implement include/tender.h, where each is documented
// (ownership, NULL handling, errors, thread safety); @c @implementation checks
// every signature against it.
import CTender
import TenderCore
import TenderCrypto

@c @implementation
public func tender_engine_ledger(
    _ engine: OpaquePointer?, _ json_out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ len_out: UnsafeMutablePointer<Int>?
) -> tender_result {
    Boundary.returningText(json_out, named: "json_out", length: len_out) { () throws(TenderError) -> String in
        let handle = try EngineHandle.from(engine)
        var entries: [JSONValue] = []
        for entry in try handle.ledgerAdmin.ledgerEntries() {
            let jws = try CompactJWS(parsing: entry.jws)
            let record: JSONValue
            do throws(TenderError) { record = try JSONParser.parse(jws.payload) } catch {
                throw .ledgerTampered("record \(entry.sequence): the payload is not JSON")
            }
            entries.append(.object([
                ("sequence", .number(String(entry.sequence))), ("type", record["type"] ?? .null), ("record", record),
                ("jws", .string(entry.jws)),
            ]))
        }
        return JSONWriter.string(.array(entries))
    }
}

@c @implementation
public func tender_engine_verify(
    _ engine: OpaquePointer?, _ checkpoint: UnsafePointer<CChar>?, _ checkpoint_len: Int, _ trusted_key: UnsafePointer<CChar>?,
    _ trusted_key_len: Int, _ report_out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ len_out: UnsafeMutablePointer<Int>?
) -> tender_result {
    Boundary.returningText(report_out, named: "report_out", length: len_out) { () throws(TenderError) -> String in
        let handle = try EngineHandle.from(engine)
        let checkpointText = try checkpoint.map { (_) throws(TenderError) in try CBuffers.text(checkpoint, checkpoint_len, "checkpoint") }
        var trusted: [String: [UInt8]]?
        if trusted_key != nil {
            let key = try PublicKeyText.parse(try CBuffers.text(trusted_key, trusted_key_len, "trusted_key"))
            trusted = [key.keyID: key.publicKey]
        }
        let report = try handle.ledgerAdmin.verify(checkpoint: checkpointText?.trimmingASCIIWhitespace(), trustedKeys: trusted)
        return JSONWriter.string(report.json)
    }
}

@c @implementation
public func tender_engine_checkpoint(
    _ engine: OpaquePointer?, _ jws_out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ len_out: UnsafeMutablePointer<Int>?
) -> tender_result {
    Boundary.returningText(jws_out, named: "jws_out", length: len_out) { () throws(TenderError) -> String in
        let handle = try EngineHandle.from(engine)
        return try handle.ledgerAdmin.checkpoint()
    }
}

@c @implementation
public func tender_engine_public_key(
    _ engine: OpaquePointer?, _ format: tender_key_format, _ key_out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
    _ len_out: UnsafeMutablePointer<Int>?
) -> tender_result {
    Boundary.returningText(key_out, named: "key_out", length: len_out) { () throws(TenderError) -> String in
        let handle = try EngineHandle.from(engine)
        guard let keyFormat = PublicKeyFormat(rawValue: format) else { throw .invalidArgument("unknown key format \(format)") }
        let key = try handle.ledgerAdmin.activeKey()
        return try keyFormat.render(publicKey: key.publicKey, keyID: key.keyID)
    }
}

@c @implementation
public func tender_engine_rotate_key(
    _ engine: OpaquePointer?, _ kid_out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ len_out: UnsafeMutablePointer<Int>?
) -> tender_result {
    Boundary.returningText(kid_out, named: "kid_out", length: len_out) { () throws(TenderError) -> String in
        let handle = try EngineHandle.from(engine)
        return try handle.ledgerAdmin.rotateKey().keyID
    }
}
