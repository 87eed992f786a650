// SPDX-License-Identifier: Apache-2.0
internal import COpenSSL
import TenderCore

/// Turns OpenSSL's thread-local error queue into one ``TenderError/crypto(_:)``.
enum OpenSSLError {
    /// The error for a failed `operation`, with OpenSSL's first reason; clears the queue.
    static func failure(_ operation: String) -> TenderError {
        let code = ERR_get_error()
        var reason = "no detail"
        if code != 0 {
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            reason = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        ERR_clear_error()
        return .crypto("OpenSSL \(operation) failed: \(reason)")
    }
}
