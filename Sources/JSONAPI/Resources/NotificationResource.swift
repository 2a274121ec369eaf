import Domain
import Foundation
import HTTPServer
import Storage
import Surface

/// The caller's own notifications: list them, mark one or all read, and choose what they are told. Any
/// signed-in person, whatever their role; nobody reaches anyone else's.
enum NotificationResource {
    struct Body: Encodable, Sendable {
        let id: String
        let kind: String
        let kindLabel: String
        let text: String
        /// The page the notification is about, on this Fieldbook.
        let link: String
        let isRead: Bool
        let createdAt: Date
        let version: Int

        init(_ notification: FieldbookNotification) {
            (id, kind, kindLabel, text) = (notification.id.text, notification.kind.rawValue, notification.kind.label, notification.text)
            (link, isRead, createdAt, version) = (notification.subject.pagePath, notification.isRead, notification.createdAt, notification.version)
        }
    }

    struct PageBody: Encodable, Sendable {
        let items: [Body]
        let page: Int
        let perPage: Int
        let total: Int
        let unread: Int
    }

    struct PreferencesBody: Encodable, Sendable {
        let receivedKinds: [String]
        let availableKinds: [String]
        let systemNotifications: Bool
        let version: Int

        init(_ preferences: NotificationPreferences, role: UserRole) {
            let available = NotificationKind.receivable(by: role)
            receivedKinds = available.filter(preferences.receives).map(\.rawValue)
            availableKinds = available.map(\.rawValue)
            (systemNotifications, version) = (preferences.showsSystemNotifications, preferences.version)
        }
    }

    struct ReadAllBody: Encodable, Sendable {
        let marked: Int
        let unread: Int
    }

    static let kinds = NotificationKind.allCases.map(\.rawValue)
    static let preferenceFields: [Field] = [
        .input("received_kinds", .choiceList(NotificationPreferencesInput.Rules.receivedKinds),
               "The kinds to be told of; the kinds left out are turned off. Administrators' kinds are ignored for other roles."),
        .of("system_notifications", .boolean,
            "Show new notifications as system notifications while a Fieldbook page is open; absent keeps the current choice"),
    ]

    static let components: [String: [Field]] = [
        "Notification": [
            .of("id", .uuid, required: true), .of("kind", .choice(kinds), required: true), .of("kind_label", .text, required: true),
            .of("text", .text, required: true), .of("link", .text, required: true, "The page it is about, as a path on this Fieldbook"),
            .of("is_read", .boolean, required: true), .of("created_at", .dateTime, required: true), .version(required: true),
        ],
        "NotificationList": [
            .of("items", .list("Notification"), required: true), .of("page", .integer, required: true),
            .of("per_page", .integer, required: true), .of("total", .integer, required: true),
            .of("unread", .integer, required: true, "The caller's unread notifications, whatever the filters"),
        ],
        "NotificationsRead": [.of("marked", .integer, required: true), .of("unread", .integer, required: true)],
        "NotificationPreferences": [
            .of("received_kinds", .choiceList(kinds), required: true), .of("available_kinds", .choiceList(kinds), required: true),
            .of("system_notifications", .boolean, required: true), .of("version", .integer, required: true, "0 until first saved"),
        ],
        "NotificationPreferencesWrite": preferenceFields,
    ]

    static let listDoc = APIOperation(id: "listNotifications", summary: "The caller's notifications, newest first",
                                      query: APIOperation.paging + [.of("kind", .choice(kinds), "Only this kind"),
                                                                    .of("show", .choice(NotificationShow.allCases.map(\.rawValue)), "unread: only unread ones")],
                                      success: .json("NotificationList"))
    static let readDoc = APIOperation(id: "markNotificationRead", summary: "Mark one of the caller's notifications read", success: .json("Notification"))
    static let readAllDoc = APIOperation(id: "markAllNotificationsRead", summary: "Mark every notification of the caller read",
                                         success: .json("NotificationsRead"))
    static let preferencesDoc = APIOperation(id: "getNotificationPreferences", summary: "What the caller is told",
                                             success: .json("NotificationPreferences"))
    static let savePreferencesDoc = APIOperation(id: "setNotificationPreferences", summary: "Choose what the caller is told",
                                                 body: "NotificationPreferencesWrite", success: .json("NotificationPreferences"))

    @Sendable static func list(_ context: APIContext) throws -> Response {
        let user = try context.signedInUser
        let page = try context.pageRequest()
        let found = try context.database.notifications(for: user.id, NotificationQuery(
            kind: try context.choice("kind", NotificationKind.self), unreadOnly: try context.choice("show", NotificationShow.self) == .unread,
            page: page))
        return APIResponse.ok(PageBody(items: found.list.items.map(Body.init), page: page.page, perPage: page.perPage,
                                       total: found.list.total, unread: found.unread))
    }

    @Sendable static func markRead(_ context: APIContext) throws -> Response {
        APIResponse.ok(Body(try context.database.markNotificationRead(id: try context.id(), by: try context.signedInUser)))
    }

    @Sendable static func markAllRead(_ context: APIContext) throws -> Response {
        let user = try context.signedInUser
        let marked = try context.database.markAllNotificationsRead(by: user)
        return APIResponse.ok(ReadAllBody(marked: marked, unread: try context.database.unreadNotificationCount(for: user.id)))
    }

    @Sendable static func preferences(_ context: APIContext) throws -> Response {
        let user = try context.signedInUser
        return APIResponse.ok(PreferencesBody(try context.database.notificationPreferences(for: user.id), role: user.role))
    }

    @Sendable static func savePreferences(_ context: APIContext) throws -> Response {
        let user = try context.signedInUser
        let body = try context.body(preferenceFields, mode: .full)
        let current = try context.database.notificationPreferences(for: user.id)
        let input = NotificationPreferencesInput(receivedKinds: body.strings("received_kinds") ?? [],
                                                 systemNotifications: body.bool("system_notifications") ?? current.showsSystemNotifications)
        let saved = try context.database.saveNotificationPreferences(try input.validated(for: user.id, role: user.role), by: user)
        return APIResponse.ok(PreferencesBody(saved, role: user.role))
    }
}

/// Which notifications a list shows.
enum NotificationShow: String, CaseIterable {
    case all, unread
}
