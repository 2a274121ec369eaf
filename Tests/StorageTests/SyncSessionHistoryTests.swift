import Foundation
import GRDB
import Testing
@testable import Storage

/// The history of sync sessions says what happened (issue 36): sessions that exchanged nothing are not listed but
/// kept as the latest check, a pause is recorded as such, and refused operations are not hidden in a success.
@Suite struct SyncSessionHistoryTests {
    let node: TestDatabase

    init() throws { node = try TestDatabase() }

    @discardableResult
    private func session(_ outcome: SyncSessionRecord.Outcome, _ statistics: SyncStatistics = SyncStatistics()) throws -> Int64 {
        let id = try node.database.startSyncSession()
        try node.database.finishSyncSession(id, outcome: outcome, statistics: statistics, error: nil)
        return id
    }

    @Test func sessionsThatExchangedNothingAreFoldedIntoTheLastCheck() throws {
        let real = try session(.succeeded, SyncStatistics(pushed: 3, pulled: 2))
        for _ in 0..<30 { try session(.succeeded) }
        let listed = try node.database.syncSessions(limit: 20)
        #expect(listed.map(\.id) == [real])
        #expect(try node.database.lastEmptyCheck() != nil)
        #expect(try node.database.lastSuccessfulSync() == node.database.lastEmptyCheck())
        // Only the latest check is kept, not a row for every interval.
        let rows = try node.database.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM sync_sessions") }
        #expect(rows == 2)
    }

    // Photo files move apart from their records: a session that only sent or fetched files did something.
    @Test func aSessionThatOnlyMovedPhotoFilesIsListedWithItsCounts() throws {
        try session(.succeeded)
        let sent = try session(.succeeded, SyncStatistics(photosSent: 2))
        let received = try session(.succeeded, SyncStatistics(photosReceived: 3))
        try session(.succeeded)
        let listed = try node.database.syncSessions()
        #expect(listed.map(\.id) == [received, sent])
        #expect(listed.map(\.statistics) == [SyncStatistics(photosReceived: 3), SyncStatistics(photosSent: 2)])
    }

    @Test func aPausedSessionIsRecordedAsPausedAndListed() throws {
        let id = try session(.paused)
        #expect(try node.database.syncSessions().map(\.outcome) == [.paused])
        #expect(try node.database.syncSessions().first?.id == id)
    }

    @Test func refusedOperationsAreCountedAsRefusedNotAsASuccess() throws {
        try session(.succeeded, SyncStatistics(pushed: 4, failures: 2))
        let listed = try #require(try node.database.syncSessions().first)
        #expect(listed.refused == 2)
        #expect(try session(.failed, SyncStatistics(failures: 1)) > 0)
        #expect(try node.database.syncSessions().first?.refused == 0)
    }
}
