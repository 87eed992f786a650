// SPDX-License-Identifier: Apache-2.0
// The C exports below implement include/tender.h, where each is documented
// (ownership, NULL handling, errors, thread safety); @c @implementation checks
// every signature against it.
import CTender
import TenderCore

@c @implementation
public func tender_engine_import_directory(_ engine: OpaquePointer?, _ json: UnsafePointer<CChar>?, _ json_len: Int) -> tender_result {
    Boundary.call { () throws(TenderError) in
        let handle = try EngineHandle.from(engine)
        let document = try DirectoryDocument(json: try CBuffers.json(json, json_len, "json"))
        try handle.directoryAdmin.importDirectory(document)
    }
}

@c @implementation
public func tender_engine_remove_from_directory(_ engine: OpaquePointer?, _ json: UnsafePointer<CChar>?, _ json_len: Int) -> tender_result {
    Boundary.call { () throws(TenderError) in
        let handle = try EngineHandle.from(engine)
        try handle.directoryAdmin.removeFromDirectory(try DirectoryRemoval(json: try CBuffers.json(json, json_len, "json")))
    }
}

@c @implementation
public func tender_engine_directory(
    _ engine: OpaquePointer?, _ json_out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ len_out: UnsafeMutablePointer<Int>?
) -> tender_result {
    Boundary.returningText(json_out, named: "json_out", length: len_out) { () throws(TenderError) -> String in
        let handle = try EngineHandle.from(engine)
        return JSONWriter.string(try handle.directoryAdmin.directoryDocument().json)
    }
}

@c @implementation
public func tender_engine_set_vocabulary(_ engine: OpaquePointer?, _ json: UnsafePointer<CChar>?, _ json_len: Int) -> tender_result {
    Boundary.call { () throws(TenderError) in
        let handle = try EngineHandle.from(engine)
        try handle.directoryAdmin.setVocabulary(try UserVocabulary(json: try CBuffers.json(json, json_len, "json")))
    }
}

@c @implementation
public func tender_engine_set_signed_in(_ engine: OpaquePointer?, _ signed_in: Int32) -> tender_result {
    Boundary.call { () throws(TenderError) in
        try EngineHandle.from(engine).directoryAdmin.setSignedIn(signed_in != 0)
    }
}

@c @implementation
public func tender_reply_set(_ reply: OpaquePointer?, _ json: UnsafePointer<CChar>?, _ len: Int) -> tender_result {
    Boundary.call { () throws(TenderError) in
        let box = try ReplyBox.from(reply)
        box.bytes = try CBuffers.input(json, len, "json")
    }
}
