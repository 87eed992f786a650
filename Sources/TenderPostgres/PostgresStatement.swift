// SPDX-License-Identifier: Apache-2.0
internal import CLibPQ
import TenderCore
import TenderStore

/// A statement of the store's SQL on a ``PostgresConnection``, with its arguments bound. It is sent in the
/// connection's next round trip: ``step()`` sends it (with whatever its connection queued before it) and waits for
/// its rows (libpq returns the whole result at once; its rows are then read one at a time); ``run()``, which reads no
/// row, only queues it, and its answer is read with the next round trip's (``PostgresConnection``), so a transaction's
/// writes travel together with its next read or its COMMIT. A read made ahead (``PostgresDatabase/ahead(_:_:)``) is queued
/// when it is made and keeps its answer; its first step waits for the round trip that carries it. Text arguments go as text, [UInt8] as binary bytea; results
/// come back as text. Belongs to its connection and one thread.
final class PostgresStatement: StoreStatement {
    private unowned let owner: PostgresConnection
    /// The store's SQL (the key of its preparation on the connection).
    let sql: String
    /// Every argument's bytes, one after another (text and integers NUL-terminated), in one allocation; ends with
    /// a spare 0 byte, so it is never empty and an empty value's pointer is never nil (nil is SQL NULL to libpq).
    private var storage: [UInt8] = []
    /// Each argument's offset in `storage`; -1 for NULL.
    private var offsets: [Int] = []
    /// Each argument's length (bytes; libpq reads it for binary values only), then each one's format (1 binary, 0
    /// text): the two arrays libpq takes, in one allocation.
    private var lengthsAndFormats: [Int32] = []
    private var result: OpaquePointer?
    /// Sent (queued or answered): it is never sent twice.
    private(set) var sent = false
    private var row = -1

    /// Binds `arguments` (``StoreBindable``) to the store's `sql` on `owner`; sends nothing. Throws
    /// ``TenderError/invalidArgument(_:)`` for text holding a NUL character, which PostgreSQL cannot keep
    /// (and which libpq would otherwise cut short).
    init(owner: PostgresConnection, sql: String, arguments: [(any StoreBindable)?]) throws(TenderError) {
        self.owner = owner
        self.sql = sql
        let count = arguments.count
        guard count > 0 else {
            storage = [0]
            return
        }
        offsets = [Int](repeating: -1, count: count)
        lengthsAndFormats = [Int32](repeating: 0, count: 2 * count)
        // One allocation for every argument's bytes (a payment's call binds a whole JWS among 26), not one per doubling.
        storage.reserveCapacity(arguments.reduce(1) { (total, argument) -> Int in
            switch argument?.storeValue ?? .null {
            case .null: total
            case let .text(text): total + text.utf8.count + 1
            case .integer: total + 21
            case let .bytes(bytes): total + bytes.count
            }
        })
        for (index, argument) in arguments.enumerated() {
            let start = storage.count
            switch argument?.storeValue ?? .null {
            case .null:
                continue
            case let .text(text):
                storage.append(contentsOf: text.utf8)
                guard !storage[start...].contains(0) else { throw .invalidArgument("text holding a NUL character cannot be stored") }
                storage.append(0)
            case let .integer(number):
                Self.appendDecimal(number, to: &storage)
                storage.append(0)
            case let .bytes(bytes):
                storage.append(contentsOf: bytes)
                lengthsAndFormats[count + index] = 1
            }
            offsets[index] = start
            lengthsAndFormats[index] = Int32(storage.count - start)
        }
        storage.append(0)
    }

    /// Appends `number` in decimal ASCII digits (as `String(number)` spells it, without making the string).
    private static func appendDecimal(_ number: Int64, to bytes: inout [UInt8]) {
        if number < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = number.magnitude
        let start = bytes.count
        repeat {
            bytes.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        bytes[start...].reverse()
    }

    /// The arguments as libpq takes them: pointers into one buffer of their bytes (alive and in place while `body`
    /// runs; no copy per argument, the pointers on the stack), lengths and formats (nil when there is no argument).
    func withArguments<T>(
        _ body: (Int32, UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?, UnsafePointer<Int32>?) -> T
    ) -> T {
        let count = offsets.count
        return storage.withUnsafeBufferPointer { bytes in
            let base = UnsafeRawPointer(bytes.baseAddress!).assumingMemoryBound(to: CChar.self)
            return withUnsafeTemporaryAllocation(of: UnsafePointer<CChar>?.self, capacity: max(1, count)) { pointers in
                for (index, offset) in offsets.enumerated() { pointers[index] = offset < 0 ? nil : base + offset }
                return lengthsAndFormats.withUnsafeBufferPointer { sizes in
                    guard let sizes = sizes.baseAddress else { return body(0, nil, nil, nil) }
                    return body(Int32(count), UnsafePointer(pointers.baseAddress), sizes, sizes + count)
                }
            }
        }
    }

    deinit { PQclear(result) }

    /// Marks it sent: its connection put it in a round trip.
    func markSent() { sent = true }

    /// Queued as a read made ahead (``PostgresConnection/queueRead(_:)``) and not answered yet: its first step waits for
    /// the round trip that carries it.
    private(set) var awaiting = false
    /// Queued as a read made ahead: its answer is kept when its round trip comes (again, should it be sent again).
    private(set) var madeAhead = false

    /// Marks it queued as a read made ahead.
    func markAwaiting() {
        sent = true
        awaiting = true
        madeAhead = true
    }

    /// Its answer (owned by it from now), or nil when its round trip failed before answering it.
    func receive(_ answer: OpaquePointer?) {
        awaiting = false
        PQclear(result)
        result = answer
    }

    func step() throws(TenderError) -> Bool {
        if !sent { result = try owner.send(self) }
        if awaiting {
            try owner.flush()
            // Still unanswered (the round trip failed before it): the transaction fails with that failure.
            guard !awaiting else { throw owner.queuedFailure ?? .store("PostgreSQL: a read made ahead went unanswered") }
        }
        guard let result else { return false }
        row += 1
        return row < Int(PQntuples(result))
    }

    /// Queues the statement for its connection's next round trip (its answer is read then, and its failure thrown by
    /// that round trip, inside the same transaction); a statement stepped already reads its remaining rows.
    func run() throws(TenderError) {
        guard sent else { return try owner.queue(self) }
        // A read made ahead, run for its effect: nothing to wait for before its round trip.
        guard !awaiting else { return }
        while try step() {}
    }

    func rows<T>(_ read: (any StoreStatement) throws(TenderError) -> T) throws(TenderError) -> [T] {
        var out: [T] = []
        while try step() { out.append(try read(self)) }
        return out
    }

    func isNull(_ column: Int32) -> Bool {
        guard let result, row >= 0, row < Int(PQntuples(result)), column < PQnfields(result) else { return true }
        return PQgetisnull(result, Int32(row), column) != 0
    }

    func text(_ column: Int32) -> String? {
        guard !isNull(column), let result, let value = PQgetvalue(result, Int32(row), column) else { return nil }
        return String(cString: value)
    }

    func int64(_ column: Int32) -> Int64 { text(column).flatMap { Int64($0) } ?? 0 }

    /// bytea, PostgreSQL's type 17.
    func isBlob(_ column: Int32) -> Bool {
        guard let result, !isNull(column) else { return false }
        return PQftype(result, column) == 17
    }

    /// A bytea column's bytes, from their hex text form (`\x0a1b...`).
    func blob(_ column: Int32) -> [UInt8] {
        guard let text = text(column) else { return [] }
        let digits = Array(text.utf8.dropFirst(2))
        guard text.hasPrefix("\\x"), digits.count % 2 == 0 else { return [] }
        func nibble(_ c: UInt8) -> UInt8 { c >= 97 ? c - 87 : c >= 65 ? c - 55 : c - 48 }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            bytes.append(nibble(digits[index]) << 4 | nibble(digits[index + 1]))
            index += 2
        }
        return bytes
    }
}
