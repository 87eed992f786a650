internal import Glibc
import TenderCore

/// Prepares the home directory that holds the store.
enum HomeDirectory {
    /// Creates `path` and its missing parents with mode 0700; refuses a path
    /// that exists but is not a directory, or that this process cannot write.
    static func prepare(_ path: String) throws(TenderError) {
        guard !path.isEmpty else { throw .home("the home path is empty") }
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, 0o700) != 0 && errno != EEXIST {
                throw .home("cannot create the home directory: \(String(cString: strerror(errno)))")
            }
        }
        var info = stat()
        guard stat(path, &info) == 0 else { throw .home("cannot read the home directory: \(String(cString: strerror(errno)))") }
        guard info.st_mode & S_IFMT == S_IFDIR else { throw .home("the home path is not a directory") }
        guard access(path, W_OK | X_OK) == 0 else { throw .home("the home directory is not writable") }
    }

    /// Creates `path` empty with mode 0600 when missing, so the store and its
    /// journal files (which SQLite gives the same mode) are private.
    static func createPrivateFile(_ path: String) throws(TenderError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .home("cannot create the store file: \(String(cString: strerror(errno)))") }
        close(fd)
    }
}
