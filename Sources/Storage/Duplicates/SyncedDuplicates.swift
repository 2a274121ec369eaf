import Domain
import Foundation
import GRDB

/// A participant a sync brought in from another Fieldbook who may be someone already here, listed for a person to
/// compare and merge, or to dismiss.
public struct SyncedDuplicate: Sendable, Equatable {
    public let arrived: PossibleDuplicate
    public let match: PossibleDuplicate
    public let foundAt: Date
}

/// Participants another Fieldbook made, checked for possible duplicates here. Applying a pull or a push
/// only queues the newcomers (`duplicate_checks`, in the same transaction, so none is missed after a crash); the
/// duplicate scout checks them in the background, off the sync's path. A first sync, which copies the hub's records
/// into an empty Fieldbook, queues nothing, in any of its pages: there is nothing here yet for them to duplicate.
enum SyncedDuplicateSchema {
    static func create(_ db: Database) throws {
        // No foreign keys: pulled pages are written with them off, and a participant deleted meanwhile simply drops
        // out of the list (it is read through joins).
        try db.execute(sql: """
            CREATE TABLE duplicate_checks (participant_id TEXT PRIMARY KEY NOT NULL, queued_at TEXT NOT NULL) WITHOUT ROWID;
            CREATE TABLE synced_duplicates (
                participant_id TEXT NOT NULL,
                match_id TEXT NOT NULL,
                reason TEXT NOT NULL,
                found_at TEXT NOT NULL,
                dismissed_at TEXT,
                PRIMARY KEY (participant_id, match_id)
            ) WITHOUT ROWID;
            CREATE INDEX synced_duplicates_open ON synced_duplicates(dismissed_at, found_at);
            """)
    }

    /// Queues the participants among `changes` that were new here for a check.
    static func queue(_ db: Database, newcomers: [UUID]) throws {
        for id in newcomers {
            try db.cachedStatement(sql: "INSERT OR IGNORE INTO duplicate_checks (participant_id, queued_at) VALUES (?, ?)")
                .execute(arguments: [id.databaseText, Date().storedText])
        }
    }
}

extension AppDatabase {
    /// Checks the queued newcomers, up to `limit`; answers how many possible duplicates were found.
    @discardableResult
    public func checkSyncedParticipants(limit: Int = 200) throws -> Int {
        let queued = try read { db in
            try String.fetchAll(db, sql: "SELECT participant_id FROM duplicate_checks ORDER BY queued_at LIMIT ?", arguments: [limit])
        }
        // Looked up first, written in one transaction: a transaction per newcomer (each a commit to disk) would hold the
        // writer once per newcomer, and a hub taking a push would wait behind them.
        var checked: [(text: String, matches: [(UUID, PossibleDuplicate)])] = []
        for text in queued {
            // A queued text that is no id (never written by Fieldbook) is only taken off the queue.
            guard let id = UUID(uuidString: text) else { checked.append((text, [])); continue }
            let matches = try participantIfHere(id).map { try possibleDuplicates(of: $0.input, excluding: id) } ?? []
            checked.append((text, matches.map { (id, $0) }))
        }
        return try writeLocal { db in
            var found = 0
            for (text, matches) in checked {
                for (id, match) in matches {
                    try db.cachedStatement(sql: """
                        INSERT OR IGNORE INTO synced_duplicates (participant_id, match_id, reason, found_at) VALUES (?, ?, ?, ?)
                        """).execute(arguments: [id.databaseText, match.id.databaseText, match.reason.rawValue, Date().storedText])
                    found += db.changesCount
                }
                try db.cachedStatement(sql: "DELETE FROM duplicate_checks WHERE participant_id = ?").execute(arguments: [text])
            }
            return found
        }
    }

    public func hasQueuedDuplicateChecks() throws -> Bool {
        try read { db in try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM duplicate_checks)") ?? false }
    }

    private func participantIfHere(_ id: UUID) throws -> Participant? {
        try read { db in try Participant.fetchOne(db, key: id.databaseText) }
    }

    /// The newcomers still to be looked at, newest first, with the participant here each may be; pairs where either
    /// has since been merged or deleted drop out.
    public func syncedDuplicates(page: PageRequest) throws -> ListPage<SyncedDuplicate> {
        try read { db in
            let open = """
                FROM synced_duplicates d JOIN participants a ON a.id = d.participant_id JOIN participants m ON m.id = d.match_id
                WHERE d.dismissed_at IS NULL
                """
            let total = try Int.fetchOne(db, sql: "SELECT COUNT(*) \(open)") ?? 0
            let items = try Row.fetchAll(db, sql: """
                SELECT d.reason, d.found_at, a.id AS a_id, a.name AS a_name, a.email AS a_email, m.id AS m_id, m.name AS m_name, m.email AS m_email
                \(open) ORDER BY d.found_at DESC, a.name LIMIT ? OFFSET ?
                """, arguments: [page.perPage, page.offset]).map { row in
                let reason = PossibleDuplicate.Reason(rawValue: row["reason"]) ?? .sameName
                return SyncedDuplicate(arrived: PossibleDuplicate(id: row.uuid("a_id"), name: row["a_name"], email: row["a_email"], reason: reason),
                                       match: PossibleDuplicate(id: row.uuid("m_id"), name: row["m_name"], email: row["m_email"], reason: reason),
                                       foundAt: row.storedDate("found_at"))
            }
            return ListPage(items: items, total: total, request: page)
        }
    }

    /// "Not the same person": the pair leaves the list for good.
    public func dismissSyncedDuplicate(_ participant: UUID, match: UUID) throws {
        try writeLocal { db in
            try db.execute(sql: "UPDATE synced_duplicates SET dismissed_at = ? WHERE participant_id = ? AND match_id = ? AND dismissed_at IS NULL",
                           arguments: [Date().storedText, participant.databaseText, match.databaseText])
            guard db.changesCount == 1 else { throw DomainError.notFound(entity: "possible duplicate") }
        }
    }
}

extension Participant {
    /// The participant as the form would describe them, for the duplicate check.
    var input: ParticipantInput { ParticipantInput(name: name, email: email) }
}
