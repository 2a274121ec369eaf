import Domain
import Foundation
import HTTPServer
import Storage
import Surface

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
        filters.select("kind", label: "Kind", value: kind?.rawValue ?? "",
                       options: [("", "All kinds")] + NotificationKind.receivable(by: user.role).map { ($0.rawValue, $0.label) })
        filters.select("show", label: "Show", value: unreadOnly ? "unread" : "", options: [("", "Read and unread"), ("unread", "Unread only")])
        var view = filters.view
        let here = request.query.isEmpty ? request.path : request.path + "?" + QueryString.encode(request.query)
        view["items"] = found.list.items.map { itemView($0, returnTo: here) }
        view["has_items"] = !found.list.items.isEmpty
        view["filtered"] = kind != nil || unreadOnly
        view["unread_text"] = unreadText(found.unread)
        view["has_unread"] = found.unread > 0
        view["pagination"] = Pagination.view(found.list, request: request, noun: .notifications, formats: context.translator.formats)
        return context.page("notifications/list", title: "Notifications", section: nil, view: view)
    }

    /// Opens what the notification is about, marking it read: following a notification means it was seen (12.5).
    static func open(_ context: inout PageContext) throws -> Response {
        let notification = try context.database.markNotificationRead(id: try context.request.uuidParameter(), by: try context.signedInUser)
        return context.redirect(to: notification.subject.pagePath)
    }

    static func markRead(_ context: inout PageContext) throws -> Response {
        try context.database.markNotificationRead(id: try context.request.uuidParameter(), by: try context.signedInUser)
        return context.redirect(to: returnAddress(context.request), flash: "Notification marked as read.")
    }

    static func markAllRead(_ context: inout PageContext) throws -> Response {
        let count = try context.database.markAllNotificationsRead(by: try context.signedInUser)
        let message = count == 0 ? "There were no unread notifications." : count == 1 ? "1 notification marked as read." : "\(count) notifications marked as read."
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
            return context.redirect(to: Paths.notifications(), flash: "Notification preferences saved.")
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
            ["value": kind.rawValue, "label": kind.label, "checked": preferences.receives(kind)]
        }
        view["system_notifications"] = preferences.showsSystemNotifications
        return context.page("notifications/preferences", title: "Notification preferences", section: nil, view: view, status: status,
                            hasErrors: !errors.isEmpty)
    }

    private static func itemView(_ notification: FieldbookNotification, returnTo: String) -> TemplateView {
        [
            "id": notification.id.uuidString.lowercased(), "text": notification.text, "kind": notification.kind.label,
            "unread": !notification.isRead, "when": DateText.format(notification.createdAt),
            "datetime": notification.createdAt.formatted(.iso8601), "open_url": Paths.openNotification(notification.id),
            "read_url": Paths.readNotification(notification.id), "return_to": returnTo,
        ]
    }

    /// "3 unread notifications", as the bell and the list say it.
    static func unreadText(_ count: Int) -> String {
        count == 0 ? "No unread notifications" : count == 1 ? "1 unread notification" : "\(count) unread notifications"
    }

    /// Back to the list as it was (its filters and page); only ever an address of the notifications list.
    private static func returnAddress(_ request: Request) -> String {
        let list = Paths.notifications()
        guard let wanted = ReturnAddress.localPath(request.field("return_to")) else { return list }
        return wanted == list || wanted.hasPrefix(list + "?") ? wanted : list
    }
}
