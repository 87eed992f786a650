// SPDX-License-Identifier: Apache-2.0
import CTender
import TenderCore

/// The ``CustomIntentHost`` port on the host's `tender_intent_host` callbacks, copied when
/// registered. The host promises `userdata` stays valid while the engine may call it.
struct HostIntentHandler: CustomIntentHost, @unchecked Sendable {
    let host: tender_intent_host

    /// Checks the struct's version and its required callback.
    init(_ host: tender_intent_host) throws(TenderError) {
        let known = UInt32(TENDER_INTENT_HOST_VERSION)
        guard host.version == known else {
            throw .invalidArgument("host->version is \(host.version); this libtender knows version \(known): initialise the struct with TENDER_INTENT_HOST_INIT")
        }
        guard host.handle != nil else { throw .nullArgument("host->handle is NULL") }
        self.host = host
    }

    func handle(_ request: JSONValue) throws(TenderError) -> JSONValue {
        guard let handle = host.handle else { throw .nullArgument("host->handle is NULL") }
        let text = JSONWriter.string(request)
        let box = ReplyBox()
        let status = box.withPointer { reply in text.withCString { handle(host.userdata, $0, text.utf8.count, reply) } }
        guard status == 0 else { throw .callback("the host's handle callback failed for \(request["intent"]?.stringValue ?? "the intent")") }
        return try Self.parsed(box, "handle")
    }

    func values(intent: String, parameter: String) throws(TenderError) -> [String] {
        guard let values = host.values else { throw .callback("the host has no values callback to list \(intent).\(parameter)") }
        let box = ReplyBox()
        let status = box.withPointer { reply in intent.withCString { i in parameter.withCString { p in values(host.userdata, i, p, reply) } } }
        guard status == 0 else { throw .callback("the host's values callback failed for \(intent).\(parameter)") }
        return try HostValueList.names(try Self.parsed(box, "values"))
    }

    private static func parsed(_ box: ReplyBox, _ name: String) throws(TenderError) -> JSONValue {
        guard let bytes = box.bytes else { throw .callback("the host's \(name) callback answered nothing") }
        do {
            return try JSONInput.parse(bytes)
        } catch {
            throw .callback("the host's \(name) callback answered something that is not JSON: \(error.message)")
        }
    }
}
