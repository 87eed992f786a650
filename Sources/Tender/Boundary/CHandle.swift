// SPDX-License-Identifier: Apache-2.0
import TenderCore

/// An object C holds through an opaque pointer: +1 when handed out, looked up
/// without changing the count, released once by the matching `_free`.
protocol CHandle: AnyObject {
    /// The argument name used when the pointer is NULL.
    static var argumentName: String { get }
}

extension CHandle {
    /// A +1 reference for C.
    func retainedPointer() -> OpaquePointer { OpaquePointer(Unmanaged.passRetained(self).toOpaque()) }

    /// The object behind a C pointer, without changing its count.
    static func from(_ pointer: OpaquePointer?) throws(TenderError) -> Self {
        let pointer = try Boundary.require(pointer, argumentName)
        return Unmanaged<Self>.fromOpaque(UnsafeRawPointer(pointer)).takeUnretainedValue()
    }

    /// Drops the reference C held; NULL is ignored.
    static func release(_ pointer: OpaquePointer?) {
        guard let pointer else { return }
        Unmanaged<Self>.fromOpaque(UnsafeRawPointer(pointer)).release()
    }
}
