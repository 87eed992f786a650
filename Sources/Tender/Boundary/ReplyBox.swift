// SPDX-License-Identifier: Apache-2.0
import TenderCore

/// What a `tender_reply *` points to while a host callback runs: the JSON
/// the host answered with.
final class ReplyBox {
    var bytes: [UInt8]?

    /// Runs `body` with a `tender_reply *` for this box; the pointer is valid only during `body`.
    func withPointer<T>(_ body: (OpaquePointer) -> T) -> T {
        withExtendedLifetime(self) { body(OpaquePointer(Unmanaged.passUnretained(self).toOpaque())) }
    }

    static func from(_ pointer: OpaquePointer?) throws(TenderError) -> ReplyBox {
        let pointer = try Boundary.require(pointer, "reply")
        return Unmanaged<ReplyBox>.fromOpaque(UnsafeRawPointer(pointer)).takeUnretainedValue()
    }
}
