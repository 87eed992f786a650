// SPDX-License-Identifier: Apache-2.0
// The C exports below implement include/tender.h, where each is documented
// (ownership, NULL handling, errors, thread safety); @c @implementation checks
// every signature against it.
import CTender

/// The library's version: tender.h's TENDER_VERSION_* macros, which the Makefile writes from VERSION.
enum LibraryVersion {
    static let number = UInt32(TENDER_VERSION_MAJOR) * 10000 + UInt32(TENDER_VERSION_MINOR) * 100 + UInt32(TENDER_VERSION_PATCH)
    /// TENDER_VERSION_STRING as NUL-terminated text that lives as long as the process (never freed).
    nonisolated(unsafe) static let text: UnsafePointer<CChar> = {
        let utf8 = Array(TENDER_VERSION_STRING.utf8CString)
        let copy = UnsafeMutablePointer<CChar>.allocate(capacity: utf8.count)
        copy.initialize(from: utf8, count: utf8.count)
        return UnsafePointer(copy)
    }()
}

@c @implementation
public func tender_version_number() -> UInt32 {
    LibraryVersion.number
}

@c @implementation
public func tender_version_string() -> UnsafePointer<CChar>? {
    LibraryVersion.text
}
