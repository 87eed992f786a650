// SPDX-License-Identifier: Apache-2.0
import CTender
import TenderCore

/// The host's `tender_host` callbacks, copied at engine creation. The host
/// promises they are thread-safe and that `userdata` outlives the engine.
struct HostCallbacks: @unchecked Sendable {
    let host: tender_host

    /// Checks the struct's version and its required callbacks.
    init(_ host: tender_host) throws(TenderError) {
        let known = UInt32(TENDER_HOST_VERSION)
        guard host.version == known else {
            let hint = host.version == 0 ? " (a struct from libtender 0.1.0, or one not initialised with TENDER_HOST_INIT)" : ""
            throw .invalidArgument("host->version is \(host.version)\(hint); this libtender knows version \(known): initialise the struct with TENDER_HOST_INIT")
        }
        guard host.lookup != nil else { throw .nullArgument("host->lookup is NULL") }
        guard host.send != nil else { throw .nullArgument("host->send is NULL") }
        self.host = host
    }

    /// The host's answer to `lookup(what)`, parsed as a directory document.
    func lookup(_ what: String) throws(TenderError) -> DirectoryDocument {
        guard let lookup = host.lookup else { throw .nullArgument("host->lookup is NULL") }
        let box = ReplyBox()
        let status = box.withPointer { reply in what.withCString { lookup(host.userdata, $0, reply) } }
        guard status == 0 else { throw .callback("the host's lookup callback failed for \(what)") }
        guard let bytes = box.bytes else { throw .callback("the host's lookup callback answered nothing for \(what)") }
        do {
            return try DirectoryDocument(json: try JSONInput.parse(bytes))
        } catch {
            throw .callback("the host's \(what) are not a valid directory document: \(error.message)")
        }
    }

    /// The host's `can_send` answer for `payment` (ready when the host has none).
    func canSend(_ payment: JSONValue) throws(TenderError) -> ResponseCode {
        guard let function = host.can_send else { return .ready }
        return try Self.ask(function, "can_send", userdata: host.userdata, payment)
    }

    /// The host's `send` answer for `payment`.
    func send(_ payment: JSONValue) throws(TenderError) -> ResponseCode {
        guard let function = host.send else { throw .nullArgument("host->send is NULL") }
        return try Self.ask(function, "send", userdata: host.userdata, payment)
    }

    private typealias PaymentFunction = @convention(c) (
        UnsafeMutableRawPointer?, UnsafePointer<CChar>?, Int, UnsafeMutablePointer<tender_response_code>?
    ) -> Int32

    private static func ask(
        _ function: PaymentFunction, _ name: String, userdata: UnsafeMutableRawPointer?, _ payment: JSONValue
    ) throws(TenderError) -> ResponseCode {
        let text = JSONWriter.string(payment)
        var code: tender_response_code = -1
        let status = text.withCString { function(userdata, $0, text.utf8.count, &code) }
        guard status == 0 else { throw .callback("the host's \(name) callback failed") }
        guard let answer = ResponseCode(rawValue: code) else { throw .callback("the host's \(name) callback answered an unknown response code \(code)") }
        return answer
    }
}
