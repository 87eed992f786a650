// SPDX-License-Identifier: Apache-2.0
// The C exports below implement include/tender.h, where each is documented
// (ownership, NULL handling, errors, thread safety); @c @implementation checks
// every signature against it.
import CTender
import TenderCore

@c @implementation
public func tender_engine_new(
    _ config_json: UnsafePointer<CChar>?, _ config_len: Int, _ engine_out: UnsafeMutablePointer<OpaquePointer?>?
) -> tender_result {
    Boundary.call { () throws(TenderError) in
        let out = try Boundary.require(engine_out, "engine_out")
        let configuration = try EngineConfiguration(json: try CBuffers.json(config_json, config_len, "config_json"))
        out.pointee = try EngineHandle(configuration: configuration).retainedPointer()
    }
}

@c @implementation
public func tender_engine_new_with_host(
    _ config_json: UnsafePointer<CChar>?, _ config_len: Int, _ host: UnsafePointer<tender_host>?,
    _ engine_out: UnsafeMutablePointer<OpaquePointer?>?
) -> tender_result {
    Boundary.call { () throws(TenderError) in
        let out = try Boundary.require(engine_out, "engine_out")
        let callbacks = try HostCallbacks(try Boundary.require(host, "host").pointee)
        let configuration = try EngineConfiguration(json: try CBuffers.json(config_json, config_len, "config_json"))
        out.pointee = try EngineHandle(configuration: configuration, host: callbacks).retainedPointer()
    }
}

@c @implementation
public func tender_engine_free(_ engine: OpaquePointer?) {
    EngineHandle.release(engine)
}

@c @implementation
public func tender_engine_payments(
    _ engine: OpaquePointer?, _ json_out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ len_out: UnsafeMutablePointer<Int>?
) -> tender_result {
    Boundary.returningText(json_out, named: "json_out", length: len_out) { () throws(TenderError) -> String in
        let handle = try EngineHandle.from(engine)
        let records = try handle.engine.ledger.records()
        return "[" + records.map(\.json).joined(separator: ",") + "]"
    }
}

@c @implementation
public func tender_engine_set_payment_status(
    _ engine: OpaquePointer?, _ idempotency_key: UnsafePointer<CChar>?, _ key_len: Int, _ status: UnsafePointer<CChar>?,
    _ status_len: Int, _ record_out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ record_len_out: UnsafeMutablePointer<Int>?,
    _ jws_out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ jws_len_out: UnsafeMutablePointer<Int>?
) -> tender_result {
    Boundary.call { () throws(TenderError) in
        let handle = try EngineHandle.from(engine)
        let key = try CBuffers.text(idempotency_key, key_len, "idempotency_key")
        let name = try CBuffers.text(status, status_len, "status")
        let recordOut = try Boundary.require(record_out, "record_out")
        let jwsOut = try Boundary.require(jws_out, "jws_out")
        guard let next = PaymentStatus(rawValue: name) else {
            throw .invalidArgument("\"\(name.prefix(40))\" is not a payment status (completed, canceled or failed)")
        }
        let record = try handle.engine.ledger.changeStatus(idempotencyKey: key, to: next)
        try CBuffers.publish(record, json: recordOut, length: record_len_out, jws: jwsOut, length: jws_len_out)
    }
}

@c @implementation
public func tender_engine_audit(
    _ engine: OpaquePointer?, _ json_out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ len_out: UnsafeMutablePointer<Int>?
) -> tender_result {
    Boundary.returningText(json_out, named: "json_out", length: len_out) { () throws(TenderError) -> String in
        let handle = try EngineHandle.from(engine)
        return JSONWriter.string(.array(try handle.ledgerAdmin.auditEntries().map(\.json)))
    }
}
