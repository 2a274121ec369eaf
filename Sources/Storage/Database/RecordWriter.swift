import Domain
import Foundation
import GRDB
import Records

/// A record people delete through pages and the API: what its kind adds to `RecordTransaction.remove`.
protocol RemovableRecord: SyncedRecord {
    /// Refuses any change to a record nobody may change (a predefined category).
    func ensureChangeable() throws
    /// Why the record cannot be deleted while `blockers` refer to it, in the kind's words; nil for the general message.
    func refusal(_ blockers: [Blocker], in transaction: RecordTransaction) throws -> DomainError?
    /// What goes with the record that its references do not take along (a visit list's stops, each change recorded).
    func willBeRemoved(in transaction: RecordTransaction) throws
}

extension RemovableRecord {
    func ensureChangeable() throws {}
    func refusal(_ blockers: [Blocker], in transaction: RecordTransaction) throws -> DomainError? { nil }
    func willBeRemoved(in transaction: RecordTransaction) throws {}
}

/// A record people write from a form or the API's body, checked (`Valid`): what its kind adds to
/// `RecordTransaction.create` and `update`.
protocol WritableRecord: RemovableRecord, EditableRecord {
    var declaration: RecordDeclaration<Self> { get }
    /// A new record holding `valid`, made `now`.
    init(_ valid: Valid, id: UUID, at now: Date)
    /// The stored record a write of `valid` changes; `notFound` when there is none.
    static func stored(_ db: Database, id: UUID, for valid: Valid) throws -> Self
    /// The stored record of `kind` with this id; `notFound` when there is none.
    static func stored(_ db: Database, _ kind: RecordKind, id: UUID) throws -> Self
    /// What the kind's rules ask of a write beyond its declared references (an area's place in the tree).
    func checkWrite(over stored: Self?, _ valid: Valid, in transaction: RecordTransaction) throws
    /// What the kind writes with the record (a participant's address periods).
    func didWrite(over stored: Self?, _ valid: Valid, in transaction: RecordTransaction) throws
}

extension WritableRecord {
    func checkWrite(over stored: Self?, _ valid: Valid, in transaction: RecordTransaction) throws {}
    func didWrite(over stored: Self?, _ valid: Valid, in transaction: RecordTransaction) throws {}

    /// This record with `valid`'s fields, and what the hub carries (its creation time, whether it is predefined) kept.
    func edited(by valid: Valid) -> Self {
        var edited = Self(valid, id: id, at: Date())
        for field in declaration.fields where field.declaration.flags.contains(.meta) { field.assign(field.value(of: self), to: &edited) }
        return edited
    }
}

extension WritableRecord where Self: DeclaredRecord {
    var declaration: RecordDeclaration<Self> { Self.declaration }
}

extension WritableRecord where Self: StoredRecord {
    static func stored(_ db: Database, id: UUID, for valid: Valid) throws -> Self { try find(db, id: id) }
    static func stored(_ db: Database, _ kind: RecordKind, id: UUID) throws -> Self { try find(db, id: id) }
}

/// Records of one kind referring to a record with a reference that refuses its deletion (`Reference.OnDelete.restrict`),
/// directly or through records its deletion would take along (`cascade`).
struct Blocker: Equatable {
    let kind: RecordKind
    let reference: Reference
    let count: Int

    static func == (lhs: Blocker, rhs: Blocker) -> Bool {
        (lhs.kind.entity, lhs.reference, lhs.count) == (rhs.kind.entity, rhs.reference, rhs.count)
    }
}

extension Database {
    /// What refuses deleting the record of `kind` with this id, following every kind's declared references.
    func blockers(of kind: RecordKind, id: UUID) throws -> [Blocker] {
        try blockers(of: kind, among: "?", [id.databaseText])
    }

    /// `ids`: SQL selecting the ids of the records of `kind` to be deleted.
    private func blockers(of kind: RecordKind, among ids: String, _ arguments: StatementArguments) throws -> [Blocker] {
        var found: [Blocker] = []
        for referrer in RecordKind.all {
            for reference in referrer.references where reference.entity == kind.entity {
                let rows = "FROM \(referrer.table) WHERE \(reference.column) IN (\(ids))"
                switch reference.onDelete {
                case .restrict:
                    let count = try Int.fetchOne(cachedStatement(sql: "SELECT COUNT(*) \(rows)"), arguments: arguments) ?? 0
                    if count > 0 { found.append(Blocker(kind: referrer, reference: reference, count: count)) }
                case .cascade: found += try blockers(of: referrer, among: "SELECT id \(rows)", arguments)
                case .setNull: break
                }
            }
        }
        return found
    }
}

/// The generic writes of a record: the only way pages, the API, imports and demo data write the kinds people edit, each
/// through its kind's row writer (`insert`, `save`, `delete`), which records the change for sync in this transaction.
extension RecordTransaction {
    /// Adds `record` once every record it names exists. `found`: reference columns whose record the caller has just
    /// found in this transaction, which are not looked up again (a write checks each reference with a query of its own).
    @discardableResult
    func create<Record: SyncedRecord>(_ record: Record, found: Set<String> = []) throws -> Record {
        try ensureReferencesExist(of: record, found: found)
        try insert(record)
        return record
    }

    /// Adds the record `valid` describes, with the kind's own checks and what it writes along.
    @discardableResult
    func create<Record: WritableRecord>(_ type: Record.Type, _ valid: Record.Valid, id: UUID = UUID()) throws -> Record {
        let record = Record(valid, id: id, at: Date())
        try ensureReferencesExist(of: record)
        try record.checkWrite(over: nil, valid, in: self)
        try insert(record)
        try record.didWrite(over: nil, valid, in: self)
        return record
    }

    /// Sets the stored record's fields to `valid`'s, refusing an edit of a version that is no longer current
    /// (`expectedVersion`, from the form or body).
    @discardableResult
    func update<Record: WritableRecord>(_ type: Record.Type, id: UUID, _ valid: Record.Valid, expectedVersion: Int?) throws -> Record {
        let stored = try Record.stored(db, id: id, for: valid)
        try stored.ensureChangeable()
        try ensureCurrent(stored, expected: expectedVersion)
        let edited = stored.edited(by: valid)
        try ensureReferencesExist(of: edited)
        try edited.checkWrite(over: stored, valid, in: self)
        let saved = try save(edited, over: stored)
        try saved.didWrite(over: stored, valid, in: self)
        return saved
    }

    /// Deletes `record` as its kind's references declare: refused while a record refers to it that must not lose it
    /// (restrict); records that belong to it go with it and references that may empty are emptied (the schema's
    /// foreign keys, which match the declarations).
    func remove(_ record: some RemovableRecord) throws {
        try record.ensureChangeable()
        let blockers = try db.blockers(of: record.recordKind, id: record.id)
        if !blockers.isEmpty { throw try record.refusal(blockers, in: self) ?? Self.refusal(record.recordKind, blockers) }
        try record.willBeRemoved(in: self)
        try delete(record)
    }

    /// Refuses a value naming a record that no longer exists, at the field naming it, with the field's message. Reads
    /// only the reference fields: the record is encoded once, by the write itself. `found`: as `create`'s.
    func ensureReferencesExist(of record: some SyncedRecord, found: Set<String> = []) throws {
        for (field, id) in record.referencedIds() where !found.contains(field.column) {
            guard let entity = field.reference?.entity, let table = RecordKind.named(entity)?.table else { continue }
            try ensureExists(id, in: table, field: field.column, field.missingReference)
        }
    }

    private static func refusal(_ kind: RecordKind, _ blockers: [Blocker]) -> DomainError {
        let named = blockers.map { "\($0.count) \($0.count == 1 ? $0.kind.label.one : $0.kind.label.many)" }
        let verb = blockers.map(\.count).reduce(0, +) == 1 ? "refers" : "refer"
        return .stillReferenced(message: "This \(kind.label.one) cannot be deleted: \(named.joined(separator: " and ")) \(verb) to it.",
                                references: [])
    }
}

/// Each kind's public writes (`createVenue`, `updateVenue`, `deleteVenue`) are these, each in a transaction of its own.
extension AppDatabase {
    func create<Record: WritableRecord>(_ valid: Record.Valid, by actor: Actor) throws -> Record {
        try transaction(by: actor) { try $0.create(Record.self, valid) }
    }

    func update<Record: WritableRecord>(id: UUID, _ valid: Record.Valid, expectedVersion: Int?, by actor: Actor) throws -> Record {
        try transaction(by: actor) { try $0.update(Record.self, id: id, valid, expectedVersion: expectedVersion) }
    }

    func remove<Record: RemovableRecord & StoredRecord>(_ type: Record.Type, id: UUID, by actor: Actor) throws {
        try transaction(by: actor) { try $0.remove($0.fetch(type, id: id)) }
    }
}
