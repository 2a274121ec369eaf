import Domain
import Foundation
import Glibc
import Logging
import PropertyBased
import Storage
import Testing
@testable import Sync

/// The sync engine's own behaviour: backoff, progress, and what it does when the hub cannot be reached.
@Suite struct SyncEngineTests {
    // Feature: fieldbook, Property 17: Exponential Backoff Retry
    @Test func property17_exponentialBackoffRetry() async {
        await propertyCheck(count: 100, input: Gen.int(in: 1...80), Gen.int(in: 1...3600)) { failures, cap in
            let delay = SyncBackoff.delay(afterFailures: failures, cap: TimeInterval(cap))
            let uncapped = pow(2.0, Double(failures - 1))
            #expect(delay == min(uncapped, TimeInterval(cap)))
            let next = SyncBackoff.delay(afterFailures: failures + 1, cap: TimeInterval(cap))
            #expect(next == min(delay * 2, TimeInterval(cap)))
        }
        #expect((1...5).map { SyncBackoff.delay(afterFailures: $0, cap: 300) } == [1, 2, 4, 8, 16])
        #expect(SyncBackoff.delay(afterFailures: 0, cap: 300) == 0)
    }

    @Test func progressNeverMovesBackWithinASession() async {
        await propertyCheck(count: 50, input: Gen.int(in: 0...100).array(of: 1...30)) { steps in
            let state = SyncEngineState()
            var shown: [Double] = []
            for step in steps {
                state.setProgress(SyncProgress(phase: .pushing, fraction: Double(step) / 100, pushed: 0, pulled: 0, message: ""))
                shown.append(state.snapshot().progress?.fraction ?? -1)
            }
            #expect(shown == shown.sorted())
        }
    }

    @Test func anUnreachableHubLeavesTheQueueWholeAndReportsOffline() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fieldbook-sync-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = try AppDatabase(path: directory.appendingPathComponent("fieldbook.sqlite").path, passwordCost: .test)
        let closedPort = try FreePort.take()
        try database.linkHub(HubLink(upstream: URL(string: "http://127.0.0.1:\(closedPort)")!, email: "hub@example.org",
                                     refreshToken: "unused", linkedAt: Date()))
        try database.createParticipant(ParticipantInput(name: "Ann", email: "ann@example.org"), by: .system("test"))
        let engine = SyncEngine(database: database, logger: Logger(label: "test"))

        let succeeded = engine.runOnce()

        #expect(!succeeded)
        #expect(engine.snapshot().hub == .offline)
        #expect(try database.pendingOperationCount() == 1)
        #expect(try SyncStatusReporter(database: database, engine: engine).current().hub == .offline)
    }

    @Test func aStandaloneNodeStartsNoSyncThread() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fieldbook-sync-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = try AppDatabase(path: directory.appendingPathComponent("fieldbook.sqlite").path, passwordCost: .test)
        let engine = SyncEngine(database: database, logger: Logger(label: "test"))

        engine.start()

        #expect(!engine.state.isThreadRunning)
        #expect(engine.runOnce())
        #expect(try SyncStatusReporter(database: database, engine: engine).current().hub == .standalone)
        #expect(try database.syncSessions().isEmpty)
    }
}

/// A loopback port nothing listens on (bound, read, and closed again).
enum FreePort {
    static func take() throws -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0 }
        }
        guard bound else { throw POSIXError(.EADDRNOTAVAIL) }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
