import Domain
import Foundation
import Translations

/// One person's notification preferences are one record per user (its id is the user's), synced so that the rules
/// running on any node know what the person turned off.
extension NotificationPreferences {
    public var id: UUID { userId }

    public static let declaration = RecordDeclaration<NotificationPreferences>([
        RecordField(\.userId, "user_id", .id, label: Message("Person"), references: ("user", .cascade),
                    ifMissing: Message("The chosen person no longer exists; choose another")),
        RecordField(\.mutedKinds, "muted_kinds", .notificationKinds, label: Message("Turned off")),
        RecordField(\.showsSystemNotifications, "system_notifications", .flag, label: Message("System notifications")),
    ]) { id, version in NotificationPreferences(userId: id, version: version) }

    public static let kind = RecordKind(
        entity: "notification_preferences", table: "notification_preferences", declaration, requiredRole: .readOnly,
        label: ("notification preferences", "notification preferences"), ownerColumn: "user_id", inFullExport: false
    ) { _, id, fields, errors in
        if UUID.strict(fields.text("user_id")) != id { errors.add("user_id", Message("Preferences are kept under their user's id")) }
        if let unknown = NotificationKind.listed(in: fields.text("muted_kinds")).unknown {
            errors.add("muted_kinds", "“\(unknown)” is not a kind of notification")
        }
    }

    /// A person's preferences from their record's synced fields, as a hub that keeps records in their wire form
    /// (PostgreSQL) holds them.
    public init(userId: UUID, version: Int, syncedFields fields: [String: JSONValue]) {
        self = Self.declaration.record(id: userId, version: version) { fields[$0] ?? .null }
        self.userId = userId
        showsSystemNotifications = fields["system_notifications"].map(FieldCodec<Bool>.flag.decode) ?? true
    }
}

extension NotificationKind {
    /// The kinds a stored comma-separated list names, and the first name that is not a kind.
    static func listed(in text: String) -> (known: [NotificationKind], unknown: String?) {
        let names = text.split(separator: ",").map(String.init)
        return (names.compactMap(NotificationKind.init(rawValue:)), names.first { NotificationKind(rawValue: $0) == nil })
    }
}

extension FieldCodec where Value == Set<NotificationKind> {
    /// Kinds stored as their names, sorted and comma-separated; names that are not kinds are dropped.
    static let notificationKinds = FieldCodec(encode: { .string($0.map(\.rawValue).sorted().joined(separator: ",")) },
                                              decode: { Set(NotificationKind.listed(in: $0.text).known) })
}
