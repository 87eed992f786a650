// SPDX-License-Identifier: Apache-2.0
import CTender
import TenderCore

/// Runs the body of every fallible export: a thrown error becomes its C
/// code and the calling thread's last message. Nothing thrown crosses into C.
enum Boundary {
    static func call(_ body: () throws(TenderError) -> Void) -> tender_result {
        do throws(TenderError) {
            try body()
            return ResultCode.ok
        } catch {
            LastError.set(error.message)
            return ResultCode.of(error)
        }
    }

    /// Runs an export that answers with text through a `char **` / `size_t *`
    /// pair: the output pointer is required before `body` runs, so a NULL one
    /// changes nothing, and the text is published only once `body` succeeded.
    static func returningText(
        _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, named name: String, length: UnsafeMutablePointer<Int>?,
        _ body: () throws(TenderError) -> String
    ) -> tender_result {
        call { () throws(TenderError) in
            let required = try require(out, name)
            try CBuffers.write(try body(), to: required, length: length)
        }
    }

    /// `value`, or ``TenderError/nullArgument(_:)`` naming the argument.
    static func require<T>(_ value: T?, _ name: String) throws(TenderError) -> T {
        guard let value else { throw .nullArgument("\(name) is NULL") }
        return value
    }
}
