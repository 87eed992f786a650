// SPDX-License-Identifier: Apache-2.0
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

    /// Makes `path` a directory: creates it (0700) and any missing parent, as `mkdir -p` does; an existing
    /// directory is kept as it is. Answers nil, or why it cannot be (the path and the system's reason).
    static func makeDirectory(_ path: String) -> String? {
        var info = stat()
        if stat(path, &info) == 0 {
            return info.st_mode & S_IFMT == S_IFDIR ? nil : "\(path) exists and is not a directory"
        }
        let parent = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        if !parent.isEmpty, parent != path, let failure = makeDirectory(parent) { return failure }
        guard mkdir(path, 0o700) == 0 || errno == EEXIST else {
            return "cannot create the directory \(path): \(String(cString: strerror(errno)))"
        }
        return nil
    }

    /// Removes `path` and everything below it, without following symbolic links.
    static func removeTree(_ path: String) {
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
}
