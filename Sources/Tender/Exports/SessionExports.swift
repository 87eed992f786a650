// SPDX-License-Identifier: Apache-2.0
// The C exports below implement include/tender.h, where each is documented
// (ownership, NULL handling, errors, thread safety); @c @implementation checks
// every signature against it.
import CTender
import TenderCore

@c @implementation
public func tender_session_new(
    _ engine: OpaquePointer?, _ intent_json: UnsafePointer<CChar>?, _ intent_len: Int,
    _ session_out: UnsafeMutablePointer<OpaquePointer?>?
) -> tender_result {
    Boundary.call { () throws(TenderError) in
        let owner = try EngineHandle.from(engine)
        let out = try Boundary.require(session_out, "session_out")
        let session = try owner.assembled.session(intent: try CBuffers.json(intent_json, intent_len, "intent_json"))
        out.pointee = SessionHandle(owner: owner, session: session).retainedPointer()
    }
}

@c @implementation
public func tender_session_free(_ session: OpaquePointer?) {
    SessionHandle.release(session)
}

@c @implementation
public func tender_session_set_conversation(
    _ session: OpaquePointer?, _ conversation: tender_conversation_fn?, _ userdata: UnsafeMutableRawPointer?
) -> tender_result {
    Boundary.call { () throws(TenderError) in
        let handle = try SessionHandle.from(session)
        handle.session.conversation = conversation.map { HostConversation(function: $0, userdata: userdata) }
    }
}

@c @implementation
public func tender_session_resolve(
    _ session: OpaquePointer?, _ json_out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ len_out: UnsafeMutablePointer<Int>?
) -> tender_result {
    Boundary.returningText(json_out, named: "json_out", length: len_out) { () throws(TenderError) -> String in
        let handle = try SessionHandle.from(session)
        return JSONWriter.string(try handle.session.resolveJSON())
    }
}

@c @implementation
public func tender_session_answer(_ session: OpaquePointer?, _ answer_json: UnsafePointer<CChar>?, _ answer_len: Int) -> tender_result {
    Boundary.call { () throws(TenderError) in
        let handle = try SessionHandle.from(session)
        try handle.session.answer(try Answer(json: try CBuffers.json(answer_json, answer_len, "answer_json")))
    }
}

@c @implementation
public func tender_session_agree(_ session: OpaquePointer?, _ yes: Int32) -> tender_result {
    Boundary.call { () throws(TenderError) in
        try SessionHandle.from(session).session.agree(yes != 0)
    }
}

@c @implementation
public func tender_session_reply(
    _ session: OpaquePointer?, _ text: UnsafePointer<CChar>?, _ text_len: Int, _ json_out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
    _ len_out: UnsafeMutablePointer<Int>?
) -> tender_result {
    Boundary.returningText(json_out, named: "json_out", length: len_out) { () throws(TenderError) -> String in
        let handle = try SessionHandle.from(session)
        return JSONWriter.string(try handle.session.replyDocument(try CBuffers.text(text, text_len, "text")))
    }
}

@c @implementation
public func tender_session_confirm(
    _ session: OpaquePointer?, _ code_out: UnsafeMutablePointer<tender_response_code>?,
    _ outcome_out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ len_out: UnsafeMutablePointer<Int>?
) -> tender_result {
    Boundary.call { () throws(TenderError) in
        let handle = try SessionHandle.from(session)
        let codeOut = try Boundary.require(code_out, "code_out")
        let (code, response) = try handle.session.confirm()
        try CBuffers.write(JSONWriter.string(response), to: outcome_out, length: len_out)
        codeOut.pointee = code.rawValue
    }
}

@c @implementation
public func tender_session_handle(
    _ session: OpaquePointer?, _ code_out: UnsafeMutablePointer<tender_response_code>?,
    _ outcome_out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ len_out: UnsafeMutablePointer<Int>?
) -> tender_result {
    Boundary.call { () throws(TenderError) in
        let handle = try SessionHandle.from(session)
        let codeOut = try Boundary.require(code_out, "code_out")
        let (code, outcome) = try handle.session.handleDocument()
        try CBuffers.write(JSONWriter.string(outcome), to: outcome_out, length: len_out)
        codeOut.pointee = code.rawValue
    }
}
