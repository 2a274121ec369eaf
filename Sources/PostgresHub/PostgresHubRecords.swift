import Domain
import Foundation
import Storage

/// The PostgreSQL hub's records, for `HubDecider`, inside a push's transaction (which holds the change log's lock).
/// References and unique keys come from each kind's `RecordKind`: unique keys as unique indexes, references checked
/// here, with RESTRICT, CASCADE and SET NULL on deletion as SQLite's foreign keys do them.
struct PostgresHubRecords: HubRecords {
    let connection: PostgresConnection

    func state(_ kind: RecordKind, _ id: UUID) throws -> RecordState {
        let rows = try connection.execute("""
            SELECT entity, id::text AS id, version, deleted, fields::text AS fields FROM records WHERE entity = $1 AND id = $2 AND NOT deleted
            """, [kind.entity, id.text])
        return try rows.recordState(0) ?? .absent(kind.entity, id)
    }

    func wasEverWritten(_ kind: RecordKind, _ id: UUID) throws -> Bool {
        try connection.execute("SELECT 1 FROM records WHERE entity = $1 AND id = $2 AND seq IS NOT NULL", [kind.entity, id.text]).count == 1
    }

    func account(_ id: UUID) throws -> (role: UserRole, disabled: Bool)? {
        guard let fields = try liveFields(of: PostgresHub.userKind, id: id) else { return nil }
        let user = User(id: id, version: 0, syncedFields: fields)
        return (user.role, user.isDisabled)
    }

    func store(_ state: RecordState, _ kind: RecordKind, by operation: SyncOperation, fields: [String: JSONValue]) throws {
        try write(state, kind)
    }

    /// Makes the stored record equal `state`, numbering the change.
    func write(_ state: RecordState, _ kind: RecordKind) throws {
        if state.deleted { return try remove(kind, state.entityId) }
        if let empty = kind.requiredColumns.first(where: { (state.fields[$0] ?? .null) == .null }) {
            throw ConstraintRefusal.missing(column: empty)
        }
        try checkReferenceSpelling(state.fields, of: kind)
        try connection.execute("""
            INSERT INTO records (entity, id, version, deleted, fields, seq) VALUES ($1, $2, $3, false, $4::jsonb, nextval('change_seq'))
            ON CONFLICT (entity, id) DO UPDATE SET version = EXCLUDED.version, deleted = false, fields = EXCLUDED.fields, seq = EXCLUDED.seq
            """, [kind.entity, state.entityId.text, String(state.version), try WireFields.text(state.fields)])
        // After the row, as SQLite checks foreign keys at the end of the statement: a row that also repeats a unique
        // key is refused for that on both kinds of hub.
        try checkReferences(state.fields, of: kind)
    }

    func atomically(_ body: () throws -> Bool) throws {
        try connection.execute("SAVEPOINT decision")
        do {
            if try !body() { try connection.execute("ROLLBACK TO SAVEPOINT decision") }
            try connection.execute("RELEASE SAVEPOINT decision")
        } catch {
            try connection.execute("ROLLBACK TO SAVEPOINT decision")
            try connection.execute("RELEASE SAVEPOINT decision")
            throw error
        }
    }

    func refusal(for error: Error, _ kind: RecordKind) -> String? {
        if let refusal = error as? ConstraintRefusal { return refusal.message(kind) }
        guard let error = error as? PostgresError else { return nil }
        if error.isUniqueViolation { return ConstraintRefusal.unique.message(kind) }
        // As the SQLite hub answers any constraint it has no words for: this operation is refused, the batch goes on.
        return error.refusesAValue ? "The hub refused a value of this \(kind.noun): \(error.message)." : nil
    }

    /// A reference that is not an id as Fieldbook writes them (lower-case) names no record: SQLite compares ids as
    /// text. Checked before the row is written, so a long value is refused as a reference rather than by an index.
    private func checkReferenceSpelling(_ fields: [String: JSONValue], of kind: RecordKind) throws {
        for reference in kind.references {
            let text = fields.text(reference.column)
            guard text.isEmpty || UUID(uuidString: text)?.text == text else { throw ConstraintRefusal.reference }
        }
    }

    /// Every record a value of the record refers to must exist here.
    private func checkReferences(_ fields: [String: JSONValue], of kind: RecordKind) throws {
        for reference in kind.references {
            guard let id = UUID(uuidString: fields.text(reference.column)) else { continue }
            guard let referenced = RecordKind.named(reference.entity), try liveFields(of: referenced, id: id) != nil else {
                throw ConstraintRefusal.reference
            }
        }
    }

    /// Deletes a record as SQLite's foreign keys would: refused while a RESTRICT reference names it, records that
    /// CASCADE go with it, SET NULL references are emptied. Each record touched gets its change log entry.
    func remove(_ kind: RecordKind, _ id: UUID) throws {
        for (referring, reference) in Self.referencesTo[kind.entity] ?? [] {
            let ids = try connection.execute("""
                SELECT id::text AS id FROM records WHERE entity = $1 AND NOT deleted AND fields->>$2 = $3
                """, [referring.entity, reference.column, id.text]).values.compactMap { $0[0].flatMap(UUID.init(uuidString:)) }
            guard !ids.isEmpty else { continue }
            switch reference.onDelete {
            case .restrict: throw ConstraintRefusal.reference
            case .cascade: for child in ids { try remove(referring, child) }
            case .setNull:
                try connection.execute("""
                    UPDATE records SET fields = jsonb_set(fields, ARRAY[$2], 'null'), seq = nextval('change_seq')
                    WHERE entity = $1 AND NOT deleted AND fields->>$2 = $3
                    """, [referring.entity, reference.column, id.text])
            }
        }
        try connection.execute("""
            UPDATE records SET deleted = true, fields = '{}', seq = nextval('change_seq') WHERE entity = $1 AND id = $2
            """, [kind.entity, id.text])
    }

    /// For each kind, the kinds whose references name it.
    private static let referencesTo: [String: [(RecordKind, Reference)]] = Dictionary(grouping: RecordKind.all.flatMap { kind in
        kind.references.map { (kind, $0) }
    }, by: { $0.1.entity })
}

extension UUID {
    /// Ids as Fieldbook writes them everywhere: lower-case.
    var text: String { uuidString.lowercased() }
}
