import Domain
import Foundation
import GRDB
import Records

/// A kind people edit from its form input, as the surfaces see it: read, created, changed and deleted through the generic
/// writer (`AppDatabase.record`, `create`, `update`, `delete`) without naming the kind. `WritableRecord` supplies all
/// but `validated`, the kind's own check of its input.
public protocol EditableRecord: Sendable {
    /// The form input a write takes (`VenueInput`).
    associatedtype Input
    /// The checked input that sets the record's fields (`VenueInput.Valid`).
    associatedtype Valid
    var id: UUID { get }
    /// `input` checked by the rules of `kind`, which matters for a type that serves several kinds (categories).
    static func validated(_ input: Input, as kind: RecordKind) throws -> Valid
    /// The stored record of `kind` with this id; `notFound` when there is none.
    static func fetch(_ db: Database, as kind: RecordKind, id: UUID) throws -> Self
    static func create(_ valid: Valid, in transaction: RecordTransaction) throws -> Self
    static func update(id: UUID, _ valid: Valid, expectedVersion: Int?, in transaction: RecordTransaction) throws -> Self
    func remove(in transaction: RecordTransaction) throws
}

extension WritableRecord {
    public static func create(_ valid: Valid, in transaction: RecordTransaction) throws -> Self {
        try transaction.create(Self.self, valid)
    }

    public static func update(id: UUID, _ valid: Valid, expectedVersion: Int?, in transaction: RecordTransaction) throws -> Self {
        try transaction.update(Self.self, id: id, valid, expectedVersion: expectedVersion)
    }

    public func remove(in transaction: RecordTransaction) throws { try transaction.remove(self) }

    public static func fetch(_ db: Database, as kind: RecordKind, id: UUID) throws -> Self { try stored(db, kind, id: id) }
}

/// The writes of any kind people edit, each in a transaction of its own.
extension AppDatabase {
    public func record<Record: EditableRecord>(_ kind: RecordKind, id: UUID) throws -> Record {
        try read { db in try Record.fetch(db, as: kind, id: id) }
    }

    @discardableResult
    public func create<Record: EditableRecord>(_ kind: RecordKind, _ input: Record.Input, by actor: Actor) throws -> Record {
        let valid = try Record.validated(input, as: kind)
        return try transaction(by: actor) { try Record.create(valid, in: $0) }
    }

    @discardableResult
    public func update<Record: EditableRecord>(_ kind: RecordKind, id: UUID, _ input: Record.Input, expectedVersion: Int?,
                                               by actor: Actor) throws -> Record {
        let valid = try Record.validated(input, as: kind)
        return try transaction(by: actor) { try Record.update(id: id, valid, expectedVersion: expectedVersion, in: $0) }
    }

    public func delete<Record: EditableRecord>(_ type: Record.Type, _ kind: RecordKind, id: UUID, by actor: Actor) throws {
        try transaction(by: actor) { try Record.fetch($0.db, as: kind, id: id).remove(in: $0) }
    }
}
