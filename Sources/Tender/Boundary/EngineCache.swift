// SPDX-License-Identifier: Apache-2.0
internal import Glibc
import TenderCore
import TenderWiring

/// What a `tender_engine_cache *` points to: engines kept open for a host that serves many people
/// (one home each) in one process, at most `capacity` of them when nobody uses them, the least
/// recently used let go first. An engine is found again only for the same home (its device and
/// inode, reached without a symbolic link, so a path that now leads elsewhere
/// opens that other home and a path through a link is refused as the open refuses it) and the same
/// configuration (every member but `"home"`, as parsed, members in any order), so a request never gets an engine opened with another
/// policy, limits or PAM stack, and the same user (real and effective uid, for a host that switches them per request). The host gets +1 references (``EngineHandle``); an engine the cache
/// lets go stays open until the host's last reference and its sessions are gone. Thread-safe.
final class EngineCache: CHandle {
    /// A home's identity, the rest of its configuration, and the user asking (real and effective uid): an engine
    /// opened with one user's rights is never another's, whose own open of that home the home's checks would refuse.
    struct Key: Hashable {
        let home: Identity
        let configuration: String
        let realUser: UInt32
        let effectiveUser: UInt32

        init(home: Identity, configuration: String) {
            self.home = home
            self.configuration = configuration
            realUser = UInt32(getuid())
            effectiveUser = UInt32(geteuid())
        }
    }

    /// Where a home is now: its directory's device and inode, reached as the open reaches it (no symbolic link
    /// in any component).
    struct Identity: Hashable {
        let device: UInt64
        let inode: UInt64
    }

    private struct Entry {
        let handle: EngineHandle
        var lastUse: Double
    }

    /// The most engines a cache may be asked to keep.
    static let maxCapacity = 65_536

    let capacity: Int
    private let entries = PthreadLocked<[Key: Entry]>([:])
    /// Held while an engine is opened, one for each stripe of home paths.
    private let stripes = (0..<64).map { _ in PthreadLocked(0) }

    init(capacity: Int) throws(TenderError) {
        guard capacity >= 1, capacity <= Self.maxCapacity else {
            throw .invalidArgument("capacity must be in [1, \(Self.maxCapacity)]")
        }
        self.capacity = capacity
    }

    /// The engine `json` configures, kept or opened now; a +1 reference for C.
    func engine(_ json: JSONValue) throws(TenderError) -> EngineHandle {
        let configuration = try EngineConfiguration(json: json)
        guard configuration.broker == nil, EngineFactory.brokerFromEnvironment() == nil else {
            throw .invalidArgument("broker: a brokered engine is tenderd's; open it with tender_engine_new")
        }
        let rest = Self.withoutHome(json)
        if let found = kept(configuration.home, rest) { return found }
        // Opens of the same home path run one at a time (a lock per stripe of paths): two makings of a new
        // home at once would race for its key and its store, and two opens of an existing one would open it
        // twice. Other homes are served meanwhile; the lock is not held while a request uses its engine.
        let stripe = stripes[Int(UInt(bitPattern: configuration.home.hashValue) % UInt(stripes.count))]
        let (found, made) = stripe.withLock { (_: inout Int) -> (EngineHandle?, Result<EngineHandle, TenderError>?) in
            if let found = kept(configuration.home, rest) { return (found, nil) }
            return (nil, Result { () throws(TenderError) -> EngineHandle in try EngineHandle(configuration: configuration) })
        }
        if let found { return found }
        guard let made else { throw .internal("the engine cache made no engine") }
        let fresh = try made.get()
        guard let identity = Self.identity(configuration.home) else {
            throw .home("the home \(configuration.home) cannot be found again after it was opened")
        }
        let key = Key(home: identity, configuration: rest)
        let (chosen, released) = entries.withLock { (entries) -> (EngineHandle, [EngineHandle]) in
            let now = Self.now()
            if let other = entries[key] {
                entries[key]?.lastUse = now
                return (other.handle, [fresh])
            }
            entries[key] = Entry(handle: fresh, lastUse: now)
            var released: [EngineHandle] = []
            while entries.count > capacity, let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                released.append(oldest.value.handle)
                entries[oldest.key] = nil
            }
            return (fresh, released)
        }
        // Engines let go close here, outside the lock, when nobody else holds them (closing one may wait for the disk).
        withExtendedLifetime(released) {}
        return chosen
    }

    /// The engine kept for the home `path` leads to now and configuration `rest`, marked as used now; nil when none is.
    private func kept(_ path: String, _ rest: String) -> EngineHandle? {
        guard let identity = Self.identity(path) else { return nil }
        let key = Key(home: identity, configuration: rest)
        let now = Self.now()
        return entries.withLock { (entries) -> EngineHandle? in
            entries[key]?.lastUse = now
            return entries[key]?.handle
        }
    }

    /// Lets go of every engine not asked for in the last `seconds`; answers how many.
    func closeIdle(seconds: Double) -> Int {
        let cutoff = Self.now() - seconds
        let released = entries.withLock { (entries) -> [EngineHandle] in
            let idle = entries.filter { $0.value.lastUse <= cutoff }
            for key in idle.keys { entries[key] = nil }
            return idle.values.map(\.handle)
        }
        return released.count
    }

    /// How many engines the cache keeps now.
    var count: Int { entries.withLock { $0.count } }

    /// Lets go of every engine (each closes when the host's references and its sessions are gone).
    func removeAll() {
        let released = entries.withLock { (entries) -> [Entry] in
            defer { entries.removeAll() }
            return Array(entries.values)
        }
        withExtendedLifetime(released) {}
    }

    /// The configuration without its `"home"` member, as one canonical text: every object's members sorted by
    /// name, at every depth (names are unique: the parser refuses duplicates), so one policy is one key.
    private static func withoutHome(_ json: JSONValue) -> String {
        guard case let .object(members) = json else { return JSONWriter.string(json) }
        return JSONWriter.string(sortedMembers(.object(members.filter { $0.key != "home" })))
    }

    private static func sortedMembers(_ value: JSONValue) -> JSONValue {
        switch value {
        case let .object(members): return .object(members.map { ($0.key, sortedMembers($0.value)) }.sorted { $0.key < $1.key })
        case let .array(elements): return .array(elements.map(sortedMembers))
        default: return value
        }
    }

    /// Where the home `path` leads now (``Identity``), walked one component at a time without following a
    /// symbolic link (O_NOFOLLOW), as the open refuses a home reached through one; nil when it leads nowhere
    /// or through a link, so such a path is opened (and refused) rather than served a kept engine.
    private static func identity(_ path: String) -> Identity? {
        guard !path.isEmpty else { return nil }
        let pathOnly: Int32 = 0o10_000_000  // O_PATH: the directories on the way need search permission only
        var directory = open(path.hasPrefix("/") ? "/" : ".", pathOnly | O_DIRECTORY | O_CLOEXEC)
        guard directory >= 0 else { return nil }
        defer { close(directory) }
        for component in path.split(separator: "/") where component != "." {
            let next = openat(directory, String(component), pathOnly | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard next >= 0 else { return nil }
            close(directory)
            directory = next
        }
        var info = stat()
        guard fstat(directory, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return nil }
        return Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    static let argumentName = "cache"
    /// The process that made it (``CHandle/process``).
    let process = getpid()
}
