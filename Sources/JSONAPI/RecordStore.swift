import Domain
import Foundation
import Records
import Storage

/// How a record resource reads and writes its kind: through the generic writer for a kind with its own form input
/// (`EditableRecord`), or from its typed texts for a kind declared only in Records (`DeclaredKind`).
struct RecordStore<Record, Input>: Sendable {
    let read: @Sendable (AppDatabase, UUID) throws -> Record
    let create: @Sendable (AppDatabase, Input, Actor) throws -> Record
    let update: @Sendable (AppDatabase, UUID, Input, _ expectedVersion: Int?, Actor) throws -> Record
    let delete: @Sendable (AppDatabase, UUID, Actor) throws -> Void
}

extension RecordStore where Record: EditableRecord, Input == Record.Input {
    static func editable(_ kind: RecordKind) -> RecordStore {
        RecordStore(read: { try $0.record(kind, id: $1) }, create: { try $0.create(kind, $1, by: $2) },
                    update: { try $0.update(kind, id: $1, $2, expectedVersion: $3, by: $4) },
                    delete: { try $0.delete(Record.self, kind, id: $1, by: $2) })
    }
}

extension RecordStore where Record: DeclaredKind, Input == FieldTexts<Record> {
    static var declared: RecordStore {
        RecordStore(read: { try $0.record(Record.self, id: $1) }, create: { try $0.create($1, by: $2) },
                    update: { try $0.update(Record.self, id: $1, $2, expectedVersion: $3, by: $4) },
                    delete: { try $0.remove(Record.self, id: $1, by: $2) })
    }
}
