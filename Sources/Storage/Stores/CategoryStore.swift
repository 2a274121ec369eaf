import Domain
import Foundation
import GRDB
import Records

/// Activity types and participant roles: queries and the writes that keep them valid.
extension AppDatabase {
    /// All entries of a kind, predefined first, then by name.
    public func categories(_ kind: CategoryKind) throws -> [Category] {
        try read { db in
            try Row.fetchAll(db.cachedStatement(sql: "SELECT * FROM \(kind.table) ORDER BY is_predefined DESC, name COLLATE NOCASE"))
                .map { Category(row: $0, kind: kind) }
        }
    }

    public func category(_ kind: CategoryKind, id: UUID) throws -> Category {
        try read { db in try Self.fetchCategory(db, kind, id: id) }
    }

    @discardableResult public func createCategory(_ kind: CategoryKind, _ input: CategoryInput, by actor: Actor) throws -> Category {
        try create((kind, input.validated(kind: kind)), by: actor)
    }
    /// Renames a custom entry; `expectedVersion` (from the edit form) refuses overwriting someone else's change.
    @discardableResult public func updateCategory(_ kind: CategoryKind, id: UUID, _ input: CategoryInput, expectedVersion: Int?,
                                                  by actor: Actor) throws -> Category {
        try update(id: id, (kind, input.validated(kind: kind)), expectedVersion: expectedVersion, by: actor)
    }
    /// Deletes a custom entry that nothing references.
    public func deleteCategory(_ kind: CategoryKind, id: UUID, by actor: Actor) throws {
        try transaction(by: actor) { try $0.remove(Self.fetchCategory($0.db, kind, id: id)) }
    }

    /// How many records use an entry, and the names of the first few, for the delete confirmation page.
    public func categoryReferences(_ kind: CategoryKind, id: UUID) throws -> (total: Int, names: [String]) {
        try read { db in try Self.references(db, kind, id: id) }
    }

    static func fetchCategory(_ db: Database, _ kind: CategoryKind, id: UUID) throws -> Category {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM \(kind.table) WHERE id = ?", arguments: [id.databaseText]) else {
            throw DomainError.notFound(entity: kind.singular)
        }
        return Category(row: row, kind: kind)
    }

    static func ensureUniqueName(_ db: Database, _ kind: CategoryKind, _ name: String, except id: UUID?) throws {
        let clash = try String.fetchOne(db, sql: "SELECT name FROM \(kind.table) WHERE name = ? COLLATE NOCASE AND id IS NOT ?",
                                        arguments: [name, id?.databaseText])
        if let clash {
            throw ValidationError.clash("name", "\(kind.withArticle.capitalizedFirst) called “\(clash)” already exists; choose another name")
        }
    }

    static func references(_ db: Database, _ kind: CategoryKind, id: UUID) throws -> (total: Int, names: [String]) {
        let sql: (count: String, names: String) = switch kind {
        case .activityType:
            ("SELECT COUNT(*) FROM activities WHERE activity_type_id = ?",
             "SELECT name FROM activities WHERE activity_type_id = ? ORDER BY name LIMIT 10")
        case .participantRole:
            ("SELECT COUNT(*) FROM assignments WHERE role_id = ?",
             """
             SELECT p.name || ' in ' || a.name FROM assignments s JOIN participants p ON p.id = s.participant_id
             JOIN activities a ON a.id = s.activity_id WHERE s.role_id = ? ORDER BY a.name, p.name LIMIT 10
             """)
        }
        let total = try Int.fetchOne(db, sql: sql.count, arguments: [id.databaseText]) ?? 0
        let names = total > 0 ? try String.fetchAll(db, sql: sql.names, arguments: [id.databaseText]) : []
        return (total, names)
    }
}

/// The writes of activity types and participant roles: names unique within their kind, predefined entries never
/// changed, an entry deleted only while nothing uses it.
extension Category: WritableRecord {
    /// Which list the entry is in, and its checked name (`CategoryInput.validated(kind:)`).
    public typealias Valid = (kind: CategoryKind, input: CategoryInput)

    var declaration: RecordDeclaration<Category> { Self.declaration(kind) }

    init(_ valid: Valid, id: UUID, at now: Date) {
        self = .blank(id: id, kind: valid.kind, version: 1)
        (name, createdAt, updatedAt) = (valid.input.name, now, now)
    }

    static func stored(_ db: Database, id: UUID, for valid: Valid) throws -> Category {
        try AppDatabase.fetchCategory(db, valid.kind, id: id)
    }

    public static func validated(_ input: CategoryInput, as kind: RecordKind) throws -> Valid {
        let category = CategoryKind(kind)
        return (category, try input.validated(kind: category))
    }

    static func stored(_ db: Database, _ kind: RecordKind, id: UUID) throws -> Category {
        try AppDatabase.fetchCategory(db, CategoryKind(kind), id: id)
    }

    func ensureChangeable() throws {
        if isPredefined { throw DomainError.protected(message: kind.predefinedRefusal(name: name)) }
    }

    func checkWrite(over stored: Category?, _ valid: Valid, in transaction: RecordTransaction) throws {
        try AppDatabase.ensureUniqueName(transaction.db, kind, name, except: stored?.id)
    }

    func refusal(_ blockers: [Blocker], in transaction: RecordTransaction) throws -> DomainError? {
        let references = try AppDatabase.references(transaction.db, kind, id: id)
        return .stillReferenced(message: kind.deletionRefusal(name: name, usedBy: references.total), references: references.names)
    }
}

extension CategoryKind {
    /// The list whose records are of `kind`, which must be one of the two.
    init(_ kind: RecordKind) {
        guard let category = CategoryKind(rawValue: kind.entity) else { preconditionFailure("\(kind.entity) is not a category") }
        self = category
    }
}
