// SPDX-License-Identifier: Apache-2.0
internal import Glibc
import TenderCore

/// Moves text across the C boundary: host buffers in, malloc'ed NUL-terminated strings out.
enum CBuffers {
    /// The bytes of a host buffer; refuses NULL and anything over the input limit before reading it.
    static func input(_ pointer: UnsafePointer<CChar>?, _ length: Int, _ name: String) throws(TenderError) -> [UInt8] {
        let pointer = try Boundary.require(pointer, name)
        guard length >= 0, length <= JSONInput.maxBytes else {
            throw .tooLarge("\(name) of \(UInt(bitPattern: length)) bytes exceeds \(JSONInput.maxBytes)")
        }
        return Array(UnsafeRawBufferPointer(start: UnsafeRawPointer(pointer), count: length))
    }

    /// The UTF-8 text in a host buffer.
    static func text(_ pointer: UnsafePointer<CChar>?, _ length: Int, _ name: String) throws(TenderError) -> String {
        guard let text = String(validating: try input(pointer, length, name), as: UTF8.self) else {
            throw .invalidUTF8("\(name) is not valid UTF-8")
        }
        return text
    }

    /// The JSON document in a host buffer.
    static func json(_ pointer: UnsafePointer<CChar>?, _ length: Int, _ name: String) throws(TenderError) -> JSONValue {
        try JSONInput.parse(try input(pointer, length, name))
    }

    /// A NUL-terminated copy of `text` on the C heap, freed by tender_string_free().
    static func allocate(_ text: String) throws(TenderError) -> (pointer: UnsafeMutablePointer<CChar>, length: Int) {
        let bytes = Array(text.utf8)
        guard let raw = malloc(bytes.count + 1) else { throw .internal("out of memory") }
        let pointer = raw.bindMemory(to: CChar.self, capacity: bytes.count + 1)
        bytes.withUnsafeBytes { source in
            if let base = source.baseAddress { memcpy(raw, base, bytes.count) }
        }
        pointer[bytes.count] = 0
        return (pointer, bytes.count)
    }

    /// Hands an allocated string to the caller through an optional pair, or frees it when the caller passed no pointer.
    static func publish(
        _ string: (pointer: UnsafeMutablePointer<CChar>, length: Int), to out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
        length lengthOut: UnsafeMutablePointer<Int>?
    ) {
        guard let out else {
            free(string.pointer)
            return
        }
        out.pointee = string.pointer
        lengthOut?.pointee = string.length
    }

    /// Publishes a record's JSON and JWS through two optional pairs, both or neither.
    /// Call last, once nothing else can fail.
    static func publish(
        _ record: PaymentRecord, json out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, length lengthOut: UnsafeMutablePointer<Int>?,
        jws jwsOut: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, length jwsLengthOut: UnsafeMutablePointer<Int>?
    ) throws(TenderError) {
        let json = try allocate(record.json)
        let jws: (pointer: UnsafeMutablePointer<CChar>, length: Int)
        do throws(TenderError) { jws = try allocate(record.jws) } catch {
            free(json.pointer)
            throw error
        }
        publish(json, to: out, length: lengthOut)
        publish(jws, to: jwsOut, length: jwsLengthOut)
    }

    /// Publishes `text` through an optional `char **` / `size_t *` pair.
    /// Call last, once nothing else can fail.
    static func write(
        _ text: String, to out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, length lengthOut: UnsafeMutablePointer<Int>?
    ) throws(TenderError) {
        guard let out else { return }
        let string = try allocate(text)
        out.pointee = string.pointer
        lengthOut?.pointee = string.length
    }
}

extension String {
    /// Without leading and trailing spaces, tabs and line breaks (a checkpoint read from a file ends in one).
    func trimmingASCIIWhitespace() -> String {
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        let bytes = Array(utf8)
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }
}
