/// The tables of imports waiting for a person's review: node-local, never synced. What an import creates or
/// changes is written through the record writers like any edit, so only that travels.
enum ImportSchema {
    static let tables = """
            CREATE TABLE import_jobs (
                id TEXT PRIMARY KEY NOT NULL,
                kind TEXT NOT NULL,
                file_name TEXT NOT NULL,
                created_by TEXT NOT NULL,
                created_at TEXT NOT NULL,
                headers TEXT NOT NULL,
                mapping TEXT NOT NULL,
                separator TEXT NOT NULL,
                windows_1252 INTEGER NOT NULL DEFAULT 0,
                row_count INTEGER NOT NULL,
                state TEXT NOT NULL,
                created_count INTEGER NOT NULL DEFAULT 0,
                merged_count INTEGER NOT NULL DEFAULT 0,
                skipped_count INTEGER NOT NULL DEFAULT 0,
                finished_at TEXT,
                failure TEXT
            );
            CREATE TABLE import_rows (
                job_id TEXT NOT NULL REFERENCES import_jobs(id) ON DELETE CASCADE,
                line INTEGER NOT NULL,
                cells TEXT NOT NULL,
                new_id TEXT NOT NULL,
                errors TEXT,
                match_reason TEXT,
                match_id TEXT,
                match_line INTEGER,
                decision TEXT NOT NULL,
                PRIMARY KEY (job_id, line)
            ) WITHOUT ROWID;
            """

    /// An uploaded Fieldbook archive (a restore): where it is kept until restored, what it holds (JSON), and what the
    /// restore has to say beyond its counts.
    static let archives = """
            ALTER TABLE import_jobs ADD COLUMN archive_path TEXT;
            ALTER TABLE import_jobs ADD COLUMN archive_files TEXT;
            ALTER TABLE import_jobs ADD COLUMN note TEXT;
            """

    /// The fields of a merged row whose stored value a person chose to keep over the file's (JSON array of names).
    static let keptFields = "ALTER TABLE import_rows ADD COLUMN kept_fields TEXT"

    /// The records rows name that are not here, as the last check found them (JSON `[MissingReferences]`), and which
    /// of them the import creates (JSON `ImportCreating`).
    static let createdReferences = """
            ALTER TABLE import_jobs ADD COLUMN missing TEXT;
            ALTER TABLE import_jobs ADD COLUMN creating TEXT;
            """
}
