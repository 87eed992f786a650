// SPDX-License-Identifier: Apache-2.0
/// Base64url without padding (RFC 4648 §5), as JOSE uses it.
public enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    private static let reverse: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(index) }
        return table
    }()

    /// The unpadded base64url text of `bytes`.
    public static func encode(_ bytes: [UInt8]) -> String {
        let count = bytes.count / 3 * 4 + [0, 2, 3][bytes.count % 3]
        return String(unsafeUninitializedCapacity: max(count, 1)) { out in
            alphabet.withUnsafeBufferPointer { alphabet in
                bytes.withUnsafeBufferPointer { bytes in
                    var index = 0
                    var at = 0
                    func put(_ n: UInt32, _ shift: UInt32) {
                        out[at] = alphabet[Int(n >> shift & 63)]
                        at += 1
                    }
                    while index + 3 <= bytes.count {
                        let n = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
                        put(n, 18)
                        put(n, 12)
                        put(n, 6)
                        put(n, 0)
                        index += 3
                    }
                    if bytes.count - index == 1 {
                        let n = UInt32(bytes[index]) << 16
                        put(n, 18)
                        put(n, 12)
                    } else if bytes.count - index == 2 {
                        let n = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8
                        put(n, 18)
                        put(n, 12)
                        put(n, 6)
                    }
                }
            }
            return count
        }
    }

    /// The bytes of unpadded base64url text, or nil when it is not canonical base64url.
    public static func decode(_ text: Substring) -> [UInt8]? { decode(ArraySlice(text.utf8)) }

    /// The bytes of unpadded base64url text given as ASCII bytes, or nil.
    public static func decode(_ input: ArraySlice<UInt8>) -> [UInt8]? {
        guard input.count % 4 != 1 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(input.count * 3 / 4)
        var buffer: UInt32 = 0
        var bits = 0
        for byte in input {
            let value = reverse[Int(byte)]
            guard value != 0xFF else { return nil }
            buffer = buffer << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
            }
        }
        // Leftover bits must be zero, so every text has one decoding.
        guard buffer & ((1 << UInt32(bits)) - 1) == 0 else { return nil }
        return out
    }

    /// The bytes of unpadded base64url text, or nil.
    public static func decode(_ text: String) -> [UInt8]? { decode(text[...]) }
}
