import Domain
import Foundation
@testable import HTTPServer
import Storage
import Sync
import Testing
@testable import WebUI

/// GET /events and the status broadcaster behind it.
@Suite struct StatusEventsTests {
    /// Everything queued in `stream` so far, as text.
    func queuedText(_ stream: EventStream) -> String {
        guard case .bytes(let bytes) = stream.next(maxBytes: 1 << 20, park: {}) else { return "" }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func signedOutVisitorsAreSentToSignIn() async throws {
        let given = try await WebHarness()
        try given.createUser("ed@example.org", .editor)
        let answer = given.get("/events")
        #expect(answer.status == .seeOther)
        #expect(answer.header("Location") == "/login?next=%2Fevents")
        #expect(answer.stream == nil)
        #expect(given.web.syncStatus.subscriberCount == 0)
    }

    @Test func theFirstEventIsTheCurrentStatus() async throws {
        let given = try await WebHarness()
        try given.createUser("ro@example.org", .readOnly)
        given.signIn("ro@example.org")
        let pending = try given.database.pendingOperationCount()
        let answer = given.get("/events")
        #expect(answer.status == .ok)
        #expect(answer.header("Content-Type") == "text/event-stream")
        #expect(answer.header("Cache-Control") == "no-store")
        let stream = try #require(answer.stream)
        #expect(queuedText(stream) == """
            retry: 5000\n\nevent: status\ndata: {"current_sync_label":"No sync is running now.","hub":"offline","hub_label":"Hub offline",\
            "last_successful_sync":null,"last_successful_sync_label":"Never synced","paused":false,\
            "pending_label":"\(pending) change not yet synced","pending_operations":\(pending)}\n\n\
            event: notifications\ndata: {"system":false,"unread":0,"unread_label":"No unread notifications"}\n\n
            """)
        #expect(given.web.syncStatus.subscriberCount == 1)
        stream.close()
        #expect(given.web.syncStatus.subscriberCount == 0)
    }

    @Test func aSuccessfulWritePublishesTheNewStatus() async throws {
        let given = try await WebHarness()
        try given.createUser("ed@example.org", .editor)
        given.signIn("ed@example.org")
        let stream = try #require(given.get("/events").stream)
        let before = try given.database.pendingOperationCount()
        _ = queuedText(stream)
        #expect(given.post("/activity-types/new", [("name", "Night Market")], formPath: "/activity-types/new").status == .seeOther)
        #expect(queuedText(stream).contains("\"pending_operations\":\(before + 1)}"))
        // A refused write changes nothing, and an unchanged status is not sent again.
        #expect(given.post("/activity-types/new", [("name", "")], formPath: "/activity-types/new").status == .unprocessableContent)
        given.web.syncStatus.publishCurrent()
        #expect(queuedText(stream) == "")
        stream.close()
    }

    @Test func publishedStatusReachesEverySubscriberAndHeartbeatsFollow() async throws {
        let given = try await WebHarness()
        let broadcaster = StatusBroadcaster(reporter: SyncStatusReporter(database: given.database, engine: nil),
                                            heartbeatInterval: 0.05)
        let streams = [broadcaster.subscribe(userId: UUID()), broadcaster.subscribe(userId: UUID())]
        streams.forEach { _ = queuedText($0) }
        broadcaster.publish(SyncStatus(hub: .online, pendingOperations: 1, lastSuccessfulSync: Date(timeIntervalSince1970: 0)))
        for stream in streams {
            // A heartbeat may come first on a loaded machine (its interval here is 50 ms); the status follows it.
            var text = queuedText(stream)
            while text.hasPrefix(": heartbeat\n\n") { text.removeFirst(": heartbeat\n\n".count) }
            #expect(text.hasPrefix("event: status\ndata: {\"current_sync_label\":\"No sync is running now.\",\"hub\":\"online\",\"hub_label\":\"Hub online\","))
            #expect(text.contains("\"last_successful_sync\":\"1970-01-01T00:00:00Z\""))
            #expect(text.contains("\"last_successful_sync_label\":\"Last synced "))
            #expect(text.contains("\"pending_label\":\"1 change not yet synced\",\"pending_operations\":1}\n\n"))
        }
        try await Task.sleep(for: .milliseconds(200))
        #expect(streams.allSatisfy { queuedText($0).hasPrefix(": heartbeat\n\n") })
        streams.forEach { $0.close() }
        #expect(broadcaster.subscriberCount == 0)
    }

    @Test func everyPageShowsTheStatusWhereTheScriptUpdatesIt() async throws {
        let given = try await WebHarness()
        try given.createUser("ro@example.org", .readOnly)
        #expect(!given.get("/login").bodyText.contains("data-events-url"))
        given.signIn("ro@example.org")
        let page = given.get("/").bodyText
        #expect(page.contains("data-events-url=\"/events\""))
        // The harness's node is linked to a hub it never reaches, and creating the user queued one change.
        #expect(page.contains("<span class=\"sync-status__state\" role=\"status\" data-sync-field=\"hub_label\">Hub offline</span>"))
        #expect(page.contains("data-sync-field=\"pending_label\">1 change not yet synced</span>"))
    }
}
