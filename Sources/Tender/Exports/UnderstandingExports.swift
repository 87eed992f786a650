// SPDX-License-Identifier: Apache-2.0
// The C exports below implement include/tender.h, where each is documented
// (ownership, NULL handling, errors, thread safety); @c @implementation checks
// every signature against it.
import CTender
import TenderCore
import TenderStore

@c @implementation
public func tender_engine_parse(
    _ engine: OpaquePointer?, _ text: UnsafePointer<CChar>?, _ text_len: Int, _ json_out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
    _ len_out: UnsafeMutablePointer<Int>?
) -> tender_result {
    Boundary.returningText(json_out, named: "json_out", length: len_out) { () throws(TenderError) -> String in
        let handle = try EngineHandle.from(engine)
        let said = try CBuffers.text(text, text_len, "text")
        return JSONWriter.string(try TextParser.parse(said, context: try handle.parseContext()).json)
    }
}

@c @implementation
public func tender_engine_parse_alternatives(
    _ engine: OpaquePointer?, _ json: UnsafePointer<CChar>?, _ json_len: Int, _ json_out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
    _ len_out: UnsafeMutablePointer<Int>?
) -> tender_result {
    Boundary.returningText(json_out, named: "json_out", length: len_out) { () throws(TenderError) -> String in
        let handle = try EngineHandle.from(engine)
        let alternatives = try Alternatives(json: try CBuffers.json(json, json_len, "json"))
        return JSONWriter.string(try TextParser.parse(alternatives: alternatives.items, context: try handle.parseContext()).json)
    }
}

@c @implementation
public func tender_parse(
    _ text: UnsafePointer<CChar>?, _ text_len: Int, _ json_out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ len_out: UnsafeMutablePointer<Int>?
) -> tender_result {
    Boundary.returningText(json_out, named: "json_out", length: len_out) { () throws(TenderError) -> String in
        let said = try CBuffers.text(text, text_len, "text")
        return JSONWriter.string(try TextParser.parse(said, context: ParseContext(today: SystemClock().today())).json)
    }
}

@c @implementation
public func tender_engine_add_shortcut(_ engine: OpaquePointer?, _ json: UnsafePointer<CChar>?, _ json_len: Int) -> tender_result {
    Boundary.call { () throws(TenderError) in
        let handle = try EngineHandle.from(engine)
        try handle.directoryAdmin.addShortcut(try Shortcut(json: try CBuffers.json(json, json_len, "json"), custom: handle.engine.customIntents))
    }
}

@c @implementation
public func tender_engine_remove_shortcut(_ engine: OpaquePointer?, _ phrase: UnsafePointer<CChar>?, _ phrase_len: Int) -> tender_result {
    Boundary.call { () throws(TenderError) in
        let handle = try EngineHandle.from(engine)
        try handle.directoryAdmin.removeShortcut(phrase: try CBuffers.text(phrase, phrase_len, "phrase"))
    }
}

@c @implementation
public func tender_session_new_from_text(
    _ engine: OpaquePointer?, _ text: UnsafePointer<CChar>?, _ text_len: Int, _ session_out: UnsafeMutablePointer<OpaquePointer?>?
) -> tender_result {
    Boundary.call { () throws(TenderError) in
        let owner = try EngineHandle.from(engine)
        let out = try Boundary.require(session_out, "session_out")
        let result = try TextParser.parse(try CBuffers.text(text, text_len, "text"), context: try owner.parseContext())
        guard let intent = result.sessionIntent else { throw .outOfScope("the text is not a request Tender handles") }
        out.pointee = SessionHandle(owner: owner, session: try owner.assembled.session(intent: intent)).retainedPointer()
    }
}
