import Domain
import Foundation
import Records
import GRDB

/// The registered schema migrations, applied in order at every start.
enum Migrations {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-schema", migrate: createSchema)
        migrator.registerMigration("v1-predefined-categories", migrate: seedPredefinedCategories)
        migrator.registerMigration("v2-search-text", migrate: addSearchText)
        migrator.registerMigration("v3-list-indexes-and-outbox-counts", migrate: addListIndexesAndOutboxCounts)
        migrator.registerMigration("v4-sync", migrate: SyncSchema.create)
        migrator.registerMigration("v4-api-tokens", migrate: addAPITokens)
        migrator.registerMigration("v5-field-visits", migrate: VisitSchema.create)
        migrator.registerMigration("v5-analytics-indexes", migrate: addAnalyticsIndexes)
        migrator.registerMigration("v6-record-history", migrate: RecordHistory.createTable)
        migrator.registerMigration("v7-notifications", migrate: NotificationSchema.create)
        migrator.registerMigration("v8-row-counts", migrate: addRowCounts)
        migrator.registerMigration("v8-search-index", migrate: SearchIndex.create)
        migrator.registerMigration("v9-imports", sql: ImportSchema.tables)
        migrator.registerMigration("v10-import-kept-fields", sql: ImportSchema.keptFields)
        migrator.registerMigration("v11-import-archives", sql: ImportSchema.archives)
        migrator.registerMigration("v12-photos", migrate: PhotoSchema.create)
        migrator.registerMigration("v13-synced-duplicates", migrate: SyncedDuplicateSchema.create)
        migrator.registerMigration("v14-export-jobs", sql: ExportJobSchema.tables)
        migrator.registerMigration("v15-api-tokens-lost", migrate: addLostTokens)
        migrator.registerMigration("v16-counts-by-value", migrate: addCountsByValue)
        migrator.registerMigration("v17-paused-sync-sessions", migrate: SyncSchema.allowPausedSessions)
        migrator.registerMigration("v18-participant-merges", migrate: ParticipantMergeRow.createTable)
        migrator.registerMigration("v19-ended-sessions", migrate: addSessionEnd)
        migrator.registerMigration("v20-sync-session-photo-files", migrate: SyncSchema.countPhotoFiles)
        migrator.registerMigration("v21-node-credentials", migrate: NodeCredentialSchema.create)
        migrator.registerMigration("v22-notes", migrate: NoteSchema.create)
        migrator.registerMigration("v23-user-language", migrate: addUserLanguage)
        migrator.registerMigration("v24-import-created-references", sql: ImportSchema.createdReferences)
        return migrator
    }

    private static func createSchema(_ db: Database) throws {
        for kind in CategoryKind.allCases {
            try db.execute(sql: """
                CREATE TABLE \(kind.table) (
                    id TEXT PRIMARY KEY NOT NULL,
                    name TEXT NOT NULL COLLATE NOCASE UNIQUE CHECK (length(name) BETWEEN 1 AND 50),
                    is_predefined INTEGER NOT NULL DEFAULT 0,
                    version INTEGER NOT NULL DEFAULT 1,
                    created_at TEXT NOT NULL,
                    updated_at TEXT NOT NULL
                )
                """)
        }
        try db.execute(sql: """
            CREATE TABLE geographic_areas (
                id TEXT PRIMARY KEY NOT NULL,
                name TEXT NOT NULL,
                area_type TEXT NOT NULL CHECK (area_type IN ('NEIGHBOURHOOD','COMMUNITY','CITY','CLUSTER','COUNTY',
                    'PROVINCE','STATE','COUNTRY','CONTINENT','HEMISPHERE','WORLD')),
                parent_id TEXT REFERENCES geographic_areas(id) ON DELETE RESTRICT,
                version INTEGER NOT NULL DEFAULT 1,
                created_at TEXT NOT NULL,
                updated_at TEXT NOT NULL,
                CHECK (parent_id IS NULL OR parent_id <> id)
            );
            CREATE INDEX geographic_areas_parent ON geographic_areas(parent_id);
            CREATE INDEX geographic_areas_name ON geographic_areas(name COLLATE NOCASE);

            CREATE TABLE venues (
                id TEXT PRIMARY KEY NOT NULL,
                name TEXT NOT NULL,
                address TEXT NOT NULL,
                geographic_area_id TEXT NOT NULL REFERENCES geographic_areas(id) ON DELETE RESTRICT,
                latitude REAL CHECK (latitude IS NULL OR latitude BETWEEN -90 AND 90),
                longitude REAL CHECK (longitude IS NULL OR longitude BETWEEN -180 AND 180),
                venue_type TEXT CHECK (venue_type IS NULL OR venue_type IN ('PUBLIC_BUILDING','PRIVATE_RESIDENCE')),
                version INTEGER NOT NULL DEFAULT 1,
                created_at TEXT NOT NULL,
                updated_at TEXT NOT NULL
            );
            CREATE INDEX venues_area ON venues(geographic_area_id);
            CREATE INDEX venues_name ON venues(name COLLATE NOCASE);

            CREATE TABLE participants (
                id TEXT PRIMARY KEY NOT NULL,
                name TEXT NOT NULL,
                email TEXT NOT NULL,
                phone TEXT,
                notes TEXT CHECK (notes IS NULL OR length(notes) <= 500),
                home_venue_id TEXT REFERENCES venues(id) ON DELETE RESTRICT,
                version INTEGER NOT NULL DEFAULT 1,
                created_at TEXT NOT NULL,
                updated_at TEXT NOT NULL
            );
            CREATE INDEX participants_name ON participants(name COLLATE NOCASE);
            CREATE INDEX participants_email ON participants(email COLLATE NOCASE);
            CREATE INDEX participants_home_venue ON participants(home_venue_id);

            CREATE TABLE participant_address_history (
                id TEXT PRIMARY KEY NOT NULL,
                participant_id TEXT NOT NULL REFERENCES participants(id) ON DELETE CASCADE,
                venue_id TEXT NOT NULL REFERENCES venues(id) ON DELETE RESTRICT,
                effective_from TEXT NOT NULL,
                effective_to TEXT,
                version INTEGER NOT NULL DEFAULT 1
            );
            CREATE INDEX participant_address_history_participant ON participant_address_history(participant_id, effective_from DESC);
            CREATE INDEX participant_address_history_venue ON participant_address_history(venue_id);

            CREATE TABLE activities (
                id TEXT PRIMARY KEY NOT NULL,
                name TEXT NOT NULL,
                description TEXT,
                activity_type_id TEXT NOT NULL REFERENCES activity_types(id) ON DELETE RESTRICT,
                start_date TEXT NOT NULL,
                end_date TEXT,
                status TEXT NOT NULL CHECK (status IN ('PLANNED','ACTIVE','COMPLETED','CANCELLED')),
                version INTEGER NOT NULL DEFAULT 1,
                created_at TEXT NOT NULL,
                updated_at TEXT NOT NULL,
                CHECK (end_date IS NULL OR end_date > start_date)
            );
            CREATE INDEX activities_type ON activities(activity_type_id);
            CREATE INDEX activities_status ON activities(status);
            CREATE INDEX activities_start ON activities(start_date);
            CREATE INDEX activities_name ON activities(name COLLATE NOCASE);

            CREATE TABLE activity_venue_history (
                id TEXT PRIMARY KEY NOT NULL,
                activity_id TEXT NOT NULL REFERENCES activities(id) ON DELETE CASCADE,
                venue_id TEXT NOT NULL REFERENCES venues(id) ON DELETE RESTRICT,
                effective_from TEXT NOT NULL,
                effective_to TEXT,
                version INTEGER NOT NULL DEFAULT 1
            );
            CREATE INDEX activity_venue_history_activity ON activity_venue_history(activity_id, effective_from DESC);
            CREATE INDEX activity_venue_history_venue ON activity_venue_history(venue_id);

            CREATE TABLE assignments (
                id TEXT PRIMARY KEY NOT NULL,
                activity_id TEXT NOT NULL REFERENCES activities(id) ON DELETE CASCADE,
                participant_id TEXT NOT NULL REFERENCES participants(id) ON DELETE CASCADE,
                role_id TEXT NOT NULL REFERENCES participant_roles(id) ON DELETE RESTRICT,
                assigned_at TEXT NOT NULL,
                version INTEGER NOT NULL DEFAULT 1,
                UNIQUE (activity_id, participant_id, role_id)
            );
            CREATE INDEX assignments_participant ON assignments(participant_id);
            CREATE INDEX assignments_role ON assignments(role_id);

            CREATE TABLE users (
                id TEXT PRIMARY KEY NOT NULL,
                email TEXT NOT NULL COLLATE NOCASE UNIQUE,
                name TEXT NOT NULL,
                role TEXT NOT NULL CHECK (role IN ('administrator','editor','read-only')),
                password_hash TEXT NOT NULL,
                is_disabled INTEGER NOT NULL DEFAULT 0,
                version INTEGER NOT NULL DEFAULT 1,
                created_at TEXT NOT NULL,
                updated_at TEXT NOT NULL
            );

            -- Node-local state below: never synced, so not recorded in the outbox.
            CREATE TABLE sessions (
                token_hash TEXT PRIMARY KEY NOT NULL,
                user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                csrf_token TEXT NOT NULL,
                created_at TEXT NOT NULL,
                last_seen_at TEXT NOT NULL
            );
            CREATE INDEX sessions_user ON sessions(user_id);

            CREATE TABLE settings (
                key TEXT PRIMARY KEY NOT NULL,
                value TEXT NOT NULL
            );

            CREATE TABLE outbox (
                seq INTEGER PRIMARY KEY AUTOINCREMENT,
                operation_id TEXT NOT NULL UNIQUE,
                operation TEXT NOT NULL CHECK (operation IN ('create','update','delete')),
                entity TEXT NOT NULL,
                entity_id TEXT NOT NULL,
                fields TEXT NOT NULL,
                base_version INTEGER NOT NULL,
                author TEXT NOT NULL,
                created_at TEXT NOT NULL,
                state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending','failed')),
                attempts INTEGER NOT NULL DEFAULT 0,
                last_error TEXT
            );
            CREATE INDEX outbox_state ON outbox(state, seq);
            CREATE INDEX outbox_entity ON outbox(entity, entity_id);
            """)
    }

    /// Bearer tokens of the JSON API (node-local, never synced): only SHA-256 hashes are kept, so a copied
    /// database opens no API access. A family is one sign-in and every token rotated from it.
    private static func addAPITokens(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE api_tokens (
                token_hash TEXT PRIMARY KEY NOT NULL,
                kind TEXT NOT NULL CHECK (kind IN ('access','refresh')),
                user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                family_id TEXT NOT NULL,
                created_at TEXT NOT NULL,
                expires_at TEXT NOT NULL,
                revoked INTEGER NOT NULL DEFAULT 0
            );
            CREATE INDEX api_tokens_family ON api_tokens(family_id);
            CREATE INDEX api_tokens_user ON api_tokens(user_id);
            CREATE INDEX api_tokens_expires ON api_tokens(expires_at);
            """)
    }

    /// Totals of lists filtered by one value alone (`RowCounts.countedByValue`), kept as the unfiltered ones are.
    private static func addCountsByValue(_ db: Database) throws {
        for counted in RowCounts.countedByValue { try RowCounts.addValueTriggers(db, table: counted.table, column: counted.column) }
    }

    /// A token pair whose answer never reached its client (a rotation retried with the token it replaced): never
    /// counted as the newest rotation, and presented, a copy (`APITokenStore.swift`).
    /// A session that ends is marked, not removed, for a while (`SessionPolicy.endedSessionMemory`): a form sent from its
    /// page afterwards is then known to be its user's.
    /// NULL: the person's pages follow their browser's language.
    private static func addUserLanguage(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE users ADD COLUMN language TEXT")
    }

    private static func addSessionEnd(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE sessions ADD COLUMN ended_at TEXT")
    }

    private static func addLostTokens(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE api_tokens ADD COLUMN lost INTEGER NOT NULL DEFAULT 0")
    }

    /// Folded copies of searchable fields (see SearchText), kept by the write methods.
    private static func addSearchText(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE participants ADD COLUMN search_text TEXT NOT NULL DEFAULT '';
            ALTER TABLE venues ADD COLUMN search_text TEXT NOT NULL DEFAULT '';
            ALTER TABLE activities ADD COLUMN search_text TEXT NOT NULL DEFAULT '';
            """)
        for row in try Row.fetchAll(db, sql: "SELECT id, name, email FROM participants") {
            try db.execute(sql: "UPDATE participants SET search_text = ? WHERE id = ?",
                           arguments: [SearchText.of(row["name"], row["email"]), row["id"] as String])
        }
        for row in try Row.fetchAll(db, sql: "SELECT id, name, address FROM venues") {
            try db.execute(sql: "UPDATE venues SET search_text = ? WHERE id = ?",
                           arguments: [SearchText.of(row["name"], row["address"]), row["id"] as String])
        }
        for row in try Row.fetchAll(db, sql: "SELECT id, name FROM activities") {
            try db.execute(sql: "UPDATE activities SET search_text = ? WHERE id = ?", arguments: [SearchText.of(row["name"]), row["id"] as String])
        }
    }

    /// Indexes that end in the id, so sorted, paged lists read 50 rows from an index instead of sorting every row,
    /// and a trigger-kept count of outbox entries by state, because every page shows the pending count.
    private static func addListIndexesAndOutboxCounts(_ db: Database) throws {
        try db.execute(sql: """
            CREATE INDEX participants_name_id ON participants(name COLLATE NOCASE, id);
            CREATE INDEX participants_email_id ON participants(email COLLATE NOCASE, id);
            CREATE INDEX participants_created_id ON participants(created_at, id);
            CREATE INDEX venues_name_id ON venues(name COLLATE NOCASE, id);
            CREATE INDEX venues_created_id ON venues(created_at, id);
            CREATE INDEX activities_start_id ON activities(start_date, id);
            CREATE INDEX activities_name_id ON activities(name COLLATE NOCASE, id);
            CREATE INDEX activities_status_start_id ON activities(status, start_date, id);
            CREATE INDEX activities_type_start_id ON activities(activity_type_id, start_date, id);
            CREATE INDEX participants_search ON participants(search_text);
            DROP INDEX participants_name;
            DROP INDEX participants_email;
            DROP INDEX venues_name;
            DROP INDEX activities_name;

            CREATE TABLE outbox_counts (state TEXT PRIMARY KEY NOT NULL, count INTEGER NOT NULL);
            INSERT INTO outbox_counts (state, count) VALUES ('pending', 0), ('failed', 0);
            UPDATE outbox_counts SET count = (SELECT COUNT(*) FROM outbox WHERE outbox.state = outbox_counts.state);
            CREATE TRIGGER outbox_counts_insert AFTER INSERT ON outbox BEGIN
                UPDATE outbox_counts SET count = count + 1 WHERE state = NEW.state;
            END;
            CREATE TRIGGER outbox_counts_delete AFTER DELETE ON outbox BEGIN
                UPDATE outbox_counts SET count = count - 1 WHERE state = OLD.state;
            END;
            CREATE TRIGGER outbox_counts_update AFTER UPDATE OF state ON outbox WHEN OLD.state <> NEW.state BEGIN
                UPDATE outbox_counts SET count = count - 1 WHERE state = OLD.state;
                UPDATE outbox_counts SET count = count + 1 WHERE state = NEW.state;
            END;
            """)
    }

    /// Trigger-kept row counts of every record table of this version (RowCounts).
    private static func addRowCounts(_ db: Database) throws {
        try RowCounts.createTable(db)
        for kind in RecordKind.firstKinds + RecordKind.visitKinds + RecordKind.notificationKinds {
            try RowCounts.addTriggers(db, table: kind.table)
        }
    }

    /// What the analytics queries range over (AnalyticsStore): participants by home venue and day recorded (the old
    /// home-venue index is a prefix of it), assignments by day made, and activities' current venues.
    private static func addAnalyticsIndexes(_ db: Database) throws {
        try db.execute(sql: """
            CREATE INDEX participants_home_venue_created ON participants(home_venue_id, created_at);
            DROP INDEX participants_home_venue;
            CREATE INDEX assignments_assigned ON assignments(assigned_at);
            CREATE INDEX activity_venue_history_current ON activity_venue_history(venue_id, activity_id) WHERE effective_to IS NULL;
            """)
    }

    /// Predefined entries carry fixed ids on every node, so they are part of the schema, not outbox changes.
    private static func seedPredefinedCategories(_ db: Database) throws {
        let now = Date().storedText
        for kind in CategoryKind.allCases {
            for entry in kind.predefined {
                try db.execute(sql: """
                    INSERT INTO \(kind.table) (id, name, is_predefined, version, created_at, updated_at)
                    VALUES (?, ?, 1, 1, ?, ?)
                    """, arguments: [entry.id.databaseText, entry.name, now, now])
            }
        }
    }
}

extension UUID {
    /// How ids are stored: lower-case text, readable in the sqlite3 shell and in the API.
    var databaseText: String { lowercaseText }
}

extension DatabaseMigrator {
    /// A migration that is SQL alone.
    fileprivate mutating func registerMigration(_ identifier: String, sql: String) {
        registerMigration(identifier) { db in try db.execute(sql: sql) }
    }
}
