// SPDX-License-Identifier: Apache-2.0
internal import Glibc

/// The detailed message of the last failed call, one per thread (a
/// pthread key whose destructor frees the thread's text), as
/// tender_last_error() returns it.
enum LastError {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { free($0) }
        return key
    }()

    private static let empty: StaticString = ""

    /// Replaces the calling thread's message.
    static func set(_ message: String) {
        let previous = pthread_getspecific(key)
        guard let copy = strdup(message) else { return }
        pthread_setspecific(key, copy)
        free(previous)
    }

    /// The calling thread's message, or empty text; valid until the next `set` on this thread.
    static var current: UnsafePointer<CChar> {
        if let message = pthread_getspecific(key) { return UnsafePointer(message.assumingMemoryBound(to: CChar.self)) }
        return UnsafeRawPointer(empty.utf8Start).assumingMemoryBound(to: CChar.self)
    }
}
