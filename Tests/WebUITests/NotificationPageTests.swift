import Domain
import Foundation
import HTTPServer
import Storage
import Testing
@testable import WebUI

/// Issue 13: the header's bell, /notifications and its preferences, each person reaching only their own.
@Suite struct NotificationPageTests {
    let given: WebHarness
    let editor: User
    let activity: Activity
    let participant: Participant

    init() async throws {
        given = try await WebHarness()
        try given.createUser("admin@example.org", .administrator)
        editor = try given.createUser("ed@example.org", .editor)
        try given.createUser("reader@example.org", .readOnly)
        participant = try given.database.createParticipant(ParticipantInput(name: "Ed Editor", email: "ed@example.org"), by: .system("test"))
        let type = CategoryKind.activityType.predefined[0].id.uuidString
        activity = try given.database.createActivity(ActivityInput(name: "Tuesday circle", typeId: type, startDate: "2026-01-05",
                                                                   duration: "ongoing", status: "ACTIVE"), by: .system("test"))
    }

    /// The administrator assigns the editor; the notifier runs as the server's would after the commit.
    @discardableResult
    func assignEditor() throws -> FieldbookNotification {
        try #require(try assignEditorAndDeliver().first)
    }

    func assignEditorAndDeliver() throws -> [FieldbookNotification] {
        let admin = try given.database.users().first { $0.role == .administrator }!
        try given.database.assign(participant: participant.id.uuidString, role: CategoryKind.participantRole.predefined[0].id.uuidString,
                                  toActivity: activity.id, by: .user(admin.id))
        return try given.database.deliverNotifications()
    }

    /// Opening a notification writes (it marks it read), so the server does not answer it on its reading threads,
    /// where it could hold every page behind a busy writer; the list of notifications only reads.
    @Test func openingANotificationIsNotAnsweredAsAQuickRead() {
        let id = UUID()
        #expect(!given.web.onlyReads(Request(method: .get, path: Paths.openNotification(id))))
        #expect(!given.web.onlyReads(Request(method: .head, path: Paths.openNotification(id))))
        #expect(given.web.onlyReads(Request(method: .get, path: Paths.notifications())))
        #expect(given.web.onlyReads(Request(method: .get, path: Paths.participants.list())))
        #expect(!given.web.onlyReads(Request(method: .post, path: Paths.readNotification(id))))
    }

    @Test func theBellCountsUnreadNotificationsAndTheListOpensTheRecord() throws {
        given.signIn("ed@example.org")
        #expect(given.get("/").bodyText.contains(">Notifications<span class=\"notification-bell__count\" data-notification-count></span>"))
        #expect(given.get("/notifications").bodyText.contains("No notifications yet"))
        let made = try assignEditor()
        #expect(given.get("/").bodyText.contains("Notifications<span class=\"notification-bell__count\" data-notification-count> (1 unread)</span>"))
        let list = given.get("/notifications").bodyText
        #expect(list.contains("Unread: </strong><a href=\"/notifications/\(made.id.uuidString.lowercased())\">You were assigned to the activity “Tuesday circle”"))
        let opened = given.get("/notifications/\(made.id.uuidString.lowercased())")
        #expect(opened.status == .seeOther && opened.header("Location") == "/activities/\(activity.id.uuidString.lowercased())")
        #expect(try given.database.unreadNotificationCount(for: editor.id) == 0)
        #expect(!given.get("/notifications").bodyText.contains("Unread: "))
    }

    @Test func someoneElsesNotificationIsNotFoundAndTheirListIsTheirOwn() throws {
        let made = try assignEditor()
        given.signIn("reader@example.org")
        #expect(given.get("/notifications/\(made.id.uuidString.lowercased())").status == .notFound)
        let read = given.post("/notifications/\(made.id.uuidString.lowercased())/read", [], formPath: "/notifications")
        #expect(read.status == .notFound)
        #expect(!given.get("/notifications").bodyText.contains("Tuesday circle"))
        #expect(try given.database.unreadNotificationCount(for: editor.id) == 1)
    }

    @Test func markingOneOrAllReadReturnsToTheListAsItWas() throws {
        let made = try assignEditor()
        given.signIn("ed@example.org")
        let one = given.post("/notifications/\(made.id.uuidString.lowercased())/read", [("return_to", "/notifications?show=unread")],
                             formPath: "/notifications")
        #expect(one.status == .seeOther && one.header("Location") == "/notifications?show=unread")
        #expect(try given.database.unreadNotificationCount(for: editor.id) == 0)
        let elsewhere = given.post("/notifications/read-all", [("return_to", "https://evil.example/")], formPath: "/notifications")
        #expect(elsewhere.header("Location") == "/notifications", "only ever back to the list")
        let split = given.post("/notifications/read-all", [("return_to", "/notifications?show=unread\r\nSet-Cookie: x=1")],
                               formPath: "/notifications")
        #expect(split.header("Location") == "/notifications", "a CR or LF would leave the answer without a Location")
    }

    @Test func preferencesTurnKindsOffAndRefuseUnknownOnesWithTheFormKept() throws {
        given.signIn("ed@example.org")
        let form = given.get("/notifications/preferences").bodyText
        #expect(form.contains("id=\"kind-assigned_to_activity\"") && !form.contains("kind-node_linked"), "administrators' kinds are not offered")
        let kept = NotificationKind.receivable(by: .editor).filter { $0 != .assignedToActivity }.map { ("received_kinds", $0.rawValue) }
        #expect(given.post("/notifications/preferences", kept).status == .seeOther)
        #expect(try given.database.notificationPreferences(for: editor.id).mutedKinds == [.assignedToActivity])
        #expect(try given.database.deliverNotifications().isEmpty)
        #expect(try assignEditorAndDeliver().isEmpty)
        #expect(try given.database.unreadNotificationCount(for: editor.id) == 0, "a kind turned off makes nothing")
        let refused = given.post("/notifications/preferences", [("received_kinds", "no_such_kind")])
        #expect(refused.status == .unprocessableContent && refused.bodyText.contains("“no_such_kind” is not a kind of notification"))
    }

    @Test func everyNotificationRouteNeedsASignIn() {
        for path in ["/notifications", "/notifications/preferences", "/notifications/\(UUID().uuidString.lowercased())"] {
            let answer = given.get(path)
            #expect(answer.status == .seeOther && answer.header("Location")?.hasPrefix("/login") == true, "\(path)")
        }
    }
}
