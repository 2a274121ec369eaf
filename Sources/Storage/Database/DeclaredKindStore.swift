import Domain
import Foundation
import GRDB
import Records

/// A record of a `DeclaredKind` as the generic writer stores it: its row coded from the declaration, no conformance of
/// its own needed.
struct DeclaredRow<Record: DeclaredKind>: RemovableRecord {
    var record: Record

    var recordKind: RecordKind { Record.kind }
    var id: UUID { record.id }
    var version: Int {
        get { record.version }
        set { record.version = newValue }
    }

    mutating func stamp(editedAt date: Date) {
        for field in Record.declaration.fields where field.column == "updated_at" { field.assign(.string(StoredInstant.text(date)), to: &record) }
    }

    func encode(to container: inout PersistenceContainer) {
        Record.declaration.encode(record, id: id, version: version, to: &container)
    }

    func storedRow() -> [String: DatabaseValue] { Record.declaration.row(of: record, id: id, version: version) }

    func referencedIds() -> [(field: FieldDeclaration, id: UUID)] { Record.declaration.referencedIds(of: record) }

    static func find(_ db: Database, id: UUID) throws -> DeclaredRow {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM \(Record.kind.table) WHERE id = ?"), arguments: [id.databaseText])
        else { throw DomainError.notFound(entity: Record.kind.label.one) }
        return DeclaredRow(record: Record.declaration.record(row))
    }
}

/// The reads and writes of a kind declared only in Records: what its pages use, the same transaction, change log and
/// checks as every kind (`RecordKind.check` runs the declared rules and the kind's own check).
extension AppDatabase {
    /// The stored record of a kind with a table of its own.
    public func record<Record: DeclaredRecord>(_ type: Record.Type, id: UUID) throws -> Record {
        try read { db in try Record.find(db, id: id) }
    }

    public func record<Record: DeclaredKind>(_ type: Record.Type, id: UUID) throws -> Record {
        try read { db in try DeclaredRow<Record>.find(db, id: id).record }
    }

    /// One page of the kind's records, newest first; `text` narrows them by the kind's searched fields, `referring` to
    /// those whose reference `column` names the record `id` (the notes about a participant).
    public func records<Record: DeclaredKind>(_ type: Record.Type, matching text: String, referring: (column: String, id: UUID)? = nil,
                                              page: PageRequest) throws -> ListPage<Record> {
        try read { db in
            var list = ListQuery("\(Record.kind.table) r")
            if let referring { list.add(equal: referring.column, alias: "r", referring.id.databaseText) }
            if !Record.kind.searchColumns.isEmpty { list.matching(text, alias: "r") }
            return try list.page(db, order: "r.created_at DESC, r.id DESC", select: "r.*", request: page, anchors: pageAnchors) {
                Record.declaration.record($0)
            }
        }
    }

    public func create<Record: DeclaredKind>(_ texts: FieldTexts<Record>, by actor: Actor) throws -> Record {
        try transaction(by: actor) { transaction in
            let id = UUID()
            try Record.kind.check(transaction.db, id, Record.declaration.values(texts))
            let row = DeclaredRow(record: Record.declaration.record(id: id, version: 1, texts, over: nil, at: Date()))
            return try transaction.create(row).record
        }
    }

    /// Refuses an edit of a version that is no longer current (`expectedVersion`, from the form).
    public func update<Record: DeclaredKind>(_ type: Record.Type, id: UUID, _ texts: FieldTexts<Record>, expectedVersion: Int?,
                                             by actor: Actor) throws -> Record {
        try transaction(by: actor) { transaction in
            let stored = try DeclaredRow<Record>.find(transaction.db, id: id)
            try transaction.ensureCurrent(stored, expected: expectedVersion)
            try Record.kind.check(transaction.db, id, Record.declaration.values(texts))
            let edited = DeclaredRow(record: Record.declaration.record(id: id, version: stored.version, texts, over: stored.record, at: Date()))
            try transaction.ensureReferencesExist(of: edited)
            return try transaction.save(edited, over: stored).record
        }
    }

    public func remove<Record: DeclaredKind>(_ type: Record.Type, id: UUID, by actor: Actor) throws {
        try transaction(by: actor) { try $0.remove(DeclaredRow<Record>.find($0.db, id: id)) }
    }

    /// The name of the record of `kind` with this id, for a link to it; nil when there is none.
    public func name(of kind: RecordKind, id: UUID) throws -> String? {
        try read { db in try String.fetchOne(db, sql: "SELECT name FROM \(kind.table) WHERE id = ?", arguments: [id.databaseText]) }
    }
}
