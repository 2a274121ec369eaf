import Domain
import Foundation
import Records
import GRDB

/// Which of a person's notifications a list shows.
public struct NotificationQuery: Sendable, Equatable {
    public var kind: NotificationKind?
    public var unreadOnly: Bool
    public var page: PageRequest

    public init(kind: NotificationKind? = nil, unreadOnly: Bool = false, page: PageRequest = PageRequest(perPage: 25)) {
        (self.kind, self.unreadOnly, self.page) = (kind, unreadOnly, page)
    }
}

/// One page of a person's notifications, newest first, and their unread count whatever the filters (the bell's).
public struct NotificationPage: Sendable {
    public let list: ListPage<FieldbookNotification>
    public let unread: Int
}

/// Reading a person's notifications, marking them read, and their preferences. A person only ever reaches their own.
extension AppDatabase {
    public func notifications(for userId: UUID, _ query: NotificationQuery = NotificationQuery()) throws -> NotificationPage {
        try read { db in
            var conditions = ["user_id = ?"]
            var arguments: StatementArguments = [userId.databaseText]
            if let kind = query.kind {
                conditions.append("kind = ?")
                arguments += [kind.rawValue]
            }
            if query.unreadOnly { conditions.append("is_read = 0") }
            let filter = conditions.joined(separator: " AND ")
            let total = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM notifications WHERE \(filter)", arguments: arguments) ?? 0
            let items = try NotificationRow.fetchAll(db, sql: """
                SELECT * FROM notifications WHERE \(filter) ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?
                """, arguments: arguments + [query.page.perPage, query.page.offset]).map(\.notification)
            return NotificationPage(list: ListPage(items: items, total: total, request: query.page), unread: try Self.unreadCount(db, userId))
        }
    }

    public func unreadNotificationCount(for userId: UUID) throws -> Int {
        try read { db in try Self.unreadCount(db, userId) }
    }

    /// The person's notification with this id; someone else's is as if it did not exist.
    public func notification(id: UUID, for userId: UUID) throws -> FieldbookNotification {
        try read { db in try Self.ownNotification(db, id: id, userId: userId).notification }
    }

    /// These notifications, each with its person's unread count now: what live pages are told when notifications
    /// arrive (made here or pulled from the hub) or are read.
    public func notificationsWithUnreadCounts(ids: [UUID]) throws -> [(notification: FieldbookNotification, unread: Int)] {
        try read { db in
            try NotificationRow.fetchAll(db, keys: ids.map(\.databaseText)).map { ($0.notification, try Self.unreadCount(db, $0.notification.userId)) }
        }
    }

    /// Marks one of the person's notifications read (already read is fine).
    @discardableResult
    public func markNotificationRead(id: UUID, by user: User) throws -> FieldbookNotification {
        try transaction(by: .user(user.id)) { records in
            let stored = try Self.ownNotification(records.db, id: id, userId: user.id)
            var read = stored
            read.notification.isRead = true
            return try records.save(read, over: stored).notification
        }
    }

    /// Marks every unread notification of the person read, in one transaction; returns how many were unread.
    @discardableResult
    public func markAllNotificationsRead(by user: User) throws -> Int {
        try transaction(by: .user(user.id)) { records in
            let unread = try NotificationRow.fetchAll(records.db, sql: "SELECT * FROM notifications WHERE user_id = ? AND is_read = 0",
                                                      arguments: [user.id.databaseText])
            for stored in unread {
                var read = stored
                read.notification.isRead = true
                try records.save(read, over: stored)
            }
            return unread.count
        }
    }

    /// The person's preferences; everything on until they choose otherwise.
    public func notificationPreferences(for userId: UUID) throws -> NotificationPreferences {
        try read { db in try NotificationPreferences.fetchOne(db, key: userId.databaseText) }
            ?? NotificationPreferences(userId: userId)
    }

    /// Saves the person's preferences (`NotificationPreferencesInput.validated`'s result).
    @discardableResult
    public func saveNotificationPreferences(_ preferences: NotificationPreferences, by user: User) throws -> NotificationPreferences {
        try transaction(by: .user(user.id)) { records in
            var wanted = preferences
            wanted.userId = user.id
            guard let stored = try NotificationPreferences.fetchOne(records.db, key: user.id.databaseText) else {
                wanted.version = 1
                try records.insert(wanted)
                return wanted
            }
            return try records.save(wanted, over: stored)
        }
    }

    private static func unreadCount(_ db: Database, _ userId: UUID) throws -> Int {
        try Int.fetchOne(db.cachedStatement(sql: "SELECT COUNT(*) FROM notifications WHERE user_id = ? AND is_read = 0"),
                         arguments: [userId.databaseText]) ?? 0
    }

    private static func ownNotification(_ db: Database, id: UUID, userId: UUID) throws -> NotificationRow {
        guard let row = try NotificationRow.fetchOne(db, key: id.databaseText), row.notification.userId == userId else {
            throw DomainError.notFound(entity: "notification")
        }
        return row
    }
}
