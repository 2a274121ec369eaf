import Domain
import Foundation
import Translations

/// A stored notification: a synced record addressed to one user, written by the notifier (`deliverNotifications`) and
/// marked read by that user. Only the addressee may change one (`ownerColumn`). A record type of its own rather than
/// `FieldbookNotification` itself, whose `kind` (what happened) would clash with the record kind's name.
package struct NotificationRow: Sendable {
    package var notification: FieldbookNotification

    package var id: UUID { notification.id }
    package var version: Int {
        get { notification.version }
        set { notification.version = newValue }
    }

    package init(_ notification: FieldbookNotification) { self.notification = notification }

    package static let declaration = RecordDeclaration<NotificationRow>([
        RecordField(\.notification.userId, "user_id", .id, label: Message("Addressee"), references: ("user", .cascade),
                    ifMissing: Message("The chosen addressee no longer exists; choose another")),
        RecordField(\.notification.kind, "kind", .choice(.activityChanged), label: Message("Kind")),
        RecordField(\.notification.text, "text", .text, label: Message("Text"), .listed),
        RecordField(\.notification.subject.entity, "subject_entity", .text, label: Message("About")),
        RecordField(\.notification.subject.id, "subject_id", .optionalID, label: Message("About record")),
        RecordField(\.notification.createdAt, "created_at", .instant, label: Message("Made"), .listed),
        RecordField(\.notification.isRead, "is_read", .flag, label: Message("Read"), .listed),
    ]) { id, version in
        NotificationRow(FieldbookNotification.blank(id: id, version: version))
    }

    package static let kind = RecordKind(
        entity: "notification", table: "notifications", declaration, requiredRole: .readOnly, label: ("notification", "notifications"),
        ownerColumn: "user_id", inFullExport: false
    ) { _, _, fields, errors in
        if UUID.strict(fields.text("user_id")) == nil { errors.add("user_id", Message("A notification is addressed to a user: give their id")) }
        if NotificationKind(rawValue: fields.text("kind")) == nil {
            errors.add("kind", "kind must be one of: \(NotificationKind.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        if fields.text("text").isEmpty { errors.add("text", Message("A notification says what happened: its text is empty")) }
    }
}
