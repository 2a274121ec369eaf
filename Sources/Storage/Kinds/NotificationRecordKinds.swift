import Domain
import Foundation
import GRDB

/// A stored notification: a synced record addressed to one user, written by the notifier (`deliverNotifications`) and
/// marked read by that user. Only the addressee may change one (`ownerColumn`).
struct NotificationRow: StoredRecord {
    var notification: FieldbookNotification

    static let databaseTableName = "notifications"

    static let kind = RecordKind(
        entity: "notification", table: databaseTableName,
        columns: ["user_id", "kind", "text", "subject_entity", "subject_id", "created_at", "is_read"],
        requiredRole: .readOnly, label: ("notification", "notifications"), ownerColumn: "user_id",
        inFullExport: false, references: [Reference("user_id", "user", .cascade)], optional: ["subject_id"]
    ) { _, _, fields in
        var errors = ValidationError()
        if UUID.strict(fields.text("user_id")) == nil { errors.add("user_id", "A notification is addressed to a user: give their id") }
        if NotificationKind(rawValue: fields.text("kind")) == nil {
            errors.add("kind", "kind must be one of: \(NotificationKind.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        if fields.text("text").isEmpty { errors.add("text", "A notification says what happened: its text is empty") }
        try errors.throwIfAny()
    }

    var id: UUID { notification.id }
    var version: Int {
        get { notification.version }
        set { notification.version = newValue }
    }

    init(_ notification: FieldbookNotification) { self.notification = notification }

    init(row: Row) {
        notification = FieldbookNotification(
            id: row.uuid("id"), userId: row.uuid("user_id"), kind: NotificationKind(rawValue: row["kind"]) ?? .activityChanged, text: row["text"],
            subject: NotificationSubject(entity: row["subject_entity"], id: (row["subject_id"] as String?).flatMap(UUID.init(uuidString:))),
            createdAt: row.storedDate("created_at"), isRead: row["is_read"], version: row["version"])
    }

    func encode(to container: inout PersistenceContainer) {
        container["id"] = notification.id.databaseText
        container["user_id"] = notification.userId.databaseText
        container["kind"] = notification.kind.rawValue
        container["text"] = notification.text
        container["subject_entity"] = notification.subject.entity
        container["subject_id"] = notification.subject.id?.databaseText
        container["created_at"] = notification.createdAt.storedText
        container["is_read"] = notification.isRead
        container["version"] = notification.version
    }
}

/// One person's notification preferences, one row per user (its id is the user's), synced so that the rules running
/// on any node know what the person turned off.
struct NotificationPreferencesRow: StoredRecord {
    var preferences: NotificationPreferences

    static let databaseTableName = "notification_preferences"

    static let kind = RecordKind(
        entity: "notification_preferences", table: databaseTableName, columns: ["user_id", "muted_kinds", "system_notifications"],
        requiredRole: .readOnly, label: ("notification preferences", "notification preferences"), ownerColumn: "user_id",
        inFullExport: false, references: [Reference("user_id", "user", .cascade)]
    ) { _, id, fields in
        var errors = ValidationError()
        if UUID.strict(fields.text("user_id")) != id { errors.add("user_id", "Preferences are kept under their user's id") }
        let unknown = NotificationPreferencesRow.kinds(fields.text("muted_kinds")).unknown
        if let unknown { errors.add("muted_kinds", "“\(unknown)” is not a kind of notification") }
        try errors.throwIfAny()
    }

    var id: UUID { preferences.userId }
    var version: Int {
        get { preferences.version }
        set { preferences.version = newValue }
    }

    init(_ preferences: NotificationPreferences) { self.preferences = preferences }

    init(row: Row) {
        preferences = NotificationPreferences(userId: row.uuid("user_id"), mutedKinds: Set(Self.kinds(row["muted_kinds"]).known),
                                              showsSystemNotifications: row["system_notifications"], version: row["version"])
    }

    func encode(to container: inout PersistenceContainer) {
        container["id"] = preferences.userId.databaseText
        container["user_id"] = preferences.userId.databaseText
        container["muted_kinds"] = preferences.mutedKinds.map(\.rawValue).sorted().joined(separator: ",")
        container["system_notifications"] = preferences.showsSystemNotifications
        container["version"] = preferences.version
    }

    /// The kinds a stored comma-separated list names, and the first name that is not a kind.
    static func kinds(_ text: String) -> (known: [NotificationKind], unknown: String?) {
        let names = text.split(separator: ",").map(String.init)
        return (names.compactMap(NotificationKind.init(rawValue:)), names.first { NotificationKind(rawValue: $0) == nil })
    }
}

extension NotificationPreferences {
    /// A person's preferences from their record's synced fields, as a hub that keeps records in their wire form
    /// (PostgreSQL) holds them.
    public init(userId: UUID, version: Int, syncedFields fields: [String: JSONValue]) {
        self.init(userId: userId, mutedKinds: Set(NotificationPreferencesRow.kinds(fields.text("muted_kinds")).known),
                  showsSystemNotifications: fields["system_notifications"]?.isTrue ?? true, version: version)
    }
}
