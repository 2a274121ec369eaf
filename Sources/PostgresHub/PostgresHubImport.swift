import Domain
import Foundation
import Hub

/// Filling an empty PostgreSQL hub from a SQLite hub (`fieldbook hub-migrate`). Change numbers are kept as they were,
/// so every node's saved cursor stays valid and nodes carry on without linking again.
extension PostgresHub {
    /// Nothing but the seeded categories: a migration never mixes two hubs' records.
    public func holdsNoRecords() throws -> Bool {
        try pool.withConnection { connection in
            try connection.execute("""
                SELECT (SELECT count(*) FROM records WHERE seq IS NOT NULL) + (SELECT count(*) FROM applied_operations)
                     + (SELECT count(*) FROM api_tokens) AS held
                """).int(0, "held") == 0
        }
    }

    /// Stores a page of the old hub's change log under the same numbers, and moves the sequence past them.
    public func importChanges(_ entries: [ChangeLogEntry]) throws {
        guard let last = entries.last?.seq else { return }
        try pool.transaction { connection in
            try connection.execute("SELECT pg_advisory_xact_lock($1)", [Self.changeLogLock])
            for entry in entries {
                let state = entry.state
                try connection.execute("""
                    INSERT INTO records (entity, id, version, deleted, fields, seq) VALUES ($1, $2, $3, $4, $5::jsonb, $6)
                    ON CONFLICT (entity, id) DO UPDATE SET version = EXCLUDED.version, deleted = EXCLUDED.deleted,
                        fields = EXCLUDED.fields, seq = EXCLUDED.seq
                    """, [state.entity, state.entityId.lowercaseText, String(state.version), state.deleted ? "true" : "false",
                          try WireFields.text(state.fields), String(entry.seq)])
            }
            try connection.execute("SELECT setval('change_seq', greatest($1::bigint, (SELECT last_value FROM change_seq)))", [String(last)])
        }
    }

    public func importAppliedOperations(_ operations: [AppliedOperation]) throws {
        try pool.transaction { try Self.remember(operations, $0) }
    }

    /// Tokens keep their hashes, sign-ins and order, so nodes go on refreshing with the tokens they hold.
    public func importTokens(_ tokens: [StoredAPIToken]) throws {
        try pool.transaction { connection in
            for token in tokens { try Self.insert(connection, token) }
        }
    }
}
