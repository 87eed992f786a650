import Glibc

/// A fresh private directory for one test, removed with its store when released.
final class TemporaryHome {
    let path: String

    init() {
        let base = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        var template = Array("\(base)/tender-store-test-XXXXXX".utf8CString)
        path = template.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress, mkdtemp(base) != nil else { return "/nonexistent" }
            return String(cString: base)
        }
    }

    deinit {
        for suffix in ["", "-wal", "-shm", "-journal"] { unlink("\(path)/tender.sqlite3\(suffix)") }
        rmdir(path)
    }
}
