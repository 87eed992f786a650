// SPDX-License-Identifier: Apache-2.0
internal import Glibc
import TenderCore

/// Private key files: created exclusively with mode 0600 without following
/// links, and refused when group or others can read them or another user
/// owns them (as ssh refuses).
public enum KeyFile {
    /// The largest key file read.
    static let maxBytes = 64 * 1024

    /// Writes `contents` to a new file at `path` (O_CREAT|O_EXCL|O_NOFOLLOW, 0600) and syncs it.
    public static func create(at path: String, contents: [UInt8]) throws(TenderError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .keyFile("cannot create the key file \(path): \(String(cString: strerror(errno)))") }
        var written = 0
        var failure: Int32 = 0
        while written < contents.count {
            let n = contents[written...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                failure = errno
                break
            }
            written += n
        }
        if failure == 0 && (fchmod(fd, 0o600) != 0 || fsync(fd) != 0) { failure = errno }
        close(fd)
        guard failure == 0 else {
            unlink(path)
            throw .keyFile("cannot write the key file \(path): \(String(cString: strerror(failure)))")
        }
    }

    /// Reads the key file at `path` after checking it is a regular file of
    /// this user that neither group nor others can access.
    public static func load(at path: String) throws(TenderError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { throw .keyFile("cannot open the key file \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .keyFile("cannot stat the key file \(path)") }
        guard info.st_mode & S_IFMT == S_IFREG else { throw .keyFile("the key file \(path) is not a regular file") }
        guard info.st_uid == geteuid() else { throw .keyFile("the key file \(path) belongs to another user") }
        let mode = info.st_mode & 0o777
        guard mode & 0o077 == 0 else {
            throw .keyFile(
                "the key file \(path) is accessible by group or others (mode \(String(mode, radix: 8))); "
                    + "refusing it: run chmod 600 on it")
        }
        guard Int(info.st_size) <= maxBytes else { throw .keyFile("the key file \(path) is too large") }
        var contents = [UInt8](repeating: 0, count: Int(info.st_size))
        var total = 0
        while total < contents.count {
            let n = contents.withUnsafeMutableBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return -1 }
                return Glibc.read(fd, base + total, buffer.count - total)
            }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw .keyFile("cannot read the key file \(path)") }
            total += n
        }
        return contents
    }

    /// Overwrites secret bytes before they are released.
    public static func wipe(_ bytes: inout [UInt8]) {
        bytes.withUnsafeMutableBytes { buffer in
            if let base = buffer.baseAddress { explicit_bzero(base, buffer.count) }
        }
    }
}
