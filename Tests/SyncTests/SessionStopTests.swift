import Foundation
import Glibc
import Logging
import Storage
import Testing
@testable import Sync

/// How a session that did not run to its end is recorded (issue 36: a pause was recorded as "Cancelled").
@Suite struct SessionStopTests {
    @Test func aSessionEndedByAPauseIsRecordedAsPaused() throws {
        let node = try LinkedNode()
        node.engine.pause()
        node.engine.runOnce()
        #expect(try node.database.syncSessions().map(\.outcome) == [.paused])
    }

    @Test func aSessionEndedByCancelIsRecordedAsCancelled() throws {
        let node = try LinkedNode()
        node.engine.cancel()
        node.engine.runOnce()
        #expect(try node.database.syncSessions().map(\.outcome) == [.cancelled])
    }

    @Test func aSessionEndedByTheServerStoppingIsRecordedAsInterrupted() throws {
        let node = try LinkedNode()
        node.engine.stop(timeout: 0)
        node.engine.runOnce()
        #expect(try node.database.syncSessions().map(\.outcome) == [.interrupted])
    }
}

/// A node linked to a stand-in hub that answers every request with an empty JSON object: enough for the health check,
/// so a session starts, and nothing that lets it get further than its first step.
private final class LinkedNode {
    let directory: URL
    let database: AppDatabase
    let engine: SyncEngine
    let hub: EmptyAnswerServer

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("fieldbook-sync-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        database = try AppDatabase(path: directory.appendingPathComponent("fieldbook.sqlite").path, passwordCost: .test)
        hub = try EmptyAnswerServer()
        try database.linkHub(HubLink(upstream: URL(string: "http://127.0.0.1:\(hub.port)")!, email: "hub@example.org",
                                     refreshToken: "unused", linkedAt: Date()))
        engine = SyncEngine(database: database, logger: Logger(label: "test"))
    }

    deinit {
        hub.close()
        try? FileManager.default.removeItem(at: directory)
    }
}

/// Answers each connection's first request with `200 {}` and closes it.
private final class EmptyAnswerServer: @unchecked Sendable {
    private let socket: Int32
    let port: Int

    init() throws {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let socket = self.socket
        let listening = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0 && listen(socket, 16) == 0
            }
        }
        guard listening else { Glibc.close(socket); throw POSIXError(.EADDRNOTAVAIL) }
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { Self.serve(socket) }
        thread.start()
    }

    private static func serve(_ socket: Int32) {
        while case let connection = accept(socket, nil, nil), connection >= 0 {
            var buffer = [UInt8](repeating: 0, count: 65536)
            _ = read(connection, &buffer, buffer.count)
            let answer = Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}".utf8)
            _ = answer.withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
            Glibc.close(connection)
        }
    }

    func close() {
        shutdown(socket, Int32(SHUT_RDWR))
        Glibc.close(socket)
    }
}
