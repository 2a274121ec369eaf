import Credentials
import Domain
import Foundation
import Testing
@testable import Storage

/// Sessions that expired or ended longer ago than the policy remembers them are deleted at start-up, by comparing
/// their stored times, as text, with limits written the same way.
@Suite struct SessionPurgeTests {
    let policy = SessionPolicy(idleTimeout: 600, absoluteTimeout: 3600, endedSessionMemory: 1000)

    @Test func aSessionIdleTooLongIsDeletedOnceForgottenAndAFreshOneKept() throws {
        let given = try TestDatabase()
        let user = try given.database.createUser(.forTests("admin@example.org", .administrator), by: .system("test"))
        let start = Date()
        let session = try given.database.startSession(for: user.id)
        try given.database.purgeExpiredSessions(policy: policy, now: start.addingTimeInterval(1590))
        #expect(try isKept(session.token, given.database, at: start))
        try given.database.purgeExpiredSessions(policy: policy, now: start.addingTimeInterval(1610))
        #expect(try !isKept(session.token, given.database, at: start))
    }

    @Test func aSessionInUseIsDeletedOnceForgottenAfterTheAbsoluteTimeout() throws {
        let given = try TestDatabase()
        let user = try given.database.createUser(.forTests("admin@example.org", .administrator), by: .system("test"))
        let start = Date()
        let session = try given.database.startSession(for: user.id)
        try given.database.keepUp(.touch(tokenHash: TokenSecret.hash(session.token), at: start.addingTimeInterval(3500)))
        try given.database.purgeExpiredSessions(policy: policy, now: start.addingTimeInterval(4590))
        #expect(try isKept(session.token, given.database, at: start))
        try given.database.purgeExpiredSessions(policy: policy, now: start.addingTimeInterval(4610))
        #expect(try !isKept(session.token, given.database, at: start))
    }

    /// An ended session (signed out, idle too long, a password reset by an administrator) names its user, so a form
    /// sent from one of its pages can be kept for them alone, until it is forgotten.
    @Test func anEndedSessionNamesItsUserUntilItIsForgotten() throws {
        let given = try TestDatabase()
        let admin = try given.database.createUser(.forTests("admin@example.org", .administrator), by: .system("test"))
        let user = try given.database.createUser(.forTests("ed@example.org", .editor), by: .system("test"))
        let start = Date()
        let reset = try given.database.startSession(for: user.id)
        let idle = try given.database.startSession(for: user.id)
        let signedOut = try given.database.startSession(for: admin.id)
        #expect(try given.database.lookUpSession(token: reset.token, policy: policy, now: start).endedSessionUser == nil, "live")
        #expect(try given.database.lookUpSession(token: "unknown", policy: policy, now: start).endedSessionUser == nil)

        try given.database.resetPassword(id: user.id, password: "a new password 123", confirmation: "a new password 123", by: .system("test"))
        let afterReset = try given.database.lookUpSession(token: reset.token, policy: policy, now: start.addingTimeInterval(1))
        #expect(afterReset.session == nil && afterReset.endedSessionUser == user.id)

        try given.database.endSession(token: signedOut.token, now: start)
        #expect(try given.database.lookUpSession(token: signedOut.token, policy: policy, now: start).endedSessionUser == admin.id)

        // An expiry found by a page (its upkeep written) still names the user at the next request.
        let expired = try given.database.lookUpSession(token: idle.token, policy: policy, now: start.addingTimeInterval(700))
        #expect(expired.session == nil && expired.endedSessionUser == user.id)
        try given.database.keepUp(expired.upkeep)
        #expect(try given.database.lookUpSession(token: idle.token, policy: policy, now: start.addingTimeInterval(701)).endedSessionUser == user.id)

        try given.database.purgeExpiredSessions(policy: policy, now: start.addingTimeInterval(990))
        #expect(try given.database.lookUpSession(token: signedOut.token, policy: policy, now: start).endedSessionUser == admin.id)
        try given.database.purgeExpiredSessions(policy: policy, now: start.addingTimeInterval(1010))
        #expect(try given.database.lookUpSession(token: signedOut.token, policy: policy, now: start).endedSessionUser == nil, "forgotten")
    }

    /// Whether the session's row is still there: looked up at its start, when it cannot have expired.
    private func isKept(_ token: String, _ database: AppDatabase, at start: Date) throws -> Bool {
        try database.lookUpSession(token: token, policy: policy, now: start.addingTimeInterval(1)).session != nil
    }
}
