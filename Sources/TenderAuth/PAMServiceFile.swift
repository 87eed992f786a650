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
