// SPDX-License-Identifier: Apache-2.0
import Testing

@testable import TenderAuth

/// Where the PAM functions Tender calls are bound: Linux-PAM's library from a system directory, else testing mode.
/// Processes whose PAM functions another library answers for are in Tests/python/test_pam_wrapper.py.
@Suite struct PAMEntryPointsTests {
    @Test func thisProcessCallsLinuxPAMFromTheSystem() {
        // The check can say no: a test process preloads nothing.
        #expect(!PAMEntryPoints.interposed)
    }

    @Test func onlyLibpamInASystemLibraryDirectoryIsLinuxPAM() {
        #expect(PAMEntryPoints.isSystemPAMFile("/usr/lib/x86_64-linux-gnu/libpam.so.0.85.1"))
        #expect(PAMEntryPoints.isSystemPAMFile("/lib64/libpam.so.0"))
        #expect(PAMEntryPoints.isSystemPAMFile("/usr/lib/libpam.so.0"))
        // pam_wrapper (under its name or another), a libpam.so.0 from LD_LIBRARY_PATH or a user's directory.
        #expect(!PAMEntryPoints.isSystemPAMFile("/usr/lib/x86_64-linux-gnu/libpam_wrapper.so"))
        #expect(!PAMEntryPoints.isSystemPAMFile("/usr/lib/x86_64-linux-gnu/renamed.so"))
        #expect(!PAMEntryPoints.isSystemPAMFile("/tmp/fake/libpam.so.0"))
        #expect(!PAMEntryPoints.isSystemPAMFile("/home/u/lib/libpam.so.0"))
        #expect(!PAMEntryPoints.isSystemPAMFile("/usr/lib/x86_64-linux-gnu/deeper/libpam.so.0"))
        #expect(!PAMEntryPoints.isSystemPAMFile("/usr/local/lib/libpam.so.0"))
        #expect(!PAMEntryPoints.isSystemPAMFile("libpam.so.0"))
    }
}
