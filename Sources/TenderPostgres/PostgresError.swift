// SPDX-License-Identifier: Apache-2.0
internal import CLibPQ
import TenderCore

/// Maps libpq failures to Tender errors. Messages name the operation, the SQLSTATE and PostgreSQL's
/// primary message, never a statement's arguments (payment data is private) nor the connection string.
enum PostgresError {
    /// The error of `result` (may be nil when libpq had no result: the connection broke) on `connection`.
    static func error(_ result: OpaquePointer?, _ connection: OpaquePointer?, during operation: String) -> TenderError {
        let state = result.flatMap { PQresultErrorField($0, Int32(UInt8(ascii: "C"))) }.map { String(cString: $0) } ?? ""
        let primary = result.flatMap { PQresultErrorField($0, Int32(UInt8(ascii: "M"))) }.map { String(cString: $0) }
        let broken = connection.map { PQstatus($0) != CONNECTION_OK } ?? true
        let description = primary ?? connection.flatMap { PQerrorMessage($0) }.map { String(cString: $0) } ?? "no connection"
        let message = "PostgreSQL \(operation): \(description.oneLine)\(state.isEmpty ? "" : " (SQLSTATE \(state))")"
        // No SQLSTATE: libpq's own error, the server never answered (the connection was lost or cut).
        if broken || state.isEmpty || state.hasPrefix("08") || state.hasPrefix("57P") {
            return .storeBusy(message + "; the database cannot be reached")
        }
        switch state {
        // Serialization failure, deadlock, lock wait timed out (lock_timeout), too many connections: try again later.
        case "40001", "40P01", "55P03", "53300": return .storeBusy(message)
        default: return .store(message)
        }
    }
}

extension String {
    /// The text without the newlines libpq ends its messages with.
    var trimmingTrailingNewlines: String {
        var text = Substring(self)
        while text.last == "\n" { text = text.dropLast() }
        return String(text)
    }

    /// libpq's message on one line (it breaks and indents long ones).
    var oneLine: String {
        trimmingTrailingNewlines.split(whereSeparator: { $0 == "\n" || $0 == "\t" }).joined(separator: " ")
    }
}
