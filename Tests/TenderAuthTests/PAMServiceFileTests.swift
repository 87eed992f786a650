// SPDX-License-Identifier: Apache-2.0
import Glibc
import Testing
@testable import TenderAuth

/// Issue 34: pam_wrapper is looked for in the dynamic loader's list (dl_iterate_phdr), by file name.
/// A process that loads it is in Tests/python/test_pam_wrapper.py.
@Suite struct PAMServiceFileTests {
    @Test func aLoadedObjectIsPamWrapperByItsFileName() {
        #expect(PAMServiceFile.namesWrapper("/usr/lib/x86_64-linux-gnu/libpam_wrapper.so"))
        #expect(PAMServiceFile.namesWrapper("libpam_wrapper.so.0"))
        #expect(PAMServiceFile.namesWrapper("/opt/x/libpam_wrapper-1.1.so"))
        #expect(!PAMServiceFile.namesWrapper("/usr/lib/libpam.so.0"))
        #expect(!PAMServiceFile.namesWrapper("/home/libpam_wrapper/libc.so.6"))
        #expect(!PAMServiceFile.namesWrapper(""))
    }

    @Test func thisTestProcessHasNoPamWrapperUnlessPreloaded() {
        let preloaded = getenv("LD_PRELOAD").map { String(cString: $0).contains("pam_wrapper") } ?? false
        #expect(PAMServiceFile.wrapperPresent == preloaded)
        // Asked again with nothing loaded in between: the kept answer, the same.
        #expect(PAMServiceFile.wrapperPresent == preloaded)
    }

    /// The answer is kept with the loader's counts (an open then asks for one object, not the whole list): an object
    /// loaded since must move them, or a pam_wrapper loaded after an engine opened would go unseen
    /// (Tests/python/test_pam_wrapper.py loads the real one after an engine).
    @Test func anObjectLoadedMovesTheCountsTheAnswerIsKeptWith() throws {
        let before = try #require(PAMServiceFile.loaderCounts())
        #expect(PAMServiceFile.loaderCounts()?.adds == before.adds)
        let handle = try #require(dlopen("libpamc.so.0", RTLD_NOW | RTLD_LOCAL))
        let loaded = try #require(PAMServiceFile.loaderCounts())
        #expect(loaded.adds > before.adds)
        dlclose(handle)
    }
}
