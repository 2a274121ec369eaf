import Domain
import Foundation
import Records
import GRDB

/// The tables of sync: the change log every Fieldbook keeps (so any of them can be a hub), the hub's record of
/// applied operations, and the node's conflicts and session history.
enum SyncSchema {
    static func create(_ db: Database) throws {
        try db.execute(sql: """
            -- One row per record ever written, renumbered on each change: pulling after a cursor returns every record
            -- changed since, once, in this node's order.
            CREATE TABLE change_log (
                seq INTEGER PRIMARY KEY AUTOINCREMENT,
                entity TEXT NOT NULL,
                entity_id TEXT NOT NULL,
                UNIQUE (entity, entity_id)
            );

            -- Hub side: every pushed operation applied here, with the answer given, so a repeated push has one effect.
            CREATE TABLE applied_operations (
                operation_id TEXT PRIMARY KEY NOT NULL,
                result TEXT NOT NULL,
                applied_at TEXT NOT NULL
            );

            ALTER TABLE outbox ADD COLUMN before_fields TEXT NOT NULL DEFAULT '{}';

            -- Node side: edits that lost to another edit at the hub, kept with both values.
            CREATE TABLE sync_conflicts (
                id TEXT PRIMARY KEY NOT NULL,
                operation_id TEXT NOT NULL UNIQUE,
                entity TEXT NOT NULL,
                entity_id TEXT NOT NULL,
                kind TEXT NOT NULL CHECK (kind IN ('edit','delete','deleted')),
                fields TEXT NOT NULL,
                author TEXT NOT NULL,
                edited_at TEXT NOT NULL,
                detected_at TEXT NOT NULL,
                resolution TEXT CHECK (resolution IS NULL OR resolution IN ('reapplied','dismissed')),
                resolved_at TEXT
            );
            CREATE INDEX sync_conflicts_open ON sync_conflicts(resolution, detected_at);

            \(sessionsTable("sync_sessions", outcomes: "'running','succeeded','failed','cancelled','interrupted'"))
            CREATE INDEX sync_sessions_outcome ON sync_sessions(outcome, finished_at);
            """)
        for table in RecordKind.firstKinds {
            try createChangeLogTriggers(db, table)
            try backfill(db, table)
        }
    }

    /// The table of sync sessions as `name`, its outcome one of `outcomes` (SQL string literals).
    private static func sessionsTable(_ name: String, outcomes: String) -> String {
        """
        CREATE TABLE \(name) (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            started_at TEXT NOT NULL,
            finished_at TEXT,
            outcome TEXT NOT NULL CHECK (outcome IN (\(outcomes))),
            pushed INTEGER NOT NULL DEFAULT 0,
            pulled INTEGER NOT NULL DEFAULT 0,
            merged INTEGER NOT NULL DEFAULT 0,
            conflicts INTEGER NOT NULL DEFAULT 0,
            failures INTEGER NOT NULL DEFAULT 0,
            error TEXT
        );
        """
    }

    /// A session ended by a pause is recorded as paused, not as cancelled. SQLite cannot change a CHECK constraint, so
    /// the table is made again with the wider one and its rows copied.
    static func allowPausedSessions(_ db: Database) throws {
        try db.execute(sql: """
            \(sessionsTable("sync_sessions_new", outcomes: "'running','succeeded','failed','cancelled','paused','interrupted'"))
            INSERT INTO sync_sessions_new SELECT id, started_at, finished_at, outcome, pushed, pulled, merged, conflicts, failures, error
                FROM sync_sessions;
            DROP TABLE sync_sessions;
            ALTER TABLE sync_sessions_new RENAME TO sync_sessions;
            CREATE INDEX sync_sessions_outcome ON sync_sessions(outcome, finished_at);
            """)
    }

    /// A session counts the photo files it moved with the records it did (`SyncStatistics`).
    static func countPhotoFiles(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE sync_sessions ADD COLUMN photos_sent INTEGER NOT NULL DEFAULT 0;
            ALTER TABLE sync_sessions ADD COLUMN photos_received INTEGER NOT NULL DEFAULT 0;
            """)
    }

    /// Triggers, not the write methods, keep the change log: rows written from the wire and rows removed by
    /// ON DELETE CASCADE are logged too, so a node pulling from this one sees every change.
    static func createChangeLogTriggers(_ db: Database, _ table: RecordKind) throws {
        // Delete-then-insert rather than INSERT OR REPLACE: an outer upsert would override a trigger's conflict clause.
        func log(_ row: String) -> String {
            """
            DELETE FROM change_log WHERE entity = '\(table.entity)' AND entity_id = \(row).id;
            INSERT INTO change_log (entity, entity_id) VALUES ('\(table.entity)', \(row).id);
            """
        }
        try db.execute(sql: """
            CREATE TRIGGER \(table.table)_log_insert AFTER INSERT ON \(table.table) BEGIN \(log("NEW")) END;
            CREATE TRIGGER \(table.table)_log_update AFTER UPDATE ON \(table.table) BEGIN \(log("NEW")) END;
            CREATE TRIGGER \(table.table)_log_delete AFTER DELETE ON \(table.table) BEGIN \(log("OLD")) END;
            """)
    }

    private static func backfill(_ db: Database, _ table: RecordKind) throws {
        let custom = table.metaColumns.contains("is_predefined") ? "WHERE is_predefined = 0" : ""
        let order = table.table == "geographic_areas" ? "ORDER BY parent_id IS NOT NULL, created_at" : ""
        try db.execute(sql: "INSERT INTO change_log (entity, entity_id) SELECT '\(table.entity)', id FROM \(table.table) \(custom) \(order)")
    }
}
