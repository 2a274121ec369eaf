import Foundation

/// A notification for several people, before each person's preferences are applied.
public struct NotificationDraft: Sendable {
    public var recipients: [UUID]
    public let kind: NotificationKind
    public let text: String
    public let subject: NotificationSubject

    public init(recipients: [UUID], kind: NotificationKind, text: String, subject: NotificationSubject) {
        (self.recipients, self.kind, self.text, self.subject) = (recipients, kind, text, subject)
    }

    /// The notification one recipient gets.
    public func notification(for recipient: UUID, at moment: Date) -> FieldbookNotification {
        FieldbookNotification(userId: recipient, kind: kind, text: text, subject: subject, createdAt: moment)
    }

    /// The hub's administrators hear that a node linked, from which address and with whose account.
    public static func nodeLinked(account: String?, address: String, administrators: [UUID]) -> NotificationDraft {
        let from = address.isEmpty ? "" : " from \(address)"
        return NotificationDraft(recipients: administrators, kind: .nodeLinked,
                                 text: "A Fieldbook linked to this hub\(from), signed in as \(account ?? "an administrator").",
                                 subject: .syncPage)
    }
}
