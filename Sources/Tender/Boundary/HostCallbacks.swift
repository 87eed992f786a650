import CTender
import TenderCore

/// The host's `tender_host` callbacks, copied at engine creation. The host
/// promises they are thread-safe and that `userdata` outlives the engine.
struct HostCallbacks: @unchecked Sendable {
    let host: tender_host

    init(_ host: tender_host) throws(TenderError) {
        guard host.lookup != nil else { throw .nullArgument("host->lookup is NULL") }
        guard host.send != nil else { throw .nullArgument("host->send is NULL") }
        self.host = host
    }

    /// The host's answer to `lookup(what)`, parsed as a directory document.
    func lookup(_ what: String) throws(TenderError) -> DirectoryDocument {
        guard let lookup = host.lookup else { throw .nullArgument("host->lookup is NULL") }
        let box = ReplyBox()
        let status = box.withPointer { reply in what.withCString { lookup(host.userdata, $0, reply) } }
        guard status == 0 else { throw .store("the host's lookup callback failed for \(what)") }
        guard let bytes = box.bytes else { throw .store("the host's lookup callback answered nothing for \(what)") }
        do {
            return try DirectoryDocument(json: try JSONInput.parse(bytes))
        } catch {
            throw .store("the host's \(what) are not a valid directory document: \(error.message)")
        }
    }

    /// Calls `can_send` (nil: ready) or `send` with the payment JSON.
    func call(send: Bool, _ payment: JSONValue) throws(TenderError) -> ResponseCode {
        let function = send ? host.send : host.can_send
        guard let function else { return .ready }
        let text = JSONWriter.string(payment)
        var code: tender_response_code = -1
        let status = text.withCString { function(host.userdata, $0, text.utf8.count, &code) }
        let name = send ? "send" : "can_send"
        guard status == 0 else { throw .store("the host's \(name) callback failed") }
        guard let answer = ResponseCode(rawValue: code) else { throw .store("the host's \(name) callback answered an unknown response code \(code)") }
        return answer
    }
}
