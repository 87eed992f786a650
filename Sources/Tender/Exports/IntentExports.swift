// SPDX-License-Identifier: Apache-2.0
// The C exports below implement include/tender.h, where each is documented
// (ownership, NULL handling, errors, thread safety); @c @implementation checks
// every signature against it.
import CTender
import TenderCore
import TenderWiring

@c @implementation
public func tender_engine_add_intents(_ engine: OpaquePointer?, _ json: UnsafePointer<CChar>?, _ json_len: Int) -> tender_result {
    Boundary.call { () throws(TenderError) in
        let handle = try EngineHandle.from(engine)
        try refuseBrokered(handle)
        try handle.engine.customIntents.add(try CBuffers.json(json, json_len, "json"))
    }
}

@c @implementation
public func tender_engine_add_intents_file(_ engine: OpaquePointer?, _ path: UnsafePointer<CChar>?, _ path_len: Int) -> tender_result {
    Boundary.call { () throws(TenderError) in
        let handle = try EngineHandle.from(engine)
        try refuseBrokered(handle)
        let file = try CBuffers.text(path, path_len, "path")
        guard !file.isEmpty, !file.contains("\0") else { throw .invalidArgument("path must name a file") }
        do throws(TenderError) {
            try handle.engine.customIntents.add(try EngineFactory.readJSON(file, what: "definition file"))
        } catch {
            throw error.withMessage("\(file): \(error.message)")
        }
    }
}

@c @implementation
public func tender_engine_set_intent_host(_ engine: OpaquePointer?, _ host: UnsafePointer<tender_intent_host>?) -> tender_result {
    Boundary.call { () throws(TenderError) in
        let handle = try EngineHandle.from(engine)
        handle.engine.customIntents.setHost(try host.map { (pointer) throws(TenderError) in try HostIntentHandler(pointer.pointee) })
    }
}

/// Custom intents run in process: a brokered engine's sessions run in tenderd, which knows only the built-in intents.
private func refuseBrokered(_ handle: EngineHandle) throws(TenderError) {
    guard handle.assembled.broker == nil else {
        throw .invalidArgument("custom intents run in process: a brokered engine (tenderd) runs the built-in intents only")
    }
}
