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

    /// `value`, or ``TenderError/nullArgument(_:)`` naming the argument.
    static func require<T>(_ value: T?, _ name: String) throws(TenderError) -> T {
        guard let value else { throw .nullArgument("\(name) is NULL") }
        return value
    }
}
