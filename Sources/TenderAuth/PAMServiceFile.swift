// SPDX-License-Identifier: Apache-2.0
internal import Glibc

/// Where PAM will look for a service's file, and whether it is there.
enum PAMServiceFile {
    /// The configured directory; under pam_wrapper (preloaded, PAM_WRAPPER=1)
    /// the directory it redirects PAM to; else /etc/pam.d.
    static func directory(configured: String?) -> String {
        if let configured { return configured }
        if let flag = getenv("PAM_WRAPPER"), String(cString: flag) == "1", let dir = getenv("PAM_WRAPPER_SERVICE_DIR"),
            let preload = getenv("LD_PRELOAD"), String(cString: preload).contains("pam_wrapper")
        {
            return String(cString: dir)
        }
        return "/etc/pam.d"
    }

    /// Whether pam_wrapper is in this process: LD_PRELOAD names libpam_wrapper, or it is mapped
    /// (/proc/self/maps), whatever the environment says now. It then picks the PAM stack, not
    /// the configuration, so an engine that sees it runs in testing mode.
    static var wrapperPresent: Bool {
        if let preload = getenv("LD_PRELOAD"), String(cString: preload).contains("libpam_wrapper") { return true }
        guard let file = fopen("/proc/self/maps", "re") else { return false }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 4096)
        while fgets(&line, Int32(line.count), file) != nil {
            if strstr(line, "/libpam_wrapper") != nil { return true }
        }
        return false
    }

    /// Whether `directory/service` is a regular file.
    static func exists(service: String, in directory: String) -> Bool {
        var info = stat()
        return stat("\(directory)/\(service)", &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    /// Why a service with no file is refused, and how to install Tender's own: its file in the
    /// system's directory comes from `sudo make install-pam` or the Debian packages.
    static func missingMessage(service: String, directory: String) -> String {
        let remedy =
            service == "tender" && directory == "/etc/pam.d"
            ? "install it with `sudo make install-pam` from Tender's source tree (the Debian packages install it too)"
            : "install one"
        return "the PAM service \"\(service)\" has no file in \(directory); \(remedy) "
            + "or name another service: Linux-PAM would silently use \"other\" instead"
    }
}
