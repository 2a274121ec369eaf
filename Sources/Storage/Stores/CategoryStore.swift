import Domain
import Foundation
import GRDB

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

    @discardableResult
    public func createCategory(_ kind: CategoryKind, _ input: CategoryInput, by actor: Actor) throws -> Category {
        let valid = try input.validated(kind: kind)
        return try transaction(by: actor) { try $0.createCategory(kind, valid) }
    }

    /// Renames a custom entry; `expectedVersion` (from the edit form) refuses overwriting someone else's change.
    @discardableResult
    public func updateCategory(_ kind: CategoryKind, id: UUID, _ input: CategoryInput, expectedVersion: Int?,
                               by actor: Actor) throws -> Category {
        let valid = try input.validated(kind: kind)
        return try transaction(by: actor) { try $0.updateCategory(kind, id: id, valid, expectedVersion: expectedVersion) }
    }

    /// Deletes a custom entry that nothing references.
    public func deleteCategory(_ kind: CategoryKind, id: UUID, by actor: Actor) throws {
        try transaction(by: actor) { transaction in
            let category = try Self.fetchCategory(transaction.db, kind, id: id)
            try Self.ensureCustom(category)
            let references = try Self.references(transaction.db, kind, id: id)
            if references.total > 0 {
                throw DomainError.stillReferenced(message: kind.deletionRefusal(name: category.name, usedBy: references.total),
                                                  references: references.names)
            }
            try transaction.delete(category)
        }
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

    static func ensureCustom(_ category: Category) throws {
        if category.isPredefined {
            throw DomainError.protected(message: category.kind.predefinedRefusal(name: category.name))
        }
    }

    static func ensureUniqueName(_ db: Database, _ kind: CategoryKind, _ name: String, except id: UUID?) throws {
        let clash = try String.fetchOne(db, sql: "SELECT name FROM \(kind.table) WHERE name = ? COLLATE NOCASE AND id IS NOT ?",
                                        arguments: [name, id?.databaseText])
        if let clash {
            throw ValidationError.clash("name", "\(kind.withArticle.capitalizedFirst) called “\(clash)” already exists; choose another name")
        }
    }

    private static func references(_ db: Database, _ kind: CategoryKind, id: UUID) throws -> (total: Int, names: [String]) {
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

/// The category writer: the only code that writes activity types and roles.
extension RecordTransaction {
    /// Adds a custom entry; `valid` is `CategoryInput.validated(kind:)`'s result.
    @discardableResult
    public func createCategory(_ kind: CategoryKind, _ valid: CategoryInput) throws -> Category {
        try AppDatabase.ensureUniqueName(db, kind, valid.name, except: nil)
        let now = Date()
        let category = Category(id: UUID(), kind: kind, name: valid.name, isPredefined: false, version: 1, createdAt: now, updatedAt: now)
        try insert(category)
        return category
    }

    @discardableResult
    public func updateCategory(_ kind: CategoryKind, id: UUID, _ valid: CategoryInput, expectedVersion: Int?) throws -> Category {
        let stored = try AppDatabase.fetchCategory(db, kind, id: id)
        try AppDatabase.ensureCustom(stored)
        try ensureCurrent(stored, expected: expectedVersion)
        try AppDatabase.ensureUniqueName(db, kind, valid.name, except: id)
        var edited = stored
        edited.name = valid.name
        return try save(edited, over: stored)
    }
}
