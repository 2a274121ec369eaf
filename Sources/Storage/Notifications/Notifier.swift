import Domain
import Foundation
import Records
import GRDB

/// The notifier's side of the database: reading what happened since it last looked and writing the notifications the
/// rules make, exactly once. Events, notifications and the notifier's cursors change in one transaction, so a crash
/// repeats nothing and loses nothing.
extension AppDatabase {
    /// How many events one transaction handles; a long backlog is worked through in several.
    static let notifierBatch = 500

    /// Turns every event since the last call into notifications (and, when `outage` says the hub has been out of reach
    /// for over an hour with changes waiting, tells administrators once per outage). Returns what was made.
    @discardableResult
    public func deliverNotifications(outage: HubOutage? = nil, now: Date = Date()) throws -> [FieldbookNotification] {
        var made: [FieldbookNotification] = []
        while try hasUndeliveredEvents(outage: outage) {
            made += try transaction(by: .system("notifications")) { records in
                var batch: [FieldbookNotification] = []
                for event in try Self.takeEvents(records.db, outage: outage) {
                    for notification in try NotificationRules.notifications(for: event, records.db, at: now) {
                        try records.insert(NotificationRow(notification))
                        batch.append(notification)
                    }
                }
                return batch
            }
        }
        return made
    }

    private func hasUndeliveredEvents(outage: HubOutage?) throws -> Bool {
        try read { db in
            let cursors = try Self.notifierCursors(db)
            let changes = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM record_history WHERE id > ?)", arguments: [cursors.history]) ?? false
            let notices = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM sync_notices WHERE id > ?)", arguments: [cursors.notice]) ?? false
            let outage = try Self.newOutage(db, outage)
            return changes || notices || outage != nil
        }
    }

    /// The next events after the cursors, which move past them.
    private static func takeEvents(_ db: Database, outage: HubOutage?) throws -> [NotifiableEvent] {
        let cursors = try notifierCursors(db)
        var events: [NotifiableEvent] = []
        // Changes pushed here by nodes were told about where they were made; the cursor passes over them unread.
        let newest = try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM record_history") ?? cursors.history
        let changes = try Row.fetchAll(db, sql: "SELECT * FROM record_history WHERE id > ? AND id <= ? AND origin = ? ORDER BY id LIMIT ?",
                                       arguments: [cursors.history, newest, ChangeOrigin.local.rawValue, notifierBatch])
        let historyCursor = changes.count == notifierBatch ? changes.last!["id"] as Int64 : newest
        for row in changes {
            let fields: String = row["fields"], subject: String = row["subject"]
            let deleted = subject.isEmpty ? [:] : (try? JSONDecoder().decode([String: JSONValue].self, from: Data(subject.utf8))) ?? [:]
            let change = RecordChange(kind: row["entity"], id: row.uuid("entity_id"), operation: ChangeOperation(rawValue: row["operation"]) ?? .update,
                                      author: row["author"], at: row.storedDate("changed_at"))
            events.append(.recordChanged(change, fields: fields.split(separator: ",").map(String.init), deleted: deleted))
        }
        let notices = try Row.fetchAll(db, sql: "SELECT * FROM sync_notices WHERE id > ? ORDER BY id LIMIT ?", arguments: [cursors.notice, notifierBatch])
        events += try setAsideTogether(notices.compactMap(event(of:)))
        var moved = ["notifications.history_cursor": String(historyCursor),
                     "notifications.notice_cursor": String((notices.last?["id"] as Int64?) ?? cursors.notice)]
        if let outage = try newOutage(db, outage) {
            events.append(.hubUnreachable(since: outage.since, pending: outage.pending))
            moved["notifications.outage_told"] = outage.since.storedText
        }
        try putSettings(db, moved)
        return events
    }

    /// Several changes of one person set aside by one push make one notification, not one each.
    private static func setAsideTogether(_ events: [NotifiableEvent]) throws -> [NotifiableEvent] {
        var others: [NotifiableEvent] = []
        var setAside: [(author: String, count: Int)] = []
        for event in events {
            guard case .operationsSetAside(let count, let author) = event else { others.append(event); continue }
            if let index = setAside.firstIndex(where: { $0.author == author }) { setAside[index].count += count } else { setAside.append((author, count)) }
        }
        return others + setAside.map { .operationsSetAside(count: $0.count, author: $0.author) }
    }

    private static func event(of notice: Row) -> NotifiableEvent? {
        switch notice["kind"] as String {
        case SyncNoticeKind.conflictLost.rawValue:
            guard let conflict = UUID(uuidString: notice["detail"]) else { return nil }
            return .conflictLost(conflictId: conflict, entity: notice["entity"], entityId: notice.uuid("entity_id"), author: notice["author"])
        case SyncNoticeKind.setAside.rawValue:
            return .operationsSetAside(count: 1, author: notice["author"])
        case SyncNoticeKind.nodeLinked.rawValue:
            guard let user = UUID(uuidString: notice["author"]) else { return nil }
            return .nodeLinked(userId: user, address: notice["detail"])
        default:
            return nil
        }
    }

    /// The outage to tell about: long enough, and not the one already told.
    private static func newOutage(_ db: Database, _ outage: HubOutage?) throws -> HubOutage? {
        guard let outage, outage.pending > 0, Date().timeIntervalSince(outage.since) >= HubOutage.threshold else { return nil }
        let told = try String.fetchOne(db, sql: "SELECT value FROM settings WHERE key = 'notifications.outage_told'")
        return told == outage.since.storedText ? nil : outage
    }

    private static func notifierCursors(_ db: Database) throws -> (history: Int64, notice: Int64) {
        let values = Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: """
            SELECT key, value FROM settings WHERE key IN ('notifications.history_cursor', 'notifications.notice_cursor')
            """).map { ($0["key"] as String, Int64($0["value"] as String) ?? 0) })
        return (values["notifications.history_cursor"] ?? 0, values["notifications.notice_cursor"] ?? 0)
    }
}

/// What sync leaves in `sync_notices` for the notifier.
enum SyncNoticeKind: String {
    case conflictLost = "conflict_lost"
    case setAside = "set_aside"
    case nodeLinked = "node_linked"

    /// Notes a notice in the transaction that made it happen.
    static func note(_ db: Database, _ kind: SyncNoticeKind, entity: String = "", entityId: UUID? = nil, author: String, detail: String = "") throws {
        try db.execute(sql: "INSERT INTO sync_notices (kind, entity, entity_id, author, detail, noticed_at) VALUES (?, ?, ?, ?, ?, ?)",
                       arguments: [kind.rawValue, entity, entityId?.databaseText, author, detail, Date().storedText])
    }
}

extension AppDatabase {
    /// Notes (hub side) that a sign-in began pulling the change log from its start: a node linked here. Told once per
    /// sign-in, however often it starts over.
    public func noteNodeLinked(family: UUID, userId: UUID, address: String) throws {
        let isNew = try writeLocal { db in
            try db.execute(sql: "INSERT OR IGNORE INTO linked_nodes (family_id, user_id, address, first_pull_at) VALUES (?, ?, ?, ?)",
                           arguments: [family.databaseText, userId.databaseText, address, Date().storedText])
            guard db.changesCount == 1 else { return false }
            try SyncNoticeKind.note(db, .nodeLinked, author: userId.databaseText, detail: address)
            return true
        }
        if isNew { changeFeed.publishSyncNotices() }
    }
}
