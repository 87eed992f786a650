internal import Glibc
import TenderCore

/// Moves text across the C boundary: host buffers in, malloc'ed NUL-terminated strings out.
enum CBuffers {
    /// The bytes of a host buffer; refuses NULL and anything over the input limit before reading it.
    static func input(_ pointer: UnsafePointer<CChar>?, _ length: Int, _ name: String) throws(TenderError) -> [UInt8] {
        let pointer = try Boundary.require(pointer, name)
        guard length <= JSONInput.maxBytes else {
            throw .tooLarge("\(name) of \(length) bytes exceeds \(JSONInput.maxBytes)")
        }
        return Array(UnsafeRawBufferPointer(start: UnsafeRawPointer(pointer), count: length))
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
