// SPDX-License-Identifier: Apache-2.0
import Glibc
@testable import TenderBroker
import TenderCore
import TenderTestSupport
import Testing

@Suite struct BrokerSocketTests {
    /// A listener in a fresh directory, one client connected to it, and the server's end.
    private func pair() throws -> (home: TemporaryHome, listener: BrokerSocket, client: BrokerSocket, server: BrokerSocket) {
        let home = TemporaryHome(prefix: "broker")
        let path = home.path + "/socket"
        let listener = try BrokerSocket.listen(path: path, mode: 0o600)
        let client = try BrokerSocket.connect(path: path)
        let server = try #require(listener.accept())
        return (home, listener, client, server)
    }

    @Test func carriesMessagesAndNamesThePeer() throws {
        let (home, listener, client, server) = try pair()
        defer { withExtendedLifetime((home, listener)) {} }
        #expect(try server.peerUID() == getuid())
        let message = BrokerMessage(.session, [("intent", .object([("intent", .string("send_payment"))]))])
        try client.send(message)
        #expect(try server.receive(timeoutMilliseconds: 5000) == message)
        try server.send(BrokerMessage(.ok))
        #expect(try client.receive(timeoutMilliseconds: 5000).op == .ok)
    }

    @Test func theSocketFileHasTheModeAskedFor() throws {
        let home = TemporaryHome(prefix: "broker")
        let path = home.path + "/socket"
        let listener = try BrokerSocket.listen(path: path, mode: 0o666)
        defer { withExtendedLifetime((home, listener)) {} }
        var info = stat()
        #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o666)
    }

    @Test func refusesAnOversizedFrameBeforeItsBody() throws {
        let (home, listener, client, server) = try pair()
        defer { withExtendedLifetime((home, listener, client)) {} }
        let header: [UInt8] = [0x7F, 0xFF, 0xFF, 0xFF]
        try rawSend(client, header)
        #expect(throws: TenderError.self) { try server.receive(timeoutMilliseconds: 5000) }
    }

    @Test func cutsOffAClientThatTrickles() throws {
        let (home, listener, client, server) = try pair()
        defer { withExtendedLifetime((home, listener)) {} }
        let frame = BrokerFrame.encode(BrokerMessage(.resolve))
        try rawSend(client, Array(frame.prefix(6)))
        #expect(throws: TenderError.store("the broker connection timed out")) { try server.receive(timeoutMilliseconds: 200) }
        client.close()
    }

    @Test func reportsAClosedPeer() throws {
        let (home, listener, client, server) = try pair()
        defer { withExtendedLifetime((home, listener)) {} }
        client.close()
        #expect(throws: TenderError.store("the broker connection was closed")) { try server.receive(timeoutMilliseconds: 2000) }
    }

    @Test func refusesToReplaceAFileThatIsNotASocket() throws {
        let home = TemporaryHome(prefix: "broker")
        let path = home.path + "/plain"
        let file = fopen(path, "w")
        fclose(file)
        #expect(throws: TenderError.self) { try BrokerSocket.listen(path: path, mode: 0o600) }
        #expect(access(path, F_OK) == 0)
    }

    @Test func replacesAStaleSocketButNotOneInUse() throws {
        let home = TemporaryHome(prefix: "broker")
        let path = home.path + "/socket"
        var first: BrokerSocket? = try BrokerSocket.listen(path: path, mode: 0o600)
        // In use: a second listener is refused and the first keeps its file.
        #expect(throws: TenderError.home("\(path) is in use: another process listens on it")) {
            try BrokerSocket.listen(path: path, mode: 0o600)
        }
        try BrokerSocket.connect(path: path).close()
        // Stale: the listener closed without removing its file; the next one replaces it.
        first?.close()
        first = nil
        var info = stat()
        #expect(lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFSOCK)
        let second = try BrokerSocket.listen(path: path, mode: 0o600)
        defer { withExtendedLifetime((home, second)) {} }
        try BrokerSocket.connect(path: path).close()
    }

    @Test func removesOnlyTheSocketFileItMade() throws {
        let home = TemporaryHome(prefix: "broker")
        let path = home.path + "/socket"
        let listener = try BrokerSocket.listen(path: path, mode: 0o600)
        defer { withExtendedLifetime(home) {} }
        #expect(listener.removeSocketFile())
        #expect(access(path, F_OK) != 0)
        // Another file at the path since (here another listener's): not ours, left alone.
        let other = try BrokerSocket.listen(path: path, mode: 0o600)
        defer { withExtendedLifetime(other) {} }
        #expect(!listener.removeSocketFile())
        #expect(access(path, F_OK) == 0)
        #expect(!BrokerSocket.adopt(descriptor: -1).removeSocketFile())
    }

    @Test func saysWhenNoBrokerAnswers() {
        let home = TemporaryHome(prefix: "broker")
        #expect(throws: TenderError.self) { try BrokerSocket.connect(path: home.path + "/none") }
    }

    private func rawSend(_ socket: BrokerSocket, _ bytes: [UInt8]) throws {
        try socket.sendRaw(bytes)
    }
}
