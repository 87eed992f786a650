// SPDX-License-Identifier: Apache-2.0
import Glibc

/// A fresh directory under TMPDIR for one test (left for the OS to clean: tests use TMPDIR inside the build tree).
func temporaryDirectory() -> String {
    let base = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
    var template = Array("\(base)/tender-crypto-test-XXXXXX".utf8CString)
    return template.withUnsafeMutableBufferPointer { buffer in
        guard let base = buffer.baseAddress, mkdtemp(base) != nil else { return "/nonexistent" }
        return String(cString: base)
    }
}
