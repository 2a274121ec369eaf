import GRDB
import Records

/// The tables of photos: `photos` holds each photo's metadata and syncs like any record; `photo_files` is
/// this node's own list of the image files it holds (by SHA-256), which sync consults to move contents by hash.
enum PhotoSchema {
    static func create(_ db: Database) throws {
        try db.execute(sql: """
            -- A photo belongs to exactly one participant, venue, activity or logged visit, and goes with it (ON DELETE CASCADE, which
            -- the change-log triggers log, so other nodes see the photos go too).
            CREATE TABLE photos (
                id TEXT PRIMARY KEY NOT NULL,
                participant_id TEXT REFERENCES participants(id) ON DELETE CASCADE,
                venue_id TEXT REFERENCES venues(id) ON DELETE CASCADE,
                activity_id TEXT REFERENCES activities(id) ON DELETE CASCADE,
                contact_log_id TEXT REFERENCES contact_logs(id) ON DELETE CASCADE,
                caption TEXT NOT NULL,
                taken_on TEXT,
                file_sha256 TEXT NOT NULL,
                width INTEGER NOT NULL,
                height INTEGER NOT NULL,
                file_bytes INTEGER NOT NULL,
                thumb_sha256 TEXT NOT NULL,
                thumb_width INTEGER NOT NULL,
                thumb_height INTEGER NOT NULL,
                thumb_bytes INTEGER NOT NULL,
                added_by TEXT,
                version INTEGER NOT NULL DEFAULT 1,
                created_at TEXT NOT NULL,
                updated_at TEXT NOT NULL,
                CHECK ((participant_id IS NOT NULL) + (venue_id IS NOT NULL) + (activity_id IS NOT NULL) + (contact_log_id IS NOT NULL) = 1)
            );
            CREATE INDEX photos_participant ON photos(participant_id, created_at) WHERE participant_id IS NOT NULL;
            CREATE INDEX photos_venue ON photos(venue_id, created_at) WHERE venue_id IS NOT NULL;
            CREATE INDEX photos_activity ON photos(activity_id, created_at) WHERE activity_id IS NOT NULL;
            CREATE INDEX photos_contact_log ON photos(contact_log_id, created_at) WHERE contact_log_id IS NOT NULL;
            CREATE INDEX photos_file ON photos(file_sha256);
            CREATE INDEX photos_thumb ON photos(thumb_sha256);

            -- attached: some photo has referred to the file since it was stored (so once none does, it may go at once);
            -- an upload no photo has referred to yet (waiting for its caption) is kept a while. received: it came from
            -- another Fieldbook (sync, a restore): it is kept until a photo refers to it, however long that takes,
            -- since the node that sent it has noted that it needs not send it again. on_hub: the linked hub holds it.
            CREATE TABLE photo_files (
                sha256 TEXT PRIMARY KEY NOT NULL,
                bytes INTEGER NOT NULL,
                width INTEGER,
                height INTEGER,
                stored_at TEXT NOT NULL,
                attached INTEGER NOT NULL DEFAULT 0,
                received INTEGER NOT NULL DEFAULT 0,
                on_hub INTEGER NOT NULL DEFAULT 0
            ) WITHOUT ROWID;
            CREATE INDEX photo_files_waiting ON photo_files(on_hub) WHERE on_hub = 0;
            CREATE TRIGGER photos_attach_files AFTER INSERT ON photos BEGIN
                UPDATE photo_files SET attached = 1 WHERE sha256 IN (NEW.file_sha256, NEW.thumb_sha256);
            END;
            CREATE TRIGGER photos_attach_changed_files AFTER UPDATE OF file_sha256, thumb_sha256 ON photos BEGIN
                UPDATE photo_files SET attached = 1 WHERE sha256 IN (NEW.file_sha256, NEW.thumb_sha256);
            END;
            """)
        for kind in RecordKind.photoKinds {
            try SyncSchema.createChangeLogTriggers(db, kind)
            try RowCounts.addTriggers(db, table: kind.table)
        }
    }
}
