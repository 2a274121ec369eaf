import Domain
import Foundation
import Records
import Hub

/// The PostgreSQL hub's tables. Every synced kind shares one table of records in their wire form, so a kind added to
/// Fieldbook needs no new table here: its references and unique keys come from its `RecordKind` as indexes.
enum PostgresHubSchema {
    /// Held (per session) while migrating, so hub processes started together migrate one after another.
    static let migrationLock = "7340120501"

    /// Each step runs once, in order, in its own transaction; the `fieldbook_schema` table remembers which ran.
    static let steps: [(name: String, sql: String)] = [
        ("v1-records", """
            -- Every record any node pushed, of every kind, with its fields as the wire carries them. A deleted record
            -- stays as a tombstone (deleted, no fields), so an edit made offline to it is told apart from one to a
            -- record that never existed. `seq` is the record's place in the change log: renumbered at each change,
            -- NULL for the predefined categories every Fieldbook seeds itself.
            CREATE TABLE records (
                entity text NOT NULL,
                id uuid NOT NULL,
                version integer NOT NULL,
                deleted boolean NOT NULL DEFAULT false,
                fields jsonb NOT NULL,
                seq bigint UNIQUE,
                PRIMARY KEY (entity, id)
            );
            CREATE SEQUENCE change_seq;
            CREATE INDEX records_user_email ON records (lower(fields->>'email')) WHERE entity = 'user' AND NOT deleted;

            -- Every pushed operation applied here, with the answer given, so a repeated push has one effect.
            CREATE TABLE applied_operations (
                operation_id uuid PRIMARY KEY,
                result text NOT NULL,
                applied_at timestamptz NOT NULL DEFAULT now()
            );

            -- Bearer tokens of sign-ins, as SHA-256 hashes (Storage/APITokenStore.swift has the rules).
            CREATE TABLE api_tokens (
                token_hash text PRIMARY KEY,
                kind text NOT NULL CHECK (kind IN ('access', 'refresh')),
                user_id uuid NOT NULL,
                family_id uuid NOT NULL,
                created_at timestamptz NOT NULL,
                expires_at timestamptz NOT NULL,
                revoked boolean NOT NULL DEFAULT false,
                issued bigserial
            );
            CREATE INDEX api_tokens_family ON api_tokens (family_id, kind, issued);
            """),
        ("v2-photo-files", """
            -- Photo contents nodes sent, by the SHA-256 of their bytes (a few hundred KB each), so every hub process
            -- serves them: the hub keeps no files of its own.
            CREATE TABLE photo_files (
                sha256 text PRIMARY KEY,
                bytes bytea NOT NULL,
                received_at timestamptz NOT NULL DEFAULT now()
            );
            """),
        ("v3-photo-files-shown", """
            -- As on every Fieldbook: a file some photo showed goes once no photo shows it; a file no photo has shown
            -- yet (pushed ahead of its photo) stays.
            ALTER TABLE photo_files ADD COLUMN shown boolean NOT NULL DEFAULT false;
            CREATE INDEX records_photo_file ON records ((fields->>'file_sha256')) WHERE entity = 'photo' AND NOT deleted;
            CREATE INDEX records_photo_thumb ON records ((fields->>'thumb_sha256')) WHERE entity = 'photo' AND NOT deleted;
            UPDATE photo_files f SET shown = true WHERE EXISTS (
                SELECT 1 FROM records r WHERE r.entity = 'photo' AND NOT r.deleted
                AND f.sha256 IN (r.fields->>'file_sha256', r.fields->>'thumb_sha256'));
            """),
        ("v4-linked-nodes", """
            -- Each sign-in that began pulling the change log from its start: a node linked here, told to administrators once.
            CREATE TABLE linked_nodes (
                family_id uuid PRIMARY KEY,
                user_id uuid NOT NULL,
                address text NOT NULL,
                first_pull_at timestamptz NOT NULL DEFAULT now()
            );
            """),
        ("v5-api-tokens-lost", """
            -- A token pair whose answer never reached its client (Storage/APITokenStore.swift has the rules).
            ALTER TABLE api_tokens ADD COLUMN lost boolean NOT NULL DEFAULT false;
            """),
        ("v6-node-credentials", """
            -- Each node's own sign-in, made when it was linked (Storage/NodeCredentialStore.swift has the rules).
            CREATE TABLE node_credentials (
                family_id uuid PRIMARY KEY,
                user_id uuid NOT NULL,
                name text NOT NULL,
                created_at timestamptz NOT NULL DEFAULT now(),
                last_seen_at timestamptz NOT NULL DEFAULT now(),
                revoked_at timestamptz
            );
            """),
    ]

    /// Brings the database to this version of Fieldbook: the steps not yet run, then the kinds' indexes and the
    /// predefined categories (both idempotent, so a kind added later gets its indexes at the next start).
    static func migrate(_ connection: PostgresConnection) throws {
        try connection.execute("SELECT pg_advisory_lock($1)", [migrationLock])
        defer { _ = try? connection.execute("SELECT pg_advisory_unlock($1)", [migrationLock]) }
        try connection.executeScript("CREATE TABLE IF NOT EXISTS fieldbook_schema (step text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())")
        let done = Set(try connection.execute("SELECT step FROM fieldbook_schema").values.compactMap { $0[0] })
        for step in steps where !done.contains(step.name) {
            try connection.executeScript("BEGIN; \(step.sql); INSERT INTO fieldbook_schema (step) VALUES ('\(step.name)'); COMMIT;")
        }
        try connection.executeScript(kindIndexes().joined(separator: ";\n"))
        try seedPredefinedCategories(connection)
    }

    /// An index per reference (deleting a record finds what refers to it) and a unique index per unique key.
    static func kindIndexes() -> [String] {
        RecordKind.all.flatMap { kind in
            let live = "WHERE entity = '\(kind.entity)' AND NOT deleted"
            let references = kind.references.map { reference in
                "CREATE INDEX IF NOT EXISTS \"records_\(kind.entity)_\(reference.column)\" ON records ((fields->>'\(reference.column)')) \(live)"
            }
            let uniques = kind.uniqueKeys.map { key in
                let name = "records_\(kind.entity)_nocase_\(key.joined(separator: "_"))"
                // SQLite's NOCASE folds A-Z only, so "É" and "é" stay different there: so here.
                let columns = key.map { "translate(fields->>'\($0)', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')" }
                    .joined(separator: ", ")
                return "CREATE UNIQUE INDEX IF NOT EXISTS \"\(name)\" ON records (\(columns)) \(live)"
            }
            return references + uniques
        }
    }

    /// Predefined categories carry fixed ids on every Fieldbook and never travel: records refer to them by those ids.
    private static func seedPredefinedCategories(_ connection: PostgresConnection) throws {
        let now = Date().storedText
        for category in CategoryKind.allCases {
            for entry in category.predefined {
                let fields: [String: JSONValue] = ["name": .string(entry.name), "is_predefined": .int(1),
                                                   "created_at": .string(now), "updated_at": .string(now)]
                try connection.execute("""
                    INSERT INTO records (entity, id, version, fields) VALUES ($1, $2, 1, $3::jsonb) ON CONFLICT (entity, id) DO NOTHING
                    """, [category.rawValue, entry.id.uuidString.lowercased(), try WireFields.text(fields)])
            }
        }
    }
}

extension PostgresRows {
    /// Row `row` of a query selecting `entity, id::text AS id, version, deleted, fields::text AS fields` from
    /// `records`, as the wire states it (nil past the last row). A deleted record is `RecordState.absent`.
    func recordState(_ row: Int) throws -> RecordState? {
        guard let entity = text(row, "entity"), let record = try syncedRecord(row) else { return nil }
        if bool(row, "deleted") { return .absent(entity, record.id) }
        return RecordState(entity: entity, entityId: record.id, deleted: false, version: record.version, fields: record.fields)
    }

    /// Row `row` of a query selecting a record's `id::text AS id, version, fields::text AS fields` (nil past the last
    /// row).
    func syncedRecord(_ row: Int) throws -> (id: UUID, version: Int, fields: [String: JSONValue])? {
        guard let id = text(row, "id").flatMap(UUID.init(uuidString:)) else { return nil }
        return (id, Int(int(row, "version") ?? 0), try WireFields.fields(text(row, "fields")))
    }

    /// A user record's row, selected as `syncedRecord` reads it.
    func user(_ row: Int) throws -> User? {
        try syncedRecord(row).map { User(id: $0.id, version: $0.version, syncedFields: $0.fields) }
    }
}

/// Record fields as the `records.fields` column holds them: JSON text, values as SQLite would store them.
/// Written and read without JSONEncoder and JSONDecoder, whose generic paths are slow for the many small values of a
/// push.
enum WireFields {
    static func text(_ fields: [String: JSONValue]) throws -> String {
        var json = JSONBytes(capacity: 64 + fields.count * 32)
        json.raw("{")
        for (index, name) in fields.keys.sorted().enumerated() {
            if index > 0 { json.raw(",") }
            json.string(name)
            json.raw(":")
            json.value(fields[name]!.asStored)
        }
        json.raw("}")
        return String(decoding: json.bytes, as: UTF8.self)
    }

    static func fields(_ text: String?) throws -> [String: JSONValue] {
        guard let text else { return [:] }
        return try SyncWireReader.fields(text)
    }
}
