import Credentials
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
    /// The user of the cookie's session when it has ended (idle or too old, signed out, ended by a password change or
    /// an administrator) and that user may still sign in; nil for a live session, an unknown cookie or no cookie.
    public let endedSessionUser: UUID?

    public init(session: SignedInSession?, upkeep: SessionUpkeep?, endedSessionUser: UUID? = nil) {
        self.session = session
        self.upkeep = upkeep
        self.endedSessionUser = endedSessionUser
    }
}

/// A write a session's row needs: its idle timer moved on (at most once a minute), or its end once it has expired.
public enum SessionUpkeep: Sendable {
    case touch(tokenHash: String, at: Date)
    case end(tokenHash: String, at: Date)
}

/// How long sessions live.
public struct SessionPolicy: Sendable {
    public var idleTimeout: TimeInterval
    public var absoluteTimeout: TimeInterval
    /// How long an ended session's row is kept, marked ended, so a form sent from one of its pages (a tablet left
    /// open overnight) is still known to be its user's.
    public var endedSessionMemory: TimeInterval

    public init(idleTimeout: TimeInterval = 2 * 3600, absoluteTimeout: TimeInterval = 12 * 3600,
                endedSessionMemory: TimeInterval = 24 * 3600) {
        self.idleTimeout = idleTimeout
        self.absoluteTimeout = absoluteTimeout
        self.endedSessionMemory = endedSessionMemory
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
                SELECT s.csrf_token, s.created_at AS session_created, s.last_seen_at, s.ended_at AS session_ended, u.* FROM sessions s
                JOIN users u ON u.id = s.user_id WHERE s.token_hash = ?
                """), arguments: [hash])
        }
        guard let row else { return SessionLookup(session: nil, upkeep: nil) }
        let created = row.storedDate("session_created")
        let lastSeen = row.storedDate("last_seen_at")
        let user = User(row: row)
        let endedUser = user.isDisabled ? nil : user.id
        if row["session_ended"] as String? != nil { return SessionLookup(session: nil, upkeep: nil, endedSessionUser: endedUser) }
        if user.isDisabled || now.timeIntervalSince(lastSeen) > policy.idleTimeout || now.timeIntervalSince(created) > policy.absoluteTimeout {
            return SessionLookup(session: nil, upkeep: .end(tokenHash: hash, at: now), endedSessionUser: endedUser)
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
        case .end(let hash, let now)?:
            try writeLocal { db in
                try db.execute(sql: "UPDATE sessions SET ended_at = ? WHERE token_hash = ? AND ended_at IS NULL",
                               arguments: [now.storedText, hash])
            }
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

    public func endSession(token: String, now: Date = Date()) throws {
        try keepUp(.end(tokenHash: TokenSecret.hash(token), at: now))
    }

    /// Ends every session of `userId` but the one whose token hashes to `keeping` (a password changed or reset, an
    /// account disabled): marked ended, so a form sent from one of their pages is still known to be theirs.
    static func endSessions(_ db: Database, of userId: UUID, keeping keptHash: String? = nil, now: Date = Date()) throws {
        try db.execute(sql: "UPDATE sessions SET ended_at = ? WHERE user_id = ? AND ended_at IS NULL AND token_hash IS NOT ?",
                       arguments: [now.storedText, userId.databaseText, keptHash])
    }

    /// Removes sessions that ended, or expired, longer ago than `SessionPolicy.endedSessionMemory` (run now and then).
    public func purgeExpiredSessions(policy: SessionPolicy, now: Date = Date()) throws {
        let forgotten = now.addingTimeInterval(-policy.endedSessionMemory)
        try writeLocal { db in
            try db.execute(sql: "DELETE FROM sessions WHERE ended_at < ? OR created_at < ? OR last_seen_at < ?", arguments: [
                forgotten.storedText, forgotten.addingTimeInterval(-policy.absoluteTimeout).storedText,
                forgotten.addingTimeInterval(-policy.idleTimeout).storedText,
            ])
        }
    }
}
