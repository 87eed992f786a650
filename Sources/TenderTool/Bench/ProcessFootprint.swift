// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#endif

/// The process's resident memory and open file descriptors, read from /proc/self.
struct ProcessFootprint {
    /// Resident set size in bytes (/proc/self/statm's second field, in pages); 0 when unreadable.
    var residentBytes: Int
    /// Entries of /proc/self/fd (the descriptor used to list them included); 0 when unreadable.
    var descriptors: Int

    static func now() -> ProcessFootprint {
        ProcessFootprint(residentBytes: resident(), descriptors: openDescriptors())
    }

    private static func resident() -> Int {
        guard let file = fopen("/proc/self/statm", "re") else { return 0 }
        defer { fclose(file) }
        var size = 0
        var pages = 0
        guard firstTwoNumbers(file, &size, &pages) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// Reads the first two numbers of statm.
    private static func firstTwoNumbers(_ file: UnsafeMutablePointer<FILE>, _ size: inout Int, _ pages: inout Int) -> Bool {
        var line = [CChar](repeating: 0, count: 256)
        guard fgets(&line, Int32(line.count), file) != nil else { return false }
        let fields = String(cString: line).split(separator: " ")
        guard fields.count >= 2, let first = Int(fields[0]), let second = Int(fields[1]) else { return false }
        (size, pages) = (first, second)
        return true
    }

    private static func openDescriptors() -> Int {
        guard let dir = opendir("/proc/self/fd") else { return 0 }
        defer { closedir(dir) }
        var count = 0
        while let entry = readdir(dir) {
            if entry.pointee.d_name.0 != 0x2E { count += 1 }  // not "." or ".."
        }
        return count
    }
}
