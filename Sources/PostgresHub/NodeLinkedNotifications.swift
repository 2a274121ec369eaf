import Domain
import Foundation
import Records

/// The notifier's rule for a node linking here, for a hub whose records are not in a Fieldbook database (the PostgreSQL
/// hub has no notifier of its own): from the hub's users and their preferences, the operations that create the
/// administrators' notifications, which the hub then applies as its own push.
enum NodeLinkedNotifications {
    /// Who writes these notifications, as the notifier writes its own on every Fieldbook.
    static let author = Actor.system("notifications").recorded

    static func operations(linkedBy userId: UUID, address: String, users: [User], preferences: [NotificationPreferences],
                                  at moment: Date = Date()) -> [SyncOperation] {
        let administrators = users.filter { $0.role == .administrator }.map(\.id).sorted { $0.lowercaseText < $1.lowercaseText }
        let draft = NotificationDraft.nodeLinked(account: users.first { $0.id == userId }?.email, address: address,
                                                 administrators: administrators)
        let usersById = Dictionary(users.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let preferencesById = Dictionary(preferences.map { ($0.userId, $0) }, uniquingKeysWith: { first, _ in first })
        return draft.recipients.compactMap { recipient in
            guard let user = usersById[recipient], draft.kind.isReceived(by: user, preferences: preferencesById[recipient])
            else { return nil }
            let notification = draft.notification(for: recipient, at: moment)
            let kind = NotificationRow.kind
            return SyncOperation(operationId: UUID(), operation: .create, entity: kind.entity, entityId: notification.id,
                                 fields: NotificationRow.declaration.syncedFields(of: NotificationRow(notification), kind),
                                 before: [:], baseVersion: 0, author: author, createdAt: moment)
        }
    }
}
