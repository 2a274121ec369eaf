import Domain
import Foundation
import Records
import Hub

/// The PostgreSQL hub's records, for `HubDecider`, inside a push's transaction (which holds the change log's lock).
/// References and unique keys come from each kind's `RecordKind`: unique keys as unique indexes, references checked
/// here, with RESTRICT, CASCADE and SET NULL on deletion as SQLite's foreign keys do them.
///
/// Round trips to the database are what a push costs here, so the records a batch names (its records,
/// the records their references name, its authors' accounts) are read in one query first and kept as the batch
/// changes them, and the savepoint steps around each operation travel with its write (`pendingSteps`).
final class PostgresHubRecords: HubRecords {
    let connection: PostgresConnection

    /// What the batch knows of a record: its state (`absent` when it does not exist) and whether it was ever written.
    private struct Known {
        var state: RecordState
        var written: Bool
    }
    private struct Key: Hashable {
        let entity: String
        let id: UUID
    }
    private var known: [Key: Known] = [:]
    /// Inside `atomically`: what each change to `known` replaced, to put back on a rollback (a copy of `known` per
    /// operation would cost the size of the batch each time).
    private var undo: [(Key, Known?)]?
    /// Savepoint steps not yet sent: they go with the next statement.
    private var pendingSteps: [String] = []
    /// With `defersWrites`, records written are kept here, in order, and sent together as one statement (`flush`).
    private let defersWrites: Bool
    private var unsent: [UnsentRecord] = []

    private struct UnsentRecord {
        let key: Key
        let version: Int
        let fields: String
    }

    /// `defersWrites`: records are written together when the batch ends (or before anything reads them from the
    /// database), not one statement each. A unique key the database then refuses cannot be told to be one
    /// operation's, so `flush` throws `DeferredWriteRefused` and the batch is decided again without deferring.
    init(connection: PostgresConnection, defersWrites: Bool = false) {
        self.connection = connection
        self.defersWrites = defersWrites
    }

    /// Reads at once every record `operations` name or refer to, and their authors' accounts.
    func readAhead(_ operations: [SyncOperation]) throws {
        var keys = Set<Key>()
        for operation in operations {
            guard let kind = RecordKind.named(operation.entity) else { continue }
            keys.insert(Key(entity: kind.entity, id: operation.entityId))
            if let author = UUID(uuidString: operation.author) { keys.insert(Key(entity: PostgresHub.userKind.entity, id: author)) }
            for reference in kind.references {
                if let id = UUID(uuidString: operation.fields.text(reference.column)) {
                    keys.insert(Key(entity: reference.entity, id: id))
                    // Whether it was merged away (`HubDecider.followingMerges`).
                    if reference.entity == Self.participantKind.entity { keys.insert(Key(entity: ParticipantMerges.entity, id: id)) }
                }
            }
            if kind.entity == Self.participantKind.entity { keys.insert(Key(entity: ParticipantMerges.entity, id: operation.entityId)) }
        }
        try load(Array(keys.filter { known[$0] == nil }))
    }

    func state(_ kind: RecordKind, _ id: UUID) throws -> RecordState {
        try lookUp(kind, id).state
    }

    func wasEverWritten(_ kind: RecordKind, _ id: UUID) throws -> Bool {
        try lookUp(kind, id).written
    }

    private func lookUp(_ kind: RecordKind, _ id: UUID) throws -> Known {
        let key = Key(entity: kind.entity, id: id)
        if known[key] == nil { try load([key]) }
        return known[key]!
    }

    /// Reads these records in one query: one that does not exist is known as absent and never written.
    private func load(_ keys: [Key]) throws {
        guard !keys.isEmpty else { return }
        let rows = try run("""
            SELECT entity, id::text AS id, version, deleted, fields::text AS fields, seq IS NOT NULL AS written FROM records
            WHERE (entity, id) IN (SELECT * FROM unnest($1::text[], $2::uuid[]))
            """, [PostgresArray.literal(keys.map(\.entity)), PostgresArray.literal(keys.map(\.id.lowercaseText))])
        var found: [Key: Known] = [:]
        for row in 0..<rows.count {
            guard let state = try rows.recordState(row) else { continue }
            found[Key(entity: state.entity, id: state.entityId)] = Known(state: state, written: rows.bool(row, "written"))
        }
        for key in keys { remember(key, found[key] ?? Known(state: .absent(key.entity, key.id), written: false)) }
    }

    private func remember(_ key: Key, _ record: Known?) {
        undo?.append((key, known[key]))
        known[key] = record
    }

    func referencing(_ kind: RecordKind, column: String, id: UUID) throws -> [RecordState] {
        // Unsent records of other kinds cannot answer this search, and sending them now would undo the batching: a
        // merge check runs for every assignment created.
        if unsent.contains(where: { $0.key.entity == kind.entity }) { try flush() }
        let rows = try run("""
            SELECT entity, id::text AS id, version, deleted, fields::text AS fields FROM records
            WHERE entity = $1 AND NOT deleted AND fields->>$2 = $3 ORDER BY id
            """, [kind.entity, column, id.lowercaseText])
        return try (0..<rows.count).compactMap { row in
            guard let state = try rows.recordState(row) else { return nil }
            remember(Key(entity: state.entity, id: state.entityId), Known(state: state, written: true))
            return state
        }
    }

    func account(_ id: UUID) throws -> (role: UserRole, disabled: Bool)? {
        guard let fields = try liveFields(of: PostgresHub.userKind, id: id) else { return nil }
        let user = User(id: id, version: 0, syncedFields: fields)
        return (user.role, user.isDisabled)
    }

    /// Runs a statement after the savepoint steps still pending.
    @discardableResult
    func run(_ sql: String, _ parameters: [String?] = []) throws -> PostgresRows {
        let steps = pendingSteps
        pendingSteps = []
        return try connection.execute(after: steps, sql, parameters)
    }

    /// Sends the records and savepoint steps still pending: before anything else uses the connection.
    func finish() throws {
        try flush()
        guard !pendingSteps.isEmpty else { return }
        try run("SELECT 1")
    }

    /// Writes the deferred records in one statement, each record once, numbered in the order of its last write (as
    /// writing them one by one would number them).
    func flush() throws {
        guard !unsent.isEmpty else { return }
        let records = unsent.lastOfEach(by: \.key)
        unsent = []
        do {
            try run("""
                INSERT INTO records (entity, id, version, deleted, fields, seq)
                SELECT entity, id, version, false, fields::jsonb, nextval('change_seq')
                FROM (SELECT * FROM unnest($1::text[], $2::uuid[], $3::int[], $4::text[]) WITH ORDINALITY AS w(entity, id, version, fields, n)
                      ORDER BY n) AS written
                ON CONFLICT (entity, id) DO UPDATE SET version = EXCLUDED.version, deleted = false, fields = EXCLUDED.fields, seq = EXCLUDED.seq
                """, [PostgresArray.literal(records.map(\.key.entity)), PostgresArray.literal(records.map(\.key.id.lowercaseText)),
                      PostgresArray.literal(records.map { String($0.version) }), PostgresArray.literal(records.map(\.fields))])
        } catch let error as PostgresError where error.refusesAValue {
            throw DeferredWriteRefused(cause: error)
        }
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
        let fields = try WireFields.text(state.fields)
        if defersWrites {
            unsent.append(UnsentRecord(key: Key(entity: kind.entity, id: state.entityId), version: state.version, fields: fields))
        } else {
            try run("""
                INSERT INTO records (entity, id, version, deleted, fields, seq) VALUES ($1, $2, $3, false, $4::jsonb, nextval('change_seq'))
                ON CONFLICT (entity, id) DO UPDATE SET version = EXCLUDED.version, deleted = false, fields = EXCLUDED.fields, seq = EXCLUDED.seq
                """, [kind.entity, state.entityId.lowercaseText, String(state.version), fields])
        }
        // Kept as a read would answer it: the fields as the wire carries them.
        var stored = state
        stored.fields = try WireFields.fields(fields)
        remember(Key(entity: kind.entity, id: state.entityId), Known(state: stored, written: true))
        // After the row, as SQLite checks foreign keys at the end of the statement: a row that also repeats a unique
        // key is refused for that on both kinds of hub.
        try checkReferences(state.fields, of: kind)
    }

    /// The savepoint is opened with the operation's first statement, and released or rolled back with the next
    /// operation's; an operation that wrote nothing sends none of it. What the batch knew is put back on a rollback.
    func atomically(_ body: () throws -> Bool) throws {
        undo = []
        if defersWrites { return try deferringAtomically(body) }
        pendingSteps.append("SAVEPOINT decision")
        let opened = pendingSteps.count
        func close(keeping: Bool) {
            defer { undo = nil }
            if !keeping { for (key, record) in (undo ?? []).reversed() { known[key] = record } }
            if pendingSteps.count == opened {  // nothing was sent since: no savepoint to close
                pendingSteps.removeLast()
                return
            }
            if !keeping { pendingSteps.append("ROLLBACK TO SAVEPOINT decision") }
            pendingSteps.append("RELEASE SAVEPOINT decision")
        }
        do {
            close(keeping: try body())
        } catch {
            close(keeping: false)
            throw error
        }
    }

    /// Nothing of the operation has reached the database: undoing it forgets what it wrote and put aside.
    private func deferringAtomically(_ body: () throws -> Bool) throws {
        let unsentBefore = unsent.count
        func close(keeping: Bool) {
            defer { undo = nil }
            guard !keeping else { return }
            for (key, record) in (undo ?? []).reversed() { known[key] = record }
            unsent.removeSubrange(unsentBefore...)
        }
        do {
            close(keeping: try body())
        } catch {
            close(keeping: false)
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
            guard text.isEmpty || UUID(uuidString: text)?.lowercaseText == text else { throw ConstraintRefusal.reference }
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
        // The records that refer to it are looked up in the database: deferred ones must be there.
        try flush()
        for (referring, reference) in Self.referencesTo[kind.entity] ?? [] {
            let ids = try run("""
                SELECT id::text AS id FROM records WHERE entity = $1 AND NOT deleted AND fields->>$2 = $3
                """, [referring.entity, reference.column, id.lowercaseText]).values.compactMap { $0[0].flatMap(UUID.init(uuidString:)) }
            guard !ids.isEmpty else { continue }
            switch reference.onDelete {
            case .restrict: throw ConstraintRefusal.reference
            case .cascade: for child in ids { try remove(referring, child) }
            case .setNull:
                try run("""
                    UPDATE records SET fields = jsonb_set(fields, ARRAY[$2], 'null'), seq = nextval('change_seq')
                    WHERE entity = $1 AND NOT deleted AND fields->>$2 = $3
                    """, [referring.entity, reference.column, id.lowercaseText])
                for child in ids { remember(Key(entity: referring.entity, id: child), nil) }  // read again when asked
            }
        }
        try run("""
            UPDATE records SET deleted = true, fields = '{}', seq = nextval('change_seq') WHERE entity = $1 AND id = $2
            """, [kind.entity, id.lowercaseText])
        remember(Key(entity: kind.entity, id: id), Known(state: .absent(kind.entity, id), written: true))
    }

    /// For each kind, the kinds whose references name it.
    private static let referencesTo: [String: [(RecordKind, Reference)]] = Dictionary(grouping: RecordKind.all.flatMap { kind in
        kind.references.map { (kind, $0) }
    }, by: { $0.1.entity })
}

/// A deferred write the database refused (a repeated unique key): the batch is decided again, one write at a time.
struct DeferredWriteRefused: Error {
    let cause: PostgresError
}
