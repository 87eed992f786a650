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
public func tender_engine_audit(
    _ engine: OpaquePointer?, _ json_out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ len_out: UnsafeMutablePointer<Int>?
) -> tender_result {
    Boundary.returningText(json_out, named: "json_out", length: len_out) { () throws(TenderError) -> String in
        let handle = try EngineHandle.from(engine)
        return JSONWriter.string(.array(try handle.store.auditEntries().map(\.json)))
    }
}
