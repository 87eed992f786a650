// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser

/// Small file and stream helpers, without Foundation.
enum TextFile {
    /// The contents of the file at `path` (at most 16 MiB).
    static func read(_ path: String) throws -> String {
        guard let file = fopen(path, "rb") else { throw ValidationError("cannot open \(path)") }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = fread(&buffer, 1, buffer.count, file)
            if n == 0 { break }
            bytes += buffer[0..<n]
            if bytes.count > 16 << 20 { throw ValidationError("\(path) is too large") }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// Writes a line to standard error.
func printError(_ text: String) {
    let bytes = Array((text + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
}

extension String {
    func trimmingWhitespace() -> String {
        String(self.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}
