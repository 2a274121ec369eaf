import Domain
import Foundation
@testable import Storage
import Testing

/// A node's own sign-in at its hub (issue 36): it outlives its maker's password changes, is listed with when it was
/// last seen, and ends when an administrator revokes it.
@Suite struct NodeCredentialTests {
    let hub: TestDatabase
    let admin: User

    init() throws {
        hub = try TestDatabase(linked: false)
        admin = try hub.database.createUser(.forTests("admin@example.org", .administrator), by: .system("test"))
    }

    @Test func aNodesSignInOutlivesPasswordChangesWhileThePersonsOtherSignInsEnd() throws {
        let node = try hub.database.issueNodeCredential(for: admin, nodeName: "Kibera laptop")
        let person = try hub.database.issueAPITokens(for: admin)
        try hub.database.resetPassword(id: admin.id, password: "a new password 1", confirmation: "a new password 1", by: .system("test"))
        try hub.database.changeOwnPassword(id: admin.id, current: "a new password 1", password: "another password 2",
                                           confirmation: "another password 2", keepingSession: nil, by: .user(admin.id))

        #expect(try hub.database.apiBearer(accessToken: person.accessToken) == nil)
        #expect(try hub.database.apiBearer(accessToken: node.accessToken)?.familyId == node.familyId)
        #expect(try hub.database.refreshAPITokens(refreshToken: node.refreshToken) != nil)
    }

    @Test func theHubListsItsNodesAndARevokedOneStopsAtOnce() throws {
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let node = try hub.database.issueNodeCredential(for: admin, nodeName: "Kibera laptop", now: start)
        let renewed = try #require(try hub.database.refreshAPITokens(refreshToken: node.refreshToken, now: start.addingTimeInterval(600)))

        let listed = try #require(try hub.database.nodeCredentials().first)
        #expect(listed.id == node.familyId && listed.name == "Kibera laptop" && listed.linkedBy == "admin@example.org")
        #expect(listed.lastSeenAt == start.addingTimeInterval(600) && listed.revokedAt == nil)

        try hub.database.revokeNodeCredential(node.familyId, now: start.addingTimeInterval(700))
        #expect(try hub.database.apiBearer(accessToken: renewed.accessToken, now: start.addingTimeInterval(700)) == nil)
        #expect(try hub.database.refreshAPITokens(refreshToken: renewed.refreshToken, now: start.addingTimeInterval(700)) == nil)
        #expect(try hub.database.nodeCredentials().first?.revokedAt == start.addingTimeInterval(700))
        #expect(throws: DomainError.self) { try hub.database.revokeNodeCredential(UUID()) }
    }
}
