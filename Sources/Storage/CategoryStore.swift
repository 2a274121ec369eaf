import Domain
import Foundation
import GRDB

/// Activity types and participant roles: queries and the writes that keep them valid.
extension AppDatabase {
    /// All entries of a kind, predefined first, then by name.
    public func categories(_ kind: CategoryKind) throws -> [Category] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM \(kind.table) ORDER BY is_predefined DESC, name COLLATE NOCASE")
                .map { Category(row: $0, kind: kind) }
        }
    }

    public func category(_ kind: CategoryKind, id: UUID) throws -> Category {
        try read { db in try Self.fetchCategory(db, kind, id: id) }
    }

    @discardableResult
    public func createCategory(_ kind: CategoryKind, _ input: CategoryInput, by actor: Actor) throws -> Category {
        let valid = try input.validated(kind: kind)
        return try write(by: actor) { db, changes in
            try Self.ensureUniqueName(db, kind, valid.name, except: nil)
            let now = Date()
            let category = Category(id: UUID(), kind: kind, name: valid.name, isPredefined: false, version: 1,
                                    createdAt: now, updatedAt: now)
            try db.execute(sql: """
                INSERT INTO \(kind.table) (id, name, is_predefined, version, created_at, updated_at) VALUES (?, ?, 0, 1, ?, ?)
                """, arguments: [category.id.databaseText, category.name, now, now])
            try changes.recordCreate(kind.rawValue, id: category.id, fields: ["name": .string(category.name)])
            return category
        }
    }

    /// Renames a custom entry; `expectedVersion` (from the edit form) refuses overwriting someone else's change.
    @discardableResult
    public func updateCategory(_ kind: CategoryKind, id: UUID, _ input: CategoryInput, expectedVersion: Int?,
                               by actor: Actor) throws -> Category {
        let valid = try input.validated(kind: kind)
        return try write(by: actor) { db, changes in
            var category = try Self.fetchCategory(db, kind, id: id)
            try Self.ensureCustom(category)
            if let expectedVersion, expectedVersion != category.version { throw DomainError.staleVersion(entity: kind.singular) }
            try Self.ensureUniqueName(db, kind, valid.name, except: id)
            guard valid.name != category.name else { return category }
            let baseVersion = category.version
            let before: [String: JSONValue] = ["name": .string(category.name)]
            category.name = valid.name
            category.version += 1
            category.updatedAt = Date()
            try db.execute(sql: "UPDATE \(kind.table) SET name = ?, version = ?, updated_at = ? WHERE id = ?",
                           arguments: [category.name, category.version, category.updatedAt, id.databaseText])
            try changes.recordUpdate(kind.rawValue, id: id, before: before, after: ["name": .string(category.name)],
                                     baseVersion: baseVersion)
            return category
        }
    }

    /// Deletes a custom entry that nothing references.
    public func deleteCategory(_ kind: CategoryKind, id: UUID, by actor: Actor) throws {
        try write(by: actor) { db, changes in
            let category = try Self.fetchCategory(db, kind, id: id)
            try Self.ensureCustom(category)
            let references = try Self.references(db, kind, id: id)
            if references.total > 0 {
                throw DomainError.stillReferenced(message: kind.deletionRefusal(name: category.name, usedBy: references.total),
                                                  references: references.names)
            }
            try db.execute(sql: "DELETE FROM \(kind.table) WHERE id = ?", arguments: [id.databaseText])
            try changes.recordDelete(kind.rawValue, id: id, baseVersion: category.version)
        }
    }

    /// How many records use an entry, and the names of the first few, for the delete confirmation page.
    public func categoryReferences(_ kind: CategoryKind, id: UUID) throws -> (total: Int, names: [String]) {
        try read { db in try Self.references(db, kind, id: id) }
    }

    private static func fetchCategory(_ db: Database, _ kind: CategoryKind, id: UUID) throws -> Category {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM \(kind.table) WHERE id = ?", arguments: [id.databaseText]) else {
            throw DomainError.notFound(entity: kind.singular)
        }
        return Category(row: row, kind: kind)
    }

    private static func ensureCustom(_ category: Category) throws {
        if category.isPredefined {
            throw DomainError.protected(message: category.kind.predefinedRefusal(name: category.name))
        }
    }

    private static func ensureUniqueName(_ db: Database, _ kind: CategoryKind, _ name: String, except id: UUID?) throws {
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

extension Category {
    init(row: Row, kind: CategoryKind) {
        self.init(id: row.uuid("id"), kind: kind, name: row["name"], isPredefined: row["is_predefined"],
                  version: row["version"], createdAt: row["created_at"], updatedAt: row["updated_at"])
    }
}
