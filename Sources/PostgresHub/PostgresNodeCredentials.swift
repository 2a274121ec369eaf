import Credentials
import Domain
import Foundation
import Hub

/// Nodes' own sign-ins on a PostgreSQL hub, by the rules of `Storage/NodeCredentialStore.swift`.
extension PostgresHub {
    public func issueNodeCredential(for user: User, nodeName: String, policy: APITokenPolicy, now: Date) throws -> APITokenPair {
        try pool.transaction { connection in
            let pair = try Self.insertTokenPair(connection, user: user, family: UUID(), policy: policy, now: now)
            try connection.execute("""
                INSERT INTO node_credentials (family_id, user_id, name, created_at, last_seen_at)
                VALUES ($1, $2, $3, to_timestamp($4), to_timestamp($4))
                """, [pair.familyId.lowercaseText, user.id.lowercaseText, nodeName, Self.seconds(now)])
            return pair
        }
    }

    public func nodeCredentials() throws -> [NodeCredential] {
        let rows = try pool.withConnection { connection in
            try connection.execute("""
                SELECT n.family_id::text AS id, n.user_id::text AS user_id, n.name, coalesce(u.fields->>'email', '') AS email,
                       extract(epoch FROM n.created_at)::float8 AS created, extract(epoch FROM n.last_seen_at)::float8 AS seen,
                       extract(epoch FROM n.revoked_at)::float8 AS revoked
                FROM node_credentials n LEFT JOIN records u ON u.entity = 'user' AND u.id = n.user_id
                ORDER BY n.created_at DESC
                """)
        }
        func date(_ row: Int, _ column: String) -> Date? { rows.text(row, column).flatMap(Double.init).map(Date.init(timeIntervalSince1970:)) }
        return (0..<rows.count).compactMap { row in
            guard let id = rows.text(row, "id").flatMap(UUID.init(uuidString:)),
                  let userId = rows.text(row, "user_id").flatMap(UUID.init(uuidString:)) else { return nil }
            return NodeCredential(id: id, name: rows.text(row, "name") ?? "", userId: userId, linkedBy: rows.text(row, "email") ?? "",
                                  createdAt: date(row, "created") ?? Date(timeIntervalSince1970: 0),
                                  lastSeenAt: date(row, "seen") ?? Date(timeIntervalSince1970: 0), revokedAt: date(row, "revoked"))
        }
    }

    /// Keeps the nodes' sign-ins of a SQLite hub being moved here (`fieldbook hub-migrate`), with their tokens.
    public func importNodeCredentials(_ credentials: [NodeCredential]) throws {
        try pool.transaction { connection in
            for node in credentials {
                try connection.execute("""
                    INSERT INTO node_credentials (family_id, user_id, name, created_at, last_seen_at, revoked_at)
                    VALUES ($1, $2, $3, to_timestamp($4), to_timestamp($5), to_timestamp($6)) ON CONFLICT DO NOTHING
                    """, [node.id.lowercaseText, node.userId.lowercaseText, node.name, Self.seconds(node.createdAt),
                          Self.seconds(node.lastSeenAt), node.revokedAt.map(Self.seconds)])
            }
        }
    }

    public func revokeNodeCredential(_ id: UUID, now: Date) throws {
        try pool.transaction { connection in
            let revoked = try connection.execute("""
                UPDATE node_credentials SET revoked_at = coalesce(revoked_at, to_timestamp($1)) WHERE family_id = $2 RETURNING 1
                """, [Self.seconds(now), id.lowercaseText])
            guard revoked.count == 1 else { throw DomainError.notFound(entity: "linked node") }
            try Self.revokeFamily(connection, id)
        }
    }
}
