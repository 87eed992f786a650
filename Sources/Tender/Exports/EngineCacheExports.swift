// SPDX-License-Identifier: Apache-2.0
// The C exports below implement include/tender.h, where each is documented
// (ownership, NULL handling, errors, thread safety); @c @implementation checks
// every signature against it.
import CTender
import TenderCore

@c @implementation
public func tender_engine_cache_new(_ capacity: Int, _ cache_out: UnsafeMutablePointer<OpaquePointer?>?) -> tender_result {
    Boundary.call { () throws(TenderError) in
        let out = try Boundary.require(cache_out, "cache_out")
        out.pointee = try EngineCache(capacity: capacity).retainedPointer()
    }
}

@c @implementation
public func tender_engine_cache_get(
    _ cache: OpaquePointer?, _ config_json: UnsafePointer<CChar>?, _ config_len: Int, _ engine_out: UnsafeMutablePointer<OpaquePointer?>?
) -> tender_result {
    Boundary.call { () throws(TenderError) in
        let engines = try EngineCache.from(cache)
        let out = try Boundary.require(engine_out, "engine_out")
        let json = try CBuffers.json(config_json, config_len, "config_json")
        out.pointee = try engines.engine(json).retainedPointer()
    }
}

@c @implementation
public func tender_engine_cache_close_idle(
    _ cache: OpaquePointer?, _ idle_seconds: UInt32, _ closed_out: UnsafeMutablePointer<Int>?
) -> tender_result {
    Boundary.call { () throws(TenderError) in
        let engines = try EngineCache.from(cache)
        let closed = engines.closeIdle(seconds: Double(idle_seconds))
        closed_out?.pointee = closed
    }
}

@c @implementation
public func tender_engine_cache_count(_ cache: OpaquePointer?) -> Int {
    guard let cache else { return 0 }
    return Unmanaged<EngineCache>.fromOpaque(UnsafeRawPointer(cache)).takeUnretainedValue().count
}

@c @implementation
public func tender_engine_cache_free(_ cache: OpaquePointer?) {
    guard let cache else { return }
    let engines = Unmanaged<EngineCache>.fromOpaque(UnsafeRawPointer(cache)).takeUnretainedValue()
    engines.removeAll()
    EngineCache.release(cache)
}
