import Credentials
import Domain
import Foundation
import Hub

/// Bearer tokens on a PostgreSQL hub, by the rules of `Storage/APITokenStore.swift`: only SHA-256 hashes are kept,
/// refresh tokens rotate, and presenting a revoked refresh token revokes its whole sign-in, except for retries of a
/// rotation whose answer was lost.
extension PostgresHub {
    public func issueAPITokens(for user: User, policy: APITokenPolicy, now: Date) throws -> APITokenPair {
        try pool.transaction { connection in
            try connection.execute("DELETE FROM api_tokens WHERE expires_at < to_timestamp($1)", [Self.seconds(now)])
            return try Self.insertTokenPair(connection, user: user, family: UUID(), policy: policy, now: now)
        }
    }

    public func refreshAPITokens(refreshToken: String, policy: APITokenPolicy, now: Date) throws -> APITokenPair? {
        try pool.transaction { connection in
            guard let token = try Self.tokenRow(connection, token: refreshToken, kind: "refresh", locking: true) else { return nil }
            if token.lost {
                try Self.revokeFamily(connection, token.family)
                return nil
            }
            if token.revoked, !token.user.isDisabled,
               try Self.isRetryOfLatestRotation(connection, refreshToken, family: token.family, now: now) {
                try Self.setLostPairAside(connection, token.family)
                return try Self.insertTokenPair(connection, user: token.user, family: token.family, policy: policy, now: now)
            }
            if token.revoked || token.user.isDisabled {
                try Self.revokeFamily(connection, token.family)
                return nil
            }
            guard token.expiresAt > now else { return nil }
            try Self.revokeFamily(connection, token.family)
            try connection.execute("UPDATE node_credentials SET last_seen_at = to_timestamp($1) WHERE family_id = $2",
                                   [Self.seconds(now), token.family.lowercaseText])
            return try Self.insertTokenPair(connection, user: token.user, family: token.family, policy: policy, now: now)
        }
    }

    public func apiBearer(accessToken: String, now: Date) throws -> APIBearer? {
        try pool.withConnection { connection in
            guard let token = try Self.tokenRow(connection, token: accessToken, kind: "access"),
                  !token.revoked, token.expiresAt > now, !token.user.isDisabled else { return nil }
            return APIBearer(user: token.user, familyId: token.family)
        }
    }

    private struct TokenRow {
        let family: UUID
        let expiresAt: Date
        let revoked: Bool
        let lost: Bool
        let user: User
    }

    /// `locking`: for a refresh, the token's row stays locked until the transaction ends, so two refreshes with one
    /// token (two hub processes, two threads) run one after the other, as SQLite's single writer makes them.
    private static func tokenRow(_ connection: PostgresConnection, token: String, kind: String, locking: Bool = false) throws -> TokenRow? {
        let rows = try connection.execute("""
            SELECT t.family_id::text AS family, extract(epoch FROM t.expires_at)::float8 AS expires, t.revoked, t.lost,
                   u.id::text AS id, u.version, u.fields::text AS fields
            FROM api_tokens t JOIN records u ON u.entity = 'user' AND u.id = t.user_id AND NOT u.deleted
            WHERE t.token_hash = $1 AND t.kind = $2 \(locking ? "FOR UPDATE OF t" : "")
            """, [TokenSecret.hash(token), kind])
        guard rows.count == 1, let family = rows.text(0, "family").flatMap(UUID.init(uuidString:)), let user = try rows.user(0) else {
            return nil
        }
        return TokenRow(family: family, expiresAt: Date(timeIntervalSince1970: Double(rows.text(0, "expires") ?? "") ?? 0),
                        revoked: rows.bool(0, "revoked"), lost: rows.bool(0, "lost"), user: user)
    }

    /// The newest refresh token of the family (lost ones set aside) is unused and under two minutes old, and the
    /// presented token is the one it replaced: the client is retrying a rotation whose answer never reached it.
    private static func isRetryOfLatestRotation(_ connection: PostgresConnection, _ token: String, family: UUID, now: Date) throws -> Bool {
        let newest = try connection.execute("""
            SELECT token_hash, revoked, extract(epoch FROM created_at)::float8 AS created FROM api_tokens
            WHERE family_id = $1 AND kind = 'refresh' AND NOT lost ORDER BY issued DESC LIMIT 2
            """, [family.lowercaseText])
        guard newest.count == 2, !newest.bool(0, "revoked"),
              now.timeIntervalSince1970 - (Double(newest.text(0, "created") ?? "") ?? 0) < 120 else { return false }
        return newest.text(1, "token_hash") == TokenSecret.hash(token)
    }

    /// The pair issued by the rotation being retried: the only tokens of the family not revoked.
    private static func setLostPairAside(_ connection: PostgresConnection, _ family: UUID) throws {
        try connection.execute("UPDATE api_tokens SET revoked = true, lost = true WHERE family_id = $1 AND NOT revoked",
                               [family.lowercaseText])
    }

    static func revokeFamily(_ connection: PostgresConnection, _ family: UUID) throws {
        try connection.execute("UPDATE api_tokens SET revoked = true WHERE family_id = $1", [family.lowercaseText])
    }

    static func insertTokenPair(_ connection: PostgresConnection, user: User, family: UUID, policy: APITokenPolicy,
                                        now: Date) throws -> APITokenPair {
        let access = TokenSecret.random(), refresh = TokenSecret.random()
        for (token, kind, lifetime) in [(access, "access", policy.accessLifetime), (refresh, "refresh", policy.refreshLifetime)] {
            try insert(connection, StoredAPIToken(tokenHash: TokenSecret.hash(token), kind: kind, userId: user.id.lowercaseText, familyId: family.lowercaseText,
                                                  createdAt: now, expiresAt: now.addingTimeInterval(lifetime), revoked: false))
        }
        return APITokenPair(accessToken: access, refreshToken: refresh, expiresIn: Int(policy.accessLifetime), user: user, familyId: family)
    }

    /// Keeps one token (its hash), issued here or moved from a SQLite hub; one already kept is left as it is.
    static func insert(_ connection: PostgresConnection, _ token: StoredAPIToken) throws {
        try connection.execute("""
            INSERT INTO api_tokens (token_hash, kind, user_id, family_id, created_at, expires_at, revoked, lost)
            VALUES ($1, $2, $3, $4, to_timestamp($5), to_timestamp($6), $7, $8) ON CONFLICT DO NOTHING
            """, [token.tokenHash, token.kind, token.userId, token.familyId, seconds(token.createdAt), seconds(token.expiresAt),
                  token.revoked ? "true" : "false", token.lost ? "true" : "false"])
    }

    static func seconds(_ date: Date) -> String { String(date.timeIntervalSince1970) }
}
