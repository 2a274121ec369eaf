import Credentials
import Domain
import Foundation
import GRDB
import Hub
import Records

enum NodeCredentialSchema {
    static func create(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE node_credentials (
                family_id TEXT PRIMARY KEY NOT NULL,
                user_id TEXT NOT NULL,
                name TEXT NOT NULL,
                created_at TEXT NOT NULL,
                last_seen_at TEXT NOT NULL,
                revoked_at TEXT
            );
            """)
    }

    /// Where signing a person out everywhere (a password change or reset) deletes their API tokens: their nodes'
    /// sign-ins stay.
    static let notANode = "family_id NOT IN (SELECT family_id FROM node_credentials)"

    /// Notes that a node renewed its sign-in.
    static func noteSeen(_ db: Database, family: UUID, now: Date) throws {
        try db.execute(sql: "UPDATE node_credentials SET last_seen_at = ? WHERE family_id = ?", arguments: [now.storedText, family.databaseText])
    }
}

/// Hub side: making, listing and revoking nodes' sign-ins.
extension AppDatabase {
    /// Starts a node's sign-in for a user whose password was just checked.
    public func issueNodeCredential(for user: User, nodeName: String, policy: APITokenPolicy = APITokenPolicy(),
                                    now: Date = Date()) throws -> APITokenPair {
        try writeLocal { db in
            let pair = try Self.insertTokenPair(db, user: user, family: UUID(), policy: policy, now: now)
            try db.execute(sql: """
                INSERT INTO node_credentials (family_id, user_id, name, created_at, last_seen_at) VALUES (?, ?, ?, ?, ?)
                """, arguments: [pair.familyId.databaseText, user.id.databaseText, nodeName, now.storedText, now.storedText])
            return pair
        }
    }

    /// Every node's sign-in, newest first, revoked ones included.
    public func nodeCredentials() throws -> [NodeCredential] {
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT n.*, COALESCE(u.email, '') AS email FROM node_credentials n LEFT JOIN users u ON u.id = n.user_id
                ORDER BY n.created_at DESC
                """).map { row in
                NodeCredential(id: row.uuid("family_id"), name: row["name"], userId: row.uuid("user_id"), linkedBy: row["email"],
                               createdAt: row.storedDate("created_at"),
                               lastSeenAt: row.storedDate("last_seen_at"),
                               revokedAt: (row["revoked_at"] as String?).flatMap { StoredInstant.date(.string($0)) })
            }
        }
    }

    /// Ends a node's sign-in: its tokens stop working at once. Throws `notFound` for an id that names none.
    public func revokeNodeCredential(_ id: UUID, now: Date = Date()) throws {
        try writeLocal { db in
            try db.execute(sql: "UPDATE node_credentials SET revoked_at = COALESCE(revoked_at, ?) WHERE family_id = ?",
                           arguments: [now.storedText, id.databaseText])
            guard db.changesCount == 1 else { throw DomainError.notFound(entity: "linked node") }
            try Self.revokeFamily(db, id)
        }
    }
}
