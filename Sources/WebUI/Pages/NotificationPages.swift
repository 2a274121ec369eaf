import Domain
import Foundation
import HTTPServer
import Storage
import Surface
import Translations

/// /notifications: the signed-in person's notifications, newest first (issue 13), marking them read, and their
/// preferences. Each person reaches only their own.
enum NotificationPages {
    static func list(_ context: inout PageContext) throws -> Response {
        let user = try context.signedInUser, request = context.request
        let kind = request.query["kind"].flatMap(NotificationKind.init(rawValue:))
        let unreadOnly = request.query["show"] == "unread"
        let page = Int(request.query[ListParameter.page.name] ?? "") ?? 1
        let found = try context.database.notifications(for: user.id, NotificationQuery(kind: kind, unreadOnly: unreadOnly,
                                                                                          page: PageRequest(page: page, perPage: 25)))
        var filters = FormView()
        filters.select("kind", label: Message("Kind", context: "of notification"), value: kind?.rawValue ?? "",
                       options: [("", Message("All kinds"))] + NotificationKind.receivable(by: user.role).map { ($0.rawValue, $0.message) })
        filters.select("show", label: Message("Show", context: "which notifications"), value: unreadOnly ? "unread" : "",
                       options: [("", Message("Read and unread")), ("unread", Message("Unread only"))])
        var view = filters.view
        let here = request.query.isEmpty ? request.path : request.path + "?" + QueryString.encode(request.query)
        view["items"] = found.list.items.map { itemView($0, returnTo: here) }
        view["has_items"] = !found.list.items.isEmpty
        view["filtered"] = kind != nil || unreadOnly
        view["unread_text"] = unreadText(found.unread)
        view["has_unread"] = found.unread > 0
        view["system_notification_texts"] = systemNotificationTexts.json(context.translator)
        view["pagination"] = Pagination.view(found.list, request: request, noun: .notifications, formats: context.translator.formats)
        return context.page("notifications/list", title: Message("Notifications"), section: nil, view: view)
    }

    /// Opens what the notification is about, marking it read: following a notification means it was seen (12.5).
    static func open(_ context: inout PageContext) throws -> Response {
        let notification = try context.database.markNotificationRead(id: try context.request.uuidParameter(), by: try context.signedInUser)
        return context.redirect(to: notification.subject.pagePath)
    }

    static func markRead(_ context: inout PageContext) throws -> Response {
        try context.database.markNotificationRead(id: try context.request.uuidParameter(), by: try context.signedInUser)
        return context.redirect(to: returnAddress(context.request), flash: Message("Notification marked as read."))
    }

    static func markAllRead(_ context: inout PageContext) throws -> Response {
        let count = try context.database.markAllNotificationsRead(by: try context.signedInUser)
        let message = count == 0 ? Message("There were no unread notifications.")
            : Message("{count} notification marked as read.", plural: "{count} notifications marked as read.", count: count)
        return context.redirect(to: returnAddress(context.request), flash: message)
    }

    static func preferences(_ context: inout PageContext) throws -> Response {
        let user = try context.signedInUser
        return preferencesPage(&context, try context.database.notificationPreferences(for: user.id), errors: ValidationError())
    }

    static func savePreferences(_ context: inout PageContext) throws -> Response {
        let user = try context.signedInUser, request = context.request
        let input = NotificationPreferencesInput(receivedKinds: request.form.all("received_kinds"), systemNotifications: request.field("system_notifications") == "on")
        do {
            try context.database.saveNotificationPreferences(try input.validated(for: user.id, role: user.role), by: user)
            return context.redirect(to: Paths.notifications(), flash: Message("Notification preferences saved."))
        } catch let errors as ValidationError {
            var shown = try context.database.notificationPreferences(for: user.id)
            shown.showsSystemNotifications = input.systemNotifications
            return preferencesPage(&context, shown, errors: errors, status: .unprocessableContent)
        }
    }

    private static func preferencesPage(_ context: inout PageContext, _ preferences: NotificationPreferences, errors: ValidationError,
                                        status: HTTPStatus = .ok) -> Response {
        let role = context.user?.role ?? .readOnly
        var view = FormView(errors: errors).view
        view["kinds"] = NotificationKind.receivable(by: role).map { kind -> TemplateView in
            ["value": kind.rawValue, "label": kind.message, "checked": preferences.receives(kind)]
        }
        view["system_notifications"] = preferences.showsSystemNotifications
        return context.page("notifications/preferences", title: Message("Notification preferences"), section: nil, view: view, status: status,
                            hasErrors: !errors.isEmpty)
    }

    private static func itemView(_ notification: FieldbookNotification, returnTo: String) -> TemplateView {
        [
            "id": notification.id.uuidString.lowercased(), "text": notification.text, "kind": notification.kind.message,
            "unread": !notification.isRead, "when": DateText.format(notification.createdAt),
            "datetime": notification.createdAt.formatted(.iso8601), "open_url": Paths.openNotification(notification.id),
            "read_url": Paths.readNotification(notification.id), "return_to": returnTo,
        ]
    }

    /// "3 unread notifications", as the list says it.
    static func unreadText(_ count: Int) -> Message {
        count == 0 ? Message("No unread notifications") : Message("{count} unread notification", plural: "{count} unread notifications", count: count)
    }

    /// What app.js says of the browser's own notifications on the list page.
    static let systemNotificationTexts = ScriptTexts([
        "unsupported": Message("This browser cannot show system notifications. The bell at the top of every page still counts new ones."),
        "needs_https": Message("Browsers show system notifications only for pages served over HTTPS. Open Fieldbook at its https:// address; if it has none, ask whoever runs Fieldbook to start it without --no-tls."),
        "granted": Message("This browser shows new notifications while a Fieldbook page is open."),
        "denied": Message("This browser blocks notifications from Fieldbook. To allow them, change the site's permissions in the browser's settings, then reload this page."),
        "not_asked": Message("This browser does not show Fieldbook's notifications yet."),
    ])

    /// "(3 unread)", as the bell says it.
    static func bellCount(_ count: Int) -> Message {
        Message("({count} unread)", plural: "({count} unread)", count: count)
    }

    /// What app.js says when notifications arrive: the bell's count, the list's summary and the announcement.
    static let arrivalTexts = ScriptTexts([
        "bell_count": bellCount(0), "unread": unreadText(1), "none_unread": unreadText(0),
        "arrived": Message("New notification: {text}"),
    ])

    /// Back to the list as it was (its filters and page); only ever an address of the notifications list.
    private static func returnAddress(_ request: Request) -> String {
        let list = Paths.notifications()
        guard let wanted = ReturnAddress.localPath(request.field("return_to")) else { return list }
        return wanted == list || wanted.hasPrefix(list + "?") ? wanted : list
    }
}

extension NotificationKind {
    /// The kind in words, translated where it is shown.
    var message: Message {
        switch self {
        case .visitListAssigned: Message("A visit list assigned to you")
        case .assignedToActivity: Message("You were assigned to an activity")
        case .removedFromActivity: Message("You were removed from an activity")
        case .activityChanged: Message("An activity you take part in changed its status, dates or venue")
        case .activityCancelled: Message("An activity you take part in was cancelled")
        case .conflictLost: Message("An edit of yours lost a conflict with another change")
        case .operationsSetAside: Message("Changes of yours the hub refused, set aside")
        case .hubUnreachable: Message("The hub unreachable for over an hour with changes waiting")
        case .nodeLinked: Message("A new Fieldbook linked to this hub")
        case .userDisabled: Message("A user disabled")
        }
    }
}
