import Domain
import Foundation
import Logging
import Hub

/// A node linking to a PostgreSQL hub: noted once per sign-in, and told to the hub's administrators by the notifier's
/// rule (`NodeLinkedNotifications`), the notifications written as the hub's own push in the same transaction, so a
/// crash neither loses the notice nor tells it twice.
extension PostgresHub {
    public func noteNodeLinked(family: UUID, userId: UUID, address: String) throws {
        try pool.transaction { connection in
            let noted = try connection.execute("""
                INSERT INTO linked_nodes (family_id, user_id, address) VALUES ($1, $2, $3) ON CONFLICT (family_id) DO NOTHING RETURNING 1
                """, [family.lowercaseText, userId.lowercaseText, address])
            guard noted.count == 1 else { return }
            let users = try Self.users(connection, administratorsAnd: userId)
            let operations = NodeLinkedNotifications.operations(
                linkedBy: userId, address: address, users: users, preferences: try Self.preferences(connection, of: users.map(\.id)))
            guard !operations.isEmpty else { return }
            // A refused notification is logged, not thrown: the node's first pull must not fail for a notice.
            for result in try Self.apply(PushRequest(nodeId: UUID(), operations: operations), connection).results where result.outcome == .rejected {
                logger.warning("a node-linked notification was refused", metadata: ["reason": "\(result.reason ?? "")"])
            }
        }
    }

    /// The live administrators, and the account `userId`.
    private static func users(_ connection: PostgresConnection, administratorsAnd userId: UUID) throws -> [User] {
        let rows = try connection.execute("""
            SELECT id::text AS id, version, fields::text AS fields FROM records
            WHERE entity = 'user' AND NOT deleted AND (fields->>'role' = $1 OR id = $2)
            """, [UserRole.administrator.rawValue, userId.lowercaseText])
        return try (0..<rows.count).compactMap(rows.user)
    }

    private static func preferences(_ connection: PostgresConnection, of users: [UUID]) throws -> [NotificationPreferences] {
        let rows = try connection.execute("""
            SELECT id::text AS id, version, fields::text AS fields FROM records
            WHERE entity = 'notification_preferences' AND NOT deleted AND id = ANY($1::uuid[])
            """, [PostgresArray.literal(users.map(\.lowercaseText))])
        return try (0..<rows.count).compactMap { row in
            try rows.syncedRecord(row).map { NotificationPreferences(userId: $0.id, version: $0.version, syncedFields: $0.fields) }
        }
    }
}
