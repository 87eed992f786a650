// SPDX-License-Identifier: Apache-2.0
// The C exports below implement include/tender.h, where each is documented
// (ownership, NULL handling, errors, thread safety); @c @implementation checks
// every signature against it.
import CTender

/// The library's version; kept equal to TENDER_VERSION_* in tender.h (checked by the C tests).
enum LibraryVersion {
    static let number: UInt32 = 200
    static let text: StaticString = "0.2.0"
}

@c @implementation
public func tender_version_number() -> UInt32 {
    LibraryVersion.number
}

@c @implementation
public func tender_version_string() -> UnsafePointer<CChar>? {
    UnsafeRawPointer(LibraryVersion.text.utf8Start).assumingMemoryBound(to: CChar.self)
}
