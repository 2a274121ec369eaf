import Crypto
import Domain
import Foundation
import GRDB

/// A signed-in browser: its user and the token its forms must carry.
public struct SignedInSession: Sendable {
    public let user: User
    public let csrfToken: String
}

/// A session cookie's session, and what its stored row needs.
public struct SessionLookup: Sendable {
    public let session: SignedInSession?
    public let upkeep: SessionUpkeep?

    public init(session: SignedInSession?, upkeep: SessionUpkeep?) {
        self.session = session
        self.upkeep = upkeep
    }
}

/// A write a session's row needs: its idle timer moved on (at most once a minute), or its removal once it has expired.
public enum SessionUpkeep: Sendable {
    case touch(tokenHash: String, at: Date)
    case end(tokenHash: String)
}

/// How long sessions live.
public struct SessionPolicy: Sendable {
    public var idleTimeout: TimeInterval
    public var absoluteTimeout: TimeInterval

    public init(idleTimeout: TimeInterval = 2 * 3600, absoluteTimeout: TimeInterval = 12 * 3600) {
        self.idleTimeout = idleTimeout
        self.absoluteTimeout = absoluteTimeout
    }
}

/// Server-side sessions. Only a hash of the cookie's token is stored, so a copied database opens no sessions.
extension AppDatabase {
    /// Starts a session; returns the token for the cookie and the session's CSRF token.
    public func startSession(for userId: UUID) throws -> (token: String, csrfToken: String) {
        let token = TokenSecret.random()
        let csrf = TokenSecret.random()
        let now = Date()
        try writeLocal { db in
            try db.execute(sql: "INSERT INTO sessions (token_hash, user_id, csrf_token, created_at, last_seen_at) VALUES (?, ?, ?, ?, ?)",
                           arguments: [TokenSecret.hash(token), userId.databaseText, csrf, now.storedText, now.storedText])
        }
        return (token, csrf)
    }

    /// The live session for a cookie token, or nil when unknown, expired or its user is disabled.
    /// Refreshes the idle timer at most once a minute, so most page views only read.
    public func session(token: String, policy: SessionPolicy, now: Date = Date()) throws -> SignedInSession? {
        let found = try lookUpSession(token: token, policy: policy, now: now)
        try keepUp(found.upkeep)
        return found.session
    }

    /// The live session for a cookie token and what its row needs, without writing it yet: a page reads in one
    /// transaction (`readingTogether`) and writes the upkeep after it.
    public func lookUpSession(token: String, policy: SessionPolicy, now: Date = Date()) throws -> SessionLookup {
        let hash = TokenSecret.hash(token)
        let row = try read { db in
            try Row.fetchOne(db.cachedStatement(sql: """
                SELECT s.csrf_token, s.created_at AS session_created, s.last_seen_at, u.* FROM sessions s
                JOIN users u ON u.id = s.user_id WHERE s.token_hash = ?
                """), arguments: [hash])
        }
        guard let row else { return SessionLookup(session: nil, upkeep: nil) }
        let created = row.storedDate("session_created")
        let lastSeen = row.storedDate("last_seen_at")
        let user = User(row: row)
        if user.isDisabled || now.timeIntervalSince(lastSeen) > policy.idleTimeout || now.timeIntervalSince(created) > policy.absoluteTimeout {
            return SessionLookup(session: nil, upkeep: .end(tokenHash: hash))
        }
        return SessionLookup(session: SignedInSession(user: user, csrfToken: row["csrf_token"]),
                             upkeep: now.timeIntervalSince(lastSeen) > 60 ? .touch(tokenHash: hash, at: now) : nil)
    }

    /// Writes what a lookup found the session's row needs.
    public func keepUp(_ upkeep: SessionUpkeep?) throws {
        switch upkeep {
        case .touch(let hash, let now)?:
            try writeLocal { db in
                try db.execute(sql: "UPDATE sessions SET last_seen_at = ? WHERE token_hash = ?", arguments: [now.storedText, hash])
            }
        case .end(let hash)?:
            try writeLocal { db in try db.execute(sql: "DELETE FROM sessions WHERE token_hash = ?", arguments: [hash]) }
        case nil:
            break
        }
    }

    /// Writes the upkeep in the background: a page's reading thread must not wait for the writer, which an import or a
    /// sync may hold for a while. Losing a touch to a crash only leaves an idle timer a minute behind; an ended session
    /// is found ended again by the next lookup.
    public func keepUpLater(_ upkeep: SessionUpkeep?) {
        guard let upkeep else { return }
        sessionUpkeep.async { [self] in try? keepUp(upkeep) }
    }

    public func endSession(token: String) throws {
        try keepUp(.end(tokenHash: TokenSecret.hash(token)))
    }

    /// Removes sessions past their absolute lifetime (run now and then).
    public func purgeExpiredSessions(policy: SessionPolicy, now: Date = Date()) throws {
        try writeLocal { db in
            try db.execute(sql: "DELETE FROM sessions WHERE created_at < ? OR last_seen_at < ?",
                           arguments: [now.addingTimeInterval(-policy.absoluteTimeout).storedText, now.addingTimeInterval(-policy.idleTimeout).storedText])
        }
    }
}

/// Secrets handed to browsers and API clients (session ids, bearer tokens): random, URL-safe, and stored only as their
/// SHA-256, so a copy of the database holds no usable token.
public enum TokenSecret {
    public static func random() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    public static func hash(_ token: String) -> String {
        SHA256.hash(data: Data(token.utf8)).lowercaseHex
    }
}
