#if canImport(Glibc)
import Glibc
#endif

/// Process environment and temporary folders, without Foundation.
enum Environment {
    static func value(_ name: String) -> String? {
        guard let raw = getenv(name) else { return nil }
        let text = String(cString: raw)
        return text.isEmpty ? nil : text
    }

    /// A new private directory under $TMPDIR (or /tmp).
    static func makeTemporaryDirectory(prefix: String) -> String? {
        var template = Array("\(value("TMPDIR") ?? "/tmp")/\(prefix)XXXXXX".utf8CString)
        return template.withUnsafeMutableBufferPointer { buffer -> String? in
            guard let base = buffer.baseAddress, mkdtemp(base) != nil else { return nil }
            return String(cString: base)
        }
    }

    /// Removes a store home made by ``makeTemporaryDirectory(prefix:)``.
    static func removeStoreHome(_ path: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] { unlink("\(path)/tender.sqlite3\(suffix)") }
        if let keys = opendir("\(path)/keys") {
            while let entry = readdir(keys) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                if name.hasSuffix(".pem") { unlink("\(path)/keys/\(name)") }
            }
            closedir(keys)
        }
        rmdir("\(path)/keys")
        rmdir(path)
    }
}
