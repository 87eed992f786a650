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
}
