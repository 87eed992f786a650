// SPDX-License-Identifier: Apache-2.0
import Glibc

/// A fresh private directory for one test (under TMPDIR, named after `prefix`), removed with
/// everything in it when released. Shared by the test targets that need a real home on disk.
public final class TemporaryHome {
    public let path: String

    public init(prefix: String = "tender-test") {
        let base = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        var template = Array("\(base)/\(prefix)-XXXXXX".utf8CString)
        path = template.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress, mkdtemp(base) != nil else { return "/nonexistent" }
            return String(cString: base)
        }
    }

    deinit { removeTree(path) }
}

/// Removes `path` and everything below it, without following symbolic links.
public func removeTree(_ path: String) {
    var info = stat()
    guard lstat(path, &info) == 0 else { return }
    if info.st_mode & S_IFMT == S_IFDIR, let dir = opendir(path) {
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        closedir(dir)
        for name in names { removeTree(path + "/" + name) }
    }
    remove(path)
}
