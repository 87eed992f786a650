internal import Glibc
import TenderCore

/// The user the process runs as (getpwuid_r of the effective uid).
enum ProcessUser {
    static func name() throws(TenderError) -> String {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 16384)
        let status = getpwuid_r(geteuid(), &entry, &buffer, buffer.count, &result)
        guard status == 0, result != nil, let name = entry.pw_name else {
            throw .authService("cannot find the name of the user this process runs as (uid \(geteuid()))")
        }
        return String(cString: name)
    }
}
