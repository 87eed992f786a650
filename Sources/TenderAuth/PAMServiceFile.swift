// SPDX-License-Identifier: Apache-2.0
internal import Glibc
import TenderCore

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

    /// Whether pam_wrapper is in this process: LD_PRELOAD names libpam_wrapper, or a shared object the dynamic
    /// loader holds is named libpam_wrapper* (preloaded or loaded, whatever the environment says now). It then
    /// picks the PAM stack, not the configuration, so an engine that sees it runs in testing mode. Asked on every
    /// engine open: the loader's list (dl_iterate_phdr) is walked in memory, where reading /proc/self/maps made
    /// the kernel print every mapping of the process (a quarter of an open's CPU).
    /// Anything else that can answer in PAM's place counts too: a PAM function Tender calls bound outside
    /// Linux-PAM's library (pam_wrapper renamed, another preload defining it, a libpam.so.0 found through
    /// LD_LIBRARY_PATH: ``PAMEntryPoints``), or objects loaded in another link-map namespace than this one, where
    /// an LD_AUDIT library lives (it can redirect what the loader loads and binds, PAM's modules included).
    ///
    /// The answer is kept with the loader's counts of objects ever loaded and unloaded (`dlpi_adds`, `dlpi_subs`,
    /// read from the first object alone): while neither moved, no object came or went, in any namespace, so the
    /// bindings and the list are those already judged, and an open asks the loader for one object instead of all.
    static var wrapperPresent: Bool {
        if let preload = getenv("LD_PRELOAD"), String(cString: preload).contains("libpam_wrapper") { return true }
        let counts = loaderCounts()
        if let counts, let kept = judgedAt.withLock({ $0 }), kept.adds == counts.adds, kept.subs == counts.subs { return kept.present }
        let present = walkLoaderList()
        // Kept with the counts read before the walk: an object loaded meanwhile moved them, so the next open walks again.
        if let counts { judgedAt.withLock { $0 = (counts.adds, counts.subs, present) } }
        return present
    }

    /// The last answer of ``walkLoaderList()`` and the loader's counts read just before it.
    private static let judgedAt = PthreadLocked<(adds: UInt64, subs: UInt64, present: Bool)?>(nil)

    /// The loader's counts of objects loaded and unloaded so far, in every namespace (`dlpi_adds`, `dlpi_subs` of
    /// the first object dl_iterate_phdr gives), or nil when this C library does not give them.
    static func loaderCounts() -> (adds: UInt64, subs: UInt64)? {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "dl_iterate_phdr") else { return nil }
        let iterate = unsafeBitCast(symbol, to: IteratePhdr.self)
        var counts: (adds: UInt64, subs: UInt64)?
        _ = withUnsafeMutablePointer(to: &counts) { pointer in
            iterate({ (info, size, data) -> Int32 in
                guard let info, let data else { return 1 }
                let word = MemoryLayout<UInt>.size
                let adds = (3 * word + 2 + 7) & ~7
                guard size >= adds + 16 else { return 1 }
                data.assumingMemoryBound(to: Optional<(adds: UInt64, subs: UInt64)>.self).pointee = (
                    info.loadUnaligned(fromByteOffset: adds, as: UInt64.self), info.loadUnaligned(fromByteOffset: adds + 8, as: UInt64.self)
                )
                return 1  // the first object is enough
            }, UnsafeMutableRawPointer(pointer))
        }
        return counts
    }

    /// ``wrapperPresent``'s whole look: the PAM bindings (``PAMEntryPoints``), then every object the loader holds.
    private static func walkLoaderList() -> Bool {
        if PAMEntryPoints.interposed { return true }
        // dl_iterate_phdr is declared only under _GNU_SOURCE, which Swift's Glibc module does not define.
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "dl_iterate_phdr") else { return true }
        let iterate = unsafeBitCast(symbol, to: IteratePhdr.self)
        var walk = LoaderWalk()
        let named = withUnsafeMutablePointer(to: &walk) { pointer in
            iterate({ (info, size, data) -> Int32 in
                guard let info, let data else { return 1 }
                let walk = data.assumingMemoryBound(to: LoaderWalk.self)
                walk.pointee.seen += 1
                // struct dl_phdr_info: dlpi_addr, dlpi_name, dlpi_phdr (a word each), dlpi_phnum (16 bits), then the
                // 64-bit dlpi_adds and dlpi_subs: every object loaded and unloaded so far, in every namespace.
                let word = MemoryLayout<UInt>.size
                let adds = (3 * word + 2 + 7) & ~7
                if size >= adds + 16 {
                    walk.pointee.loaded = info.loadUnaligned(fromByteOffset: adds, as: UInt64.self)
                        &- info.loadUnaligned(fromByteOffset: adds + 8, as: UInt64.self)
                } else {
                    walk.pointee.loaded = nil
                }
                guard let name = info.load(fromByteOffset: word, as: UnsafePointer<CChar>?.self), name[0] != 0 else { return 0 }
                return PAMServiceFile.namesWrapper(String(cString: name)) ? 1 : 0
            }, UnsafeMutableRawPointer(pointer))
        }
        if named != 0 { return true }
        // More objects loaded than this namespace holds: another namespace exists (an auditor's); unknown counts too.
        guard let loaded = walk.loaded else { return true }
        return loaded != UInt64(walk.seen)
    }

    /// What the walk of the loader's list counts: the objects it saw, and how many every namespace holds.
    private struct LoaderWalk {
        var seen = 0
        var loaded: UInt64?
    }

    /// dl_iterate_phdr's type.
    private typealias IteratePhdr = @convention(c) (
        (@convention(c) (UnsafeMutableRawPointer?, Int, UnsafeMutableRawPointer?) -> Int32)?, UnsafeMutableRawPointer?
    ) -> Int32

    /// Whether the shared object at `path` is pam_wrapper: its file name starts with libpam_wrapper.
    static func namesWrapper(_ path: String) -> Bool {
        let name = path.split(separator: "/", omittingEmptySubsequences: false).last ?? Substring(path)
        return name.hasPrefix("libpam_wrapper")
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
