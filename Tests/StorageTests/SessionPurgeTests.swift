import Domain
import Foundation
import Testing
@testable import Storage

/// Expired sessions are deleted at start-up by comparing their stored times, as text, with limits written the same way.
@Suite struct SessionPurgeTests {
    let policy = SessionPolicy(idleTimeout: 600, absoluteTimeout: 3600)

    @Test func aSessionIdleTooLongIsDeletedAndAFreshOneKept() throws {
        let given = try TestDatabase()
        let user = try given.database.createUser(.forTests("admin@example.org", .administrator), by: .system("test"))
        let start = Date()
        let session = try given.database.startSession(for: user.id)
        try given.database.purgeExpiredSessions(policy: policy, now: start.addingTimeInterval(590))
        #expect(try isKept(session.token, given.database, at: start))
        try given.database.purgeExpiredSessions(policy: policy, now: start.addingTimeInterval(610))
        #expect(try !isKept(session.token, given.database, at: start))
    }

    @Test func aSessionInUseIsDeletedOnceOlderThanTheAbsoluteTimeout() throws {
        let given = try TestDatabase()
        let user = try given.database.createUser(.forTests("admin@example.org", .administrator), by: .system("test"))
        let start = Date()
        let session = try given.database.startSession(for: user.id)
        try given.database.keepUp(.touch(tokenHash: TokenSecret.hash(session.token), at: start.addingTimeInterval(3500)))
        try given.database.purgeExpiredSessions(policy: policy, now: start.addingTimeInterval(3590))
        #expect(try isKept(session.token, given.database, at: start))
        try given.database.purgeExpiredSessions(policy: policy, now: start.addingTimeInterval(3610))
        #expect(try !isKept(session.token, given.database, at: start))
    }

    /// Whether the session's row is still there: looked up at its start, when it cannot have expired.
    private func isKept(_ token: String, _ database: AppDatabase, at start: Date) throws -> Bool {
        try database.lookUpSession(token: token, policy: policy, now: start.addingTimeInterval(1)).session != nil
    }
}
