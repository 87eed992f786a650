// SPDX-License-Identifier: Apache-2.0
internal import Glibc
import TenderCore

/// An object C holds through an opaque pointer: +1 when handed out, looked up
/// without changing the count, released once by the matching `_free`. It belongs
/// to the process that made it: after fork() a child's lookup is refused and its
/// `_free` lets the object go without closing anything (tender.h, fork()).
protocol CHandle: AnyObject {
    /// The argument name used when the pointer is NULL.
    static var argumentName: String { get }
    /// The process that made the object (`getpid()` then).
    var process: pid_t { get }
}

extension CHandle {
    /// A +1 reference for C.
    func retainedPointer() -> OpaquePointer { OpaquePointer(Unmanaged.passRetained(self).toOpaque()) }

    /// The object behind a C pointer, without changing its count. Throws ``TenderError/wrongState(_:)`` in a child
    /// process the object was inherited by through fork(): its connections, locks and threads are the parent's (a
    /// lock a parent's thread held at the fork is never released in the child, and SQLite forbids carrying a
    /// connection across fork()), so using it would hang or corrupt.
    static func from(_ pointer: OpaquePointer?) throws(TenderError) -> Self {
        let pointer = try Boundary.require(pointer, argumentName)
        let object = Unmanaged<Self>.fromOpaque(UnsafeRawPointer(pointer)).takeUnretainedValue()
        guard object.process == getpid() else {
            throw .wrongState(
                "this \(argumentName) belongs to process \(object.process), which forked this one (\(getpid())): "
                    + "a child process opens engines of its own (tender.h, fork())")
        }
        return object
    }

    /// Drops the reference C held; NULL is ignored. In a child process that inherited the object through fork(),
    /// nothing is released: closing the parent's connections there is what SQLite forbids, so the child lets them be.
    static func release(_ pointer: OpaquePointer?) {
        guard let pointer else { return }
        let object = Unmanaged<Self>.fromOpaque(UnsafeRawPointer(pointer))
        guard object.takeUnretainedValue().process == getpid() else { return }
        object.release()
    }
}
