import Domain
import Foundation
import HTTPServer
import Storage
import Testing
@testable import WebUI

/// The sync pages: status, conflicts with real conflicts, failed operations, settings; who may do what.
@Suite struct SyncPageTests {
    @Test func theSyncPageShowsTheQueueFailuresAndHistoryAndReadOnlyUsersCannotControlIt() async throws {
        let given = try await WebHarness()
        try given.createUser("ro@example.org", .readOnly)
        given.signIn("ro@example.org")

        let page = given.get("/sync")
        #expect(page.status == .ok)
        #expect(page.bodyText.contains("Changes waiting to be sent"))
        #expect(!page.bodyText.contains("action=\"/sync/run\""))
        #expect(given.post("/sync/run", [], formPath: "/sync").status == .forbidden)
        #expect(given.post("/sync/pause", [], formPath: "/sync").status == .forbidden)
        #expect(given.get("/settings/sync").status == .forbidden)
    }

    @Test func aLostEditIsListedWithBothValuesAndCanBeAppliedAgain() async throws {
        let given = try await WebHarness()
        try given.createUser("ed@example.org", .editor)
        given.signIn("ed@example.org")
        let hub = try HubDatabase()
        let person = try given.database.createParticipant(ParticipantInput(name: "Ada", email: "ada@example.org"), by: .system("test"))
        try hub.push(from: given.database)
        try hub.database.updateParticipant(id: person.id, ParticipantInput(name: "Ada (hub)", email: "ada@example.org"), expectedVersion: nil,
                                           by: .system("hub"))
        try given.database.updateParticipant(id: person.id, ParticipantInput(name: "Ada (here)", email: "ada@example.org"),
                                             expectedVersion: nil, by: .system("test"))
        try hub.push(from: given.database)

        let home = given.get("/").bodyText
        #expect(home.contains("1 edit made here lost a conflict"))
        let conflicts = given.get("/sync/conflicts")
        #expect(conflicts.status == .ok)
        #expect(conflicts.bodyText.contains("<td>Ada (here)</td><td>Ada (hub)</td>"))
        let conflict = try #require(try given.database.conflicts().first)

        let reapplied = given.post("/sync/conflicts/\(conflict.id.lowercasedString)/reapply", [], formPath: "/sync/conflicts")
        #expect(reapplied.status == .seeOther)
        #expect(try given.database.participant(id: person.id).name == "Ada (here)")
        #expect(try given.database.conflicts().isEmpty)
        #expect(given.get("/sync/conflicts?show=all").bodyText.contains("Re-applied"))
    }

    @Test func aRejectedChangeCanBeRetriedOrDiscardedAfterConfirming() async throws {
        let given = try await WebHarness()
        try given.createUser("ed@example.org", .editor)
        given.signIn("ed@example.org")
        let hub = try HubDatabase()
        try hub.database.createCategory(.activityType, CategoryInput(name: "Choir"), by: .system("hub"))
        try given.database.createCategory(.activityType, CategoryInput(name: "Choir"), by: .system("test"))
        try hub.push(from: given.database)
        let failed = try #require(try given.database.failedOperations().first)
        let path = "/sync/failed/\(failed.operationId.lowercasedString)"

        #expect(given.get("/sync").bodyText.contains("already has the same name"))
        #expect(given.post(path + "/retry", [], formPath: "/sync").status == .seeOther)
        #expect(try given.database.failedOperationCount() == 0)
        try hub.push(from: given.database)
        #expect(given.get(path + "/discard").status == .ok)
        #expect(given.post(path + "/discard", []).status == .seeOther)
        #expect(try given.database.failedOperationCount() == 0)
        #expect(given.get(path + "/discard").status == .notFound)
    }

    @Test func linkingKeepsWhatWasTypedButNeverThePasswordAndTheIntervalIsChecked() async throws {
        let given = try await WebHarness()
        try given.createUser("admin@example.org", .administrator)
        given.signIn("admin@example.org")
        try given.database.unlinkHub()

        let refused = given.post("/settings/sync", [("upstream", "ftp://hub"), ("email", "boss@example.org"), ("password", "secret words")])
        #expect(refused.status == .unprocessableContent)
        #expect(refused.bodyText.contains("value=\"ftp://hub\"") && refused.bodyText.contains("value=\"boss@example.org\""))
        #expect(!refused.bodyText.contains("secret words"))
        let unreachable = given.post("/settings/sync", [("upstream", "http://127.0.0.1:9"), ("email", "boss@example.org"),
                                                         ("password", "secret words")])
        #expect(unreachable.status == .unprocessableContent)
        #expect(unreachable.bodyText.contains("could not be reached"))
        #expect(try given.database.hubLink() == nil)

        try given.database.linkHub(HubLink(upstream: URL(string: "http://hub.invalid")!, email: "boss@example.org",
                                           refreshToken: "refresh-token-never-shown", linkedAt: Date()))
        let settings = given.get("/settings/sync").bodyText
        #expect(settings.contains("http://hub.invalid") && !settings.contains("refresh-token-never-shown"))
        #expect(given.post("/settings/sync/interval", [("minutes", "0")], formPath: "/settings/sync").status == .unprocessableContent)
        #expect(given.post("/settings/sync/interval", [("minutes", "15")], formPath: "/settings/sync").status == .seeOther)
        #expect(try given.database.syncInterval() == 900)
        #expect(given.post("/settings/sync/unlink", [], formPath: "/settings/sync/unlink").status == .seeOther)
        #expect(try given.database.hubLink() == nil)
    }
}
