// SPDX-License-Identifier: Apache-2.0
internal import Glibc
import TenderCore

/// A connected or listening Unix stream socket speaking broker frames
/// (``BrokerFrame``). Every read has a deadline and a size limit; writes never
/// raise SIGPIPE. Owns its descriptor and closes it on deinit. One thread at a time.
public final class BrokerSocket: @unchecked Sendable {
    private var fd: Int32

    private init(fd: Int32) { self.fd = fd }

    deinit { if fd >= 0 { Glibc.close(fd) } }

    /// Closes the socket now (the peer sees end of file).
    public func close() {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
    }

    /// Ends the connection in order: says end of file to the peer (shutdown(2),
    /// SHUT_WR), waits up to `timeoutMilliseconds` for the peer to close its end
    /// (whatever it still sends is dropped), then closes. The daemon gives back
    /// the connection's slot before it closes, so a client that connects again
    /// right after this returns is never refused for a slot it no longer holds.
    public func finish(timeoutMilliseconds: Int32 = 1_000) {
        guard fd >= 0 else { return }
        if shutdown(fd, Int32(SHUT_WR)) == 0 {
            let until = deadline(timeoutMilliseconds)
            var scratch = [UInt8](repeating: 0, count: 512)
            while (try? wait(for: Int16(POLLIN), until: until)) != nil {
                let got = scratch.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, $0.count, Int32(MSG_DONTWAIT)) }
                if got == 0 || (got < 0 && errno != EINTR && errno != EAGAIN) { break }
            }
        }
        close()
    }

    /// Connects to the socket at `path` (socket(2), connect(2)); throws
    /// ``TenderError/store(_:)`` when no broker answers there.
    public static func connect(path: String) throws(TenderError) -> BrokerSocket {
        var address = try Self.address(path)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .store("the broker socket cannot be made: errno \(errno)") }
        let socket = BrokerSocket(fd: fd)
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard status == 0 else { throw .store("the broker at \(path) does not answer: \(String(cString: strerror(errno)))") }
        return socket
    }

    /// Listens at `path` with file mode `mode`. A socket file left there by a
    /// process that stopped (connect(2) is refused) is replaced; a socket that
    /// answers (another broker serves it) and any other kind of file are
    /// refused with ``TenderError/home(_:)`` and left as they are.
    public static func listen(path: String, mode: UInt32, backlog: Int32 = 128) throws(TenderError) -> BrokerSocket {
        var address = try Self.address(path)
        var info = stat()
        if lstat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFSOCK else { throw .home("\(path) exists and is not a socket") }
            try Self.checkStale(path: path, address: address)
            guard unlink(path) == 0 || errno == ENOENT else {
                throw .home("cannot remove the stale socket \(path): \(String(cString: strerror(errno)))")
            }
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .store("the broker socket cannot be made: errno \(errno)") }
        let socket = BrokerSocket(fd: fd)
        // The file gets its mode before listen(2): until then every connect(2) is refused, so the process-wide
        // umask (which other threads' files depend on) is never touched.
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else { throw .home("cannot bind \(path): \(String(cString: strerror(errno)))") }
        guard chmod(path, mode_t(mode)) == 0, Glibc.listen(fd, backlog) == 0 else { throw .home("cannot listen on \(path): errno \(errno)") }
        var made = stat()
        if lstat(path, &made) == 0 { socket.boundFile = (path, made.st_dev, made.st_ino) }
        return socket
    }

    /// Returns when the socket file at `path` is stale: connect(2) is refused
    /// (ECONNREFUSED: nothing listens on it). A socket that answers, or one that
    /// cannot be probed (EACCES...), is ``TenderError/home(_:)``.
    private static func checkStale(path: String, address: sockaddr_un) throws(TenderError) {
        var address = address
        let probe = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard probe >= 0 else { throw .store("the broker socket cannot be made: errno \(errno)") }
        defer { Glibc.close(probe) }
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(probe, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        if status == 0 { throw .home("\(path) is in use: another process listens on it") }
        guard errno == ECONNREFUSED else {
            throw .home("\(path) exists and cannot be told stale (connect: \(String(cString: strerror(errno)))): remove it if nothing uses it")
        }
    }

    /// The socket file ``listen(path:mode:backlog:)`` made: its path and identity (device, inode).
    private var boundFile: (path: String, device: UInt, inode: UInt)?

    /// Removes the socket file this listener made, if the path still names
    /// that very file (not one another process put there since); true when
    /// removed. A socket from ``adopt(descriptor:)`` has no file of its own.
    /// Safe from any thread: it reads only what `listen` set before returning.
    @discardableResult
    public func removeSocketFile() -> Bool {
        guard let file = boundFile else { return false }
        var info = stat()
        guard lstat(file.path, &info) == 0, info.st_mode & S_IFMT == S_IFSOCK, info.st_dev == file.device,
            info.st_ino == file.inode
        else { return false }
        return unlink(file.path) == 0
    }

    /// Adopts an inherited listening descriptor (systemd socket activation).
    public static func adopt(descriptor: Int32) -> BrokerSocket { BrokerSocket(fd: descriptor) }

    /// The next connection, or nil when accept(2) failed (retry).
    public func accept() -> BrokerSocket? {
        let client = Glibc.accept(fd, nil, nil)
        guard client >= 0 else { return nil }
        _ = fcntl(client, F_SETFD, FD_CLOEXEC)
        return BrokerSocket(fd: client)
    }

    /// The peer's uid as the kernel recorded it at connect (SO_PEERCRED).
    public func peerUID() throws(TenderError) -> UInt32 {
        var credentials: (pid: Int32, uid: UInt32, gid: UInt32) = (0, 0, 0)
        var length = socklen_t(MemoryLayout.size(ofValue: credentials))
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0, length == 12 else {
            throw .authService("the peer's credentials cannot be read (SO_PEERCRED): errno \(errno)")
        }
        return credentials.uid
    }

    /// Sends one message, waiting at most `timeoutMilliseconds` for room.
    public func send(_ message: BrokerMessage, timeoutMilliseconds: Int32 = 30_000) throws(TenderError) {
        try sendRaw(BrokerFrame.encode(message), timeoutMilliseconds: timeoutMilliseconds)
    }

    /// Sends `frame` as it is (the tests forge frames with it).
    package func sendRaw(_ frame: [UInt8], timeoutMilliseconds: Int32 = 30_000) throws(TenderError) {
        var offset = 0
        while offset < frame.count {
            try wait(for: Int16(POLLOUT), until: deadline(timeoutMilliseconds))
            let sent = frame.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
            if sent < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw .store("the broker connection broke while sending: \(String(cString: strerror(errno)))")
            }
            offset += sent
        }
    }

    /// Receives one whole message within `timeoutMilliseconds` (for the whole
    /// frame, so a peer trickling bytes is cut off too). Throws
    /// ``TenderError/tooLarge(_:)`` for a frame announcing more than
    /// ``BrokerFrame/maxBodyBytes`` (before reading it), ``TenderError/store(_:)``
    /// on end of file, a timeout or an error, and the message parser's errors.
    public func receive(timeoutMilliseconds: Int32 = 30_000) throws(TenderError) -> BrokerMessage {
        let until = deadline(timeoutMilliseconds)
        let header = try read(count: BrokerFrame.headerBytes, until: until)
        let length = try BrokerFrame.bodyLength(header: header)
        return try BrokerMessage(body: try read(count: length, until: until))
    }

    private func read(count: Int, until: Int64) throws(TenderError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var offset = 0
        while offset < count {
            try wait(for: Int16(POLLIN), until: until)
            let got = bytes.withUnsafeMutableBytes { recv(fd, $0.baseAddress! + offset, count - offset, Int32(MSG_DONTWAIT)) }
            if got < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw .store("the broker connection broke while receiving: \(String(cString: strerror(errno)))")
            }
            guard got > 0 else { throw .store("the broker connection was closed") }
            offset += got
        }
        return bytes
    }

    private func wait(for events: Int16, until: Int64) throws(TenderError) {
        while true {
            let left = until - Self.now()
            guard left > 0 else { throw .store("the broker connection timed out") }
            var entry = pollfd(fd: fd, events: events, revents: 0)
            let ready = poll(&entry, 1, Int32(min(left, 60_000)))
            if ready > 0 { return }
            if ready < 0 && errno != EINTR { throw .store("the broker connection failed: errno \(errno)") }
        }
    }

    private func deadline(_ milliseconds: Int32) -> Int64 { Self.now() + Int64(milliseconds) }

    private static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000
    }

    private static func address(_ path: String) throws(TenderError) -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard !bytes.isEmpty, !bytes.contains(0), bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw .invalidArgument("the broker socket path must be 1 to 107 bytes without NUL")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        return address
    }
}
