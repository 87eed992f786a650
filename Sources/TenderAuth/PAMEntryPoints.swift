// SPDX-License-Identifier: Apache-2.0
internal import CPAM
internal import Glibc
import TenderCore

/// Where the PAM functions Tender calls are bound in this process. A library loaded before Linux-PAM that defines
/// them (pam_wrapper under any file name, or any preload defining `pam_authenticate`) answers in PAM's place, so an
/// engine must then run in testing mode whatever the library is called. Read in memory (dladdr), on every engine
/// open. Thread-safe.
enum PAMEntryPoints {
    /// The addresses this module calls for each PAM function it uses, as the dynamic loader bound them.
    private static var addresses: [UnsafeRawPointer] {
        [
            unsafeBitCast(
                pam_start as @convention(c) (
                    UnsafePointer<CChar>, UnsafePointer<CChar>?, UnsafePointer<pam_conv>, UnsafeMutablePointer<OpaquePointer?>
                ) -> Int32, to: UnsafeRawPointer.self),
            unsafeBitCast(
                pam_start_confdir as @convention(c) (
                    UnsafePointer<CChar>, UnsafePointer<CChar>?, UnsafePointer<pam_conv>, UnsafePointer<CChar>?,
                    UnsafeMutablePointer<OpaquePointer?>
                ) -> Int32, to: UnsafeRawPointer.self),
            unsafeBitCast(pam_authenticate as @convention(c) (OpaquePointer, Int32) -> Int32, to: UnsafeRawPointer.self),
            unsafeBitCast(pam_acct_mgmt as @convention(c) (OpaquePointer, Int32) -> Int32, to: UnsafeRawPointer.self),
            unsafeBitCast(
                pam_get_item as @convention(c) (OpaquePointer, Int32, UnsafeMutablePointer<UnsafeRawPointer?>?) -> Int32,
                to: UnsafeRawPointer.self),
            unsafeBitCast(pam_end as @convention(c) (OpaquePointer, Int32) -> Int32, to: UnsafeRawPointer.self),
        ]
    }

    /// What ``isLinuxPAM(_:)`` answered for each object (by its file name and load address) met so far.
    private static let judged = PthreadLocked<[String: Bool]>([:])

    /// Whether a PAM function Tender calls is bound outside Linux-PAM's library (a shared object named libpam.so* in
    /// one of the system's library directories: ``isLinuxPAM(_:)``), or where it is bound cannot be told.
    static var interposed: Bool {
        // dladdr and Dl_info are declared only under _GNU_SOURCE, which Swift's Glibc module does not define.
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "dladdr") else { return true }
        let lookUp = unsafeBitCast(symbol, to: DlAddr.self)
        var objects: [String: String] = [:]  // by load address and file name: the file name
        for address in addresses {
            var info = DlInfo()
            let found = withUnsafeMutableBytes(of: &info) { lookUp(address, $0.baseAddress) }
            guard found != 0, let name = info.fileName else { return true }
            let path = String(cString: name)
            objects["\(UInt(bitPattern: info.base)) \(path)"] = path
        }
        // One object in a process that is not interposed, whose file is looked at once per process: a loaded object's
        // file stays where it was found (libpam stays loaded while Tender is: it needs it).
        return !objects.allSatisfy { object in
            if let known = judged.withLock({ $0[object.key] }) { return known }
            let verdict = isLinuxPAM(object.value)
            judged.withLock { $0[object.key] = verdict }
            return verdict
        }
    }

    /// Whether the shared object at `path` is Linux-PAM's library: the file it names (links resolved) is called
    /// libpam.so* and lies in one of the system's library directories (/lib, /usr/lib, /lib64, /usr/lib64, /lib32,
    /// /usr/lib32, or a directory right inside /lib or /usr/lib, such as /usr/lib/x86_64-linux-gnu), where only root
    /// writes; a libpam.so.0 found through LD_LIBRARY_PATH, or preloaded from elsewhere, is not.
    static func isLinuxPAM(_ path: String) -> Bool {
        guard let resolved = realpath(path, nil) else { return false }
        defer { free(resolved) }
        return isSystemPAMFile(String(cString: resolved))
    }

    /// ``isLinuxPAM(_:)`` for a path whose links are resolved already.
    static func isSystemPAMFile(_ resolved: String) -> Bool {
        let components = resolved.split(separator: "/", omittingEmptySubsequences: false)
        guard resolved.hasPrefix("/"), let name = components.last, name.hasPrefix("libpam.so") else { return false }
        let directory = components.dropLast().joined(separator: "/")
        if ["/lib", "/usr/lib", "/lib64", "/usr/lib64", "/lib32", "/usr/lib32"].contains(directory) { return true }
        let inside = components.dropLast(2).joined(separator: "/")
        let last = components[components.count - 2]
        return ["/lib", "/usr/lib"].contains(inside) && !last.isEmpty && last != "." && last != ".."
    }

    /// glibc's Dl_info: the object's file name and base, the nearest symbol's name and address.
    private struct DlInfo {
        var fileName: UnsafePointer<CChar>?
        var base: UnsafeMutableRawPointer?
        var symbolName: UnsafePointer<CChar>?
        var symbolAddress: UnsafeMutableRawPointer?
    }

    /// dladdr's type.
    private typealias DlAddr = @convention(c) (UnsafeRawPointer?, UnsafeMutableRawPointer?) -> Int32
}
