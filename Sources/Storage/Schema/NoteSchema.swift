import GRDB
import Records

/// The notes table (migration v22), with its change-log and row-count triggers. Its columns match `Note.declaration`
/// (`RecordKindTests` compares every kind's schema with its declaration).
enum NoteSchema {
    static func create(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE notes (
                id TEXT PRIMARY KEY NOT NULL,
                noted_on TEXT NOT NULL,
                text TEXT NOT NULL,
                participant_id TEXT REFERENCES participants(id) ON DELETE SET NULL,
                venue_id TEXT REFERENCES venues(id) ON DELETE SET NULL,
                activity_id TEXT REFERENCES activities(id) ON DELETE SET NULL,
                search_text TEXT,
                version INTEGER NOT NULL DEFAULT 1,
                created_at TEXT NOT NULL,
                updated_at TEXT NOT NULL
            );
            CREATE INDEX notes_created ON notes(created_at, id);
            CREATE INDEX notes_participant ON notes(participant_id);
            CREATE INDEX notes_venue ON notes(venue_id);
            CREATE INDEX notes_activity ON notes(activity_id);
            """)
        try SyncSchema.createChangeLogTriggers(db, Note.kind)
        try RowCounts.addTriggers(db, table: Note.kind.table)
    }
}
