import Credentials
import Domain
import Foundation
import GRDB

/// Bearer tokens of the JSON API. Only SHA-256 hashes are stored. Refresh tokens rotate: each use revokes the
/// family's old pair and issues a new one; presenting an already revoked refresh token means it was copied,
/// so the whole family (that sign-in) is revoked.
extension AppDatabase {
    /// Starts a new token family for a user whose password was just checked.
    public func issueAPITokens(for user: User, policy: APITokenPolicy = APITokenPolicy(), now: Date = Date()) throws -> APITokenPair {
        try writeLocal { db in
            try db.execute(sql: "DELETE FROM api_tokens WHERE expires_at < ?", arguments: [now.storedText])
            return try Self.insertTokenPair(db, user: user, family: UUID(), policy: policy, now: now)
        }
    }

    /// Exchanges a live refresh token for a new pair; nil when it is unknown, expired, revoked or its user disabled.
    public func refreshAPITokens(refreshToken: String, policy: APITokenPolicy = APITokenPolicy(), now: Date = Date()) throws -> APITokenPair? {
        try writeLocal { db in
            guard let row = try Self.tokenRow(db, token: refreshToken, kind: "refresh") else { return nil }
            let family = row.uuid("family_id")
            let user = User(row: row)
            // A token whose answer was lost never reached its client: whoever presents it holds a copy.
            if row["lost"] as Bool {
                try Self.revokeFamily(db, family)
                return nil
            }
            if row["revoked"] as Bool, !user.isDisabled, try Self.isRetryOfLatestRotation(db, refreshToken, family: family, now: now) {
                try Self.setLostPairAside(db, family)
                return try Self.insertTokenPair(db, user: user, family: family, policy: policy, now: now)
            }
            if row["revoked"] as Bool || user.isDisabled {
                try Self.revokeFamily(db, family)
                return nil
            }
            guard row.storedDate("expires_at") > now else { return nil }
            try Self.revokeFamily(db, family)
            try NodeCredentialSchema.noteSeen(db, family: family, now: now)
            return try Self.insertTokenPair(db, user: user, family: family, policy: policy, now: now)
        }
    }

    /// The user an access token speaks for, or nil when it is unknown, expired, revoked or its user disabled.
    public func apiBearer(accessToken: String, now: Date = Date()) throws -> APIBearer? {
        try read { db in
            guard let row = try Self.tokenRow(db, token: accessToken, kind: "access") else { return nil }
            let user = User(row: row)
            guard !(row["revoked"] as Bool), row.storedDate("expires_at") > now, !user.isDisabled else { return nil }
            return APIBearer(user: user, familyId: row.uuid("family_id"))
        }
    }

    /// Ends a sign-in: every token of the family stops working (logout).
    public func revokeAPITokenFamily(_ family: UUID) throws {
        try writeLocal { db in try Self.revokeFamily(db, family) }
    }

    private static func tokenRow(_ db: Database, token: String, kind: String) throws -> Row? {
        try Row.fetchOne(db, sql: """
            SELECT t.family_id, t.expires_at, t.revoked, t.lost, u.* FROM api_tokens t JOIN users u ON u.id = t.user_id
            WHERE t.token_hash = ? AND t.kind = ?
            """, arguments: [TokenSecret.hash(token), kind])
    }

    /// A rotation whose answer was lost (a connection cut mid-response) is retried with the token it replaced. That is
    /// allowed while the family's newest refresh token is unused and under two minutes old, and the presented token is
    /// the one it replaced; any other reuse still revokes the family, so a copied token stays useless. The retry sets
    /// the lost pair aside (`lost`): it never counts as the newest rotation again, so answers cut several times in a
    /// row are retried each time with the token the client holds, and the lost token, if it ever turns up, revokes the
    /// family (it can only be a copy: someone took over a pair the client did receive).
    private static func isRetryOfLatestRotation(_ db: Database, _ token: String, family: UUID, now: Date) throws -> Bool {
        // Two rotations within one millisecond share created_at: the insertion order (rowid) tells them apart.
        let newest = try Row.fetchAll(db, sql: """
            SELECT token_hash, revoked, created_at FROM api_tokens WHERE family_id = ? AND kind = 'refresh' AND NOT lost
            ORDER BY created_at DESC, rowid DESC LIMIT 2
            """, arguments: [family.databaseText])
        guard newest.count == 2, !(newest[0]["revoked"] as Bool), now.timeIntervalSince(newest[0].storedDate("created_at")) < 120 else {
            return false
        }
        return newest[1]["token_hash"] as String == TokenSecret.hash(token)
    }

    /// The pair issued by the rotation being retried: the only tokens of the family not revoked.
    private static func setLostPairAside(_ db: Database, _ family: UUID) throws {
        try db.execute(sql: "UPDATE api_tokens SET revoked = 1, lost = 1 WHERE family_id = ? AND revoked = 0",
                       arguments: [family.databaseText])
    }

    static func revokeFamily(_ db: Database, _ family: UUID) throws {
        try db.execute(sql: "UPDATE api_tokens SET revoked = 1 WHERE family_id = ?", arguments: [family.databaseText])
    }

    static func insertTokenPair(_ db: Database, user: User, family: UUID, policy: APITokenPolicy, now: Date) throws -> APITokenPair {
        let access = TokenSecret.random()
        let refresh = TokenSecret.random()
        for (token, kind, lifetime) in [(access, "access", policy.accessLifetime), (refresh, "refresh", policy.refreshLifetime)] {
            try db.execute(sql: """
                INSERT INTO api_tokens (token_hash, kind, user_id, family_id, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)
                """, arguments: [TokenSecret.hash(token), kind, user.id.databaseText, family.databaseText, now.storedText, now.addingTimeInterval(lifetime).storedText])
        }
        return APITokenPair(accessToken: access, refreshToken: refresh, expiresIn: Int(policy.accessLifetime), user: user, familyId: family)
    }
}
