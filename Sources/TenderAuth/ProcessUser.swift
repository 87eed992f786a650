// SPDX-License-Identifier: Apache-2.0
internal import Glibc
import TenderCore

/// The user Tender authenticates and checks ownership against: the process's
/// user, which must be one uid. Like sudo, which authenticates the invoking
/// (real) user, Tender never lets the real and effective uids disagree: in a
/// process whose real and effective uids differ (a setuid program, or
/// setresuid) it refuses, so PAM, the audit, the home and the keys all
/// concern the same user.
enum ProcessUser {
    /// The uid Tender acts for; throws when the real and effective uids differ.
    static func uid() throws(TenderError) -> uid_t {
        let real = getuid()
        let effective = geteuid()
        guard real == effective else {
            throw .authService(
                "the real uid (\(real)) and the effective uid (\(effective)) differ; Tender authenticates only a process whose real and effective users are the same")
        }
        return effective
    }

    /// The name of ``uid()`` (getpwuid_r).
    static func name() throws(TenderError) -> String {
        let uid = try uid()
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 16384)
        let status = getpwuid_r(uid, &entry, &buffer, buffer.count, &result)
        guard status == 0, result != nil, let name = entry.pw_name else {
            throw .authService("cannot find the name of the user this process runs as (uid \(uid))")
        }
        return String(cString: name)
    }

    /// The name of ``uid()``, or "uid N" when it has no passwd entry; throws only when the uids differ.
    static func label() throws(TenderError) -> String {
        let uid = try uid()
        return (try? name()) ?? "uid \(uid)"
    }
}
