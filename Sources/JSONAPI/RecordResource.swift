import Domain
import Foundation
import HTTPServer
import Records
import Storage
import Surface

/// A record kind's resource: list (paged), read, create, replace, update and delete, with its schemas, from its
/// declared fields (`shape`) and the generic writer. A kind states only what is its own: its list's filters and order
/// (`list`), what a body adds to the form input (`input`) and to the record (`body`).
struct RecordResource<Record: EditableRecord>: Sendable {
    let kind: RecordKind
    let routes: APIRecordRoutes
    let docs: ResourceDocs
    let shape: APIRecordShape<Record>
    let list: APIHandler
    /// The input a body stands for: `keep` is the stored record for PATCH, whose absent fields keep their values
    /// (nil for POST and PUT); `current` is the stored record for PUT and PATCH.
    let input: @Sendable (_ body: APIBody, _ keep: Record?, _ current: Record?, APIContext) throws -> Record.Input
    /// The record as the API writes it.
    let body: @Sendable (Record, APIContext) throws -> RecordBody
    /// Where the body holds what the kind's rules name otherwise (a venue's `coordinates.latitude`), for their refusals.
    let bodyNames: [String: String]
    private let writeFields: [Field]

    init(kind: RecordKind, routes: APIRecordRoutes, docs: ResourceDocs, shape: APIRecordShape<Record>, list: @escaping APIHandler,
         input: @escaping @Sendable (APIBody, Record?, Record?, APIContext) throws -> Record.Input,
         body: @escaping @Sendable (Record, APIContext) throws -> RecordBody, bodyNames: [String: String] = [:]) {
        (self.kind, self.routes, self.docs, self.shape, self.list) = (kind, routes, docs, shape, list)
        (self.input, self.body, self.bodyNames) = (input, body, bodyNames)
        writeFields = shape.writeFields
    }

    /// The resource as the route table registers it.
    var api: RecordAPI {
        RecordAPI(routes: routes, docs: docs, components: [docs.schema: shape.schema, docs.schema + "Write": writeFields],
                  handlers: RecordHandlers(list: list, get: getHandler, create: createHandler, update: updateHandler, delete: deleteHandler))
    }

    private var getHandler: APIHandler {
        { [kind, body] context in APIResponse.ok(try body(try context.database.record(kind, id: try context.id()), context)) }
    }

    private var createHandler: APIHandler {
        { [self] context in
            let record: Record = try context.create(writeFields, input: { try input($0, nil, nil, context) }) { input in
                try inBodyNames { try context.database.create(kind, input, by: context.actor) }
            }
            return APIResponse.created(try body(record, context), at: routes.item(record.id))
        }
    }

    private var updateHandler: @Sendable (APIContext, WriteMode) throws -> Response {
        { [self] context, mode in
            let record: Record = try context.update(writeFields, mode: mode, load: { try context.database.record(kind, id: $0) },
                                                    input: { try input($0, $1, $2, context) }) { id, input, version in
                try inBodyNames { try context.database.update(kind, id: id, input, expectedVersion: version, by: context.actor) }
            }
            return APIResponse.ok(try body(record, context))
        }
    }

    private var deleteHandler: APIHandler {
        { [kind] context in
            try context.database.delete(Record.self, kind, id: try context.id(), by: context.actor)
            return APIResponse.noContent
        }
    }

    /// Runs a write, naming the fields its refusal mentions as the body does.
    private func inBodyNames<T>(_ write: () throws -> T) throws -> T {
        do { return try write() } catch let error as ValidationError where !bodyNames.isEmpty { throw error.renamingFields(bodyNames) }
    }
}

extension RecordResource where Record: DeclaredRecord, Record.Input: TypedInput, Record.Input.Record == Record {
    /// The resource of a kind with nothing of its own: its declared fields as they are, written from what the body
    /// holds for them, every record listed by its first listed field.
    init(_ type: Record.Type, at collection: RecordCollection) {
        let shape = APIRecordShape(Record.declaration, id: { $0.id }, version: { $0.version })
        self.init(kind: Record.kind, routes: APIRecordRoutes(collection), docs: ResourceDocs(Record.kind), shape: shape,
                  list: { context in
                      APIResponse.ok(ListEnvelope(try context.database.records(Record.self, page: try context.pageRequest())) { shape.body($0) })
                  },
                  input: { body, keep, _, _ in Record.Input(shape.texts(body, keep: keep)) }, body: { record, _ in shape.body(record) })
    }
}

/// A record resource as the route table registers it, whatever its kind.
struct RecordAPI: Sendable {
    let routes: APIRecordRoutes
    let docs: ResourceDocs
    /// Its schemas by component name: the record and its write body.
    let components: [String: [Field]]
    let handlers: RecordHandlers
}
