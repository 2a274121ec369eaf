import Dispatch
import Domain
import Foundation
import Storage

/// Tells open pages about their person's notifications, live: when notifications are made here, pulled from the hub,
/// or marked read, each person concerned gets a `notifications` event on their /events streams with their unread count
/// and, for a new one, its text and address (the page announces it once and may show a system notification).
public final class NotificationEvents: Sendable {
    private let database: AppDatabase
    private let broadcaster: StatusBroadcaster
    /// Reads happen here, not on the writer's thread that publishes the change.
    private let queue = DispatchQueue(label: "fieldbook.notification-events")

    public init(database: AppDatabase, broadcaster: StatusBroadcaster) {
        self.database = database
        self.broadcaster = broadcaster
        database.changeFeed.subscribe { [weak self] committed in
            let changed = committed.changes.filter { $0.kind == "notification" && $0.operation != .delete }
            guard let self, !changed.isEmpty else { return }
            let created = Set(changed.filter { $0.operation == .create }.map(\.id))
            self.queue.async { self.tell(changed: changed.map(\.id), created: created) }
        }
    }

    /// The event a person's stream opens with: their unread count, nothing to announce.
    func opening(for userId: UUID) -> String {
        guard let unread = try? database.unreadNotificationCount(for: userId) else { return "" }
        return Self.event(unread: unread, latest: nil, systemNotifications: false)
    }

    private func tell(changed: [UUID], created: Set<UUID>) {
        guard let notifications = try? database.notificationsWithUnreadCounts(ids: changed) else { return }
        for (userId, entries) in Dictionary(grouping: notifications, by: \.notification.userId) {
            let newest = entries.filter { created.contains($0.notification.id) }.max { $0.notification.createdAt < $1.notification.createdAt }
            let system = newest != nil && ((try? database.notificationPreferences(for: userId).showsSystemNotifications) ?? false)
            broadcaster.send(Self.event(unread: entries[0].unread, latest: newest?.notification, systemNotifications: system), toUser: userId)
        }
    }

    static func event(unread: Int, latest: FieldbookNotification?, systemNotifications: Bool) -> String {
        let body = NotificationsEvent(unread: unread, unreadLabel: NotificationPages.unreadText(unread).english, system: systemNotifications,
                                      latest: latest.map { ["id": $0.id.uuidString.lowercased(), "text": $0.text, "url": Paths.openNotification($0.id)] })
        let data = (try? JSONEncoder.sortingKeys.encode(body)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        return "event: notifications\ndata: \(data)\n\n"
    }
}

/// The data of an `event: notifications` message; `latest` is left out when no notification is new.
private struct NotificationsEvent: Encodable {
    let unread: Int
    let unreadLabel: String
    let system: Bool
    let latest: [String: String]?

    enum CodingKeys: String, CodingKey {
        case unread, unreadLabel = "unread_label", system, latest
    }
}
