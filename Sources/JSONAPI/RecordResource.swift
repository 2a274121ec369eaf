import Domain
import Foundation
import HTTPServer
import Records
import Storage
import Surface

/// A record kind's resource: list (paged), read, create, replace, update and delete, with its schemas, from its
/// declared fields (`shape`) and the generic writer. A kind states only what is its own: its list's filters and order
/// (`list`), what a body adds to the form input (`input`) and to the record (`body`).
struct RecordResource<Record: Sendable, Input>: Sendable {
    let kind: RecordKind
    let store: RecordStore<Record, Input>
    let routes: APIRecordRoutes
    let docs: ResourceDocs
    let shape: APIRecordShape<Record>
    let list: APIHandler
    /// The input a body stands for: `keep` is the stored record for PATCH, whose absent fields keep their values
    /// (nil for POST and PUT); `current` is the stored record for PUT and PATCH.
    let input: @Sendable (_ body: APIBody, _ keep: Record?, _ current: Record?, APIContext) throws -> Input
    /// The record as the API writes it.
    let body: @Sendable (Record, APIContext) throws -> RecordBody
    /// Where the body holds what the kind's rules name otherwise (a venue's `coordinates.latitude`), for their refusals.
    let bodyNames: [String: String]
    private let writeFields: [Field]

    init(kind: RecordKind, store: RecordStore<Record, Input>, routes: APIRecordRoutes, docs: ResourceDocs, shape: APIRecordShape<Record>,
         list: @escaping APIHandler, input: @escaping @Sendable (APIBody, Record?, Record?, APIContext) throws -> Input,
         body: @escaping @Sendable (Record, APIContext) throws -> RecordBody, bodyNames: [String: String] = [:]) {
        (self.kind, self.store, self.routes, self.docs, self.shape, self.list) = (kind, store, routes, docs, shape, list)
        (self.input, self.body, self.bodyNames) = (input, body, bodyNames)
        writeFields = shape.writeFields
    }

    /// The resource as the route table registers it.
    var api: RecordAPI {
        RecordAPI(routes: routes, docs: docs, components: [docs.schema: shape.schema, docs.schema + "Write": writeFields],
                  handlers: RecordHandlers(list: list, get: getHandler, create: createHandler, update: updateHandler, delete: deleteHandler))
    }

    private var getHandler: APIHandler {
        { [store, body] context in APIResponse.ok(try body(try store.read(context.database, try context.id()), context)) }
    }

    private var createHandler: APIHandler {
        { [self] context in
            let record: Record = try context.create(writeFields, input: { try input($0, nil, nil, context) }) { input in
                try inBodyNames { try store.create(context.database, input, context.actor) }
            }
            return APIResponse.created(try body(record, context), at: routes.item(shape.id(record)))
        }
    }

    private var updateHandler: @Sendable (APIContext, WriteMode) throws -> Response {
        { [self] context, mode in
            let record: Record = try context.update(writeFields, mode: mode, load: { try store.read(context.database, $0) },
                                                    input: { try input($0, $1, $2, context) }) { id, input, version in
                try inBodyNames { try store.update(context.database, id, input, version, context.actor) }
            }
            return APIResponse.ok(try body(record, context))
        }
    }

    private var deleteHandler: APIHandler {
        { [store] context in
            try store.delete(context.database, try context.id(), context.actor)
            return APIResponse.noContent
        }
    }

    /// Runs a write, naming the fields its refusal mentions as the body does.
    private func inBodyNames<T>(_ write: () throws -> T) throws -> T {
        do { return try write() } catch let error as ValidationError where !bodyNames.isEmpty { throw error.renamingFields(bodyNames) }
    }
}

extension RecordResource where Record: EditableRecord, Input == Record.Input {
    init(kind: RecordKind, routes: APIRecordRoutes, docs: ResourceDocs, shape: APIRecordShape<Record>, list: @escaping APIHandler,
         input: @escaping @Sendable (APIBody, Record?, Record?, APIContext) throws -> Input,
         body: @escaping @Sendable (Record, APIContext) throws -> RecordBody, bodyNames: [String: String] = [:]) {
        self.init(kind: kind, store: .editable(kind), routes: routes, docs: docs, shape: shape, list: list, input: input, body: body,
                  bodyNames: bodyNames)
    }
}

extension RecordResource where Input: TypedInput, Input.Record == Record {
    /// The resource of a kind with nothing of its own: its declared fields as they are, written from what the body
    /// holds for them, with what the privacy setting hides from the caller null.
    private init(_ declaration: RecordDeclaration<Record>, _ kind: RecordKind, store: RecordStore<Record, Input>, at routes: APIRecordRoutes,
                 id: @escaping @Sendable (Record) -> UUID, version: @escaping @Sendable (Record) -> Int,
                 page: @escaping @Sendable (AppDatabase, PageRequest) throws -> ListPage<Record>) {
        let shape = APIRecordShape(declaration, id: id, version: version)
        let hidden = { @Sendable (context: APIContext) in try ParticipantResource.visibility(context).hiddenColumns(of: kind) }
        self.init(kind: kind, store: store, routes: routes, docs: ResourceDocs(kind), shape: shape,
                  list: { context in
                      let hiding = try hidden(context)
                      return APIResponse.ok(ListEnvelope(try page(context.database, try context.pageRequest())) { shape.body($0, hiding: hiding) })
                  },
                  input: { body, keep, _, _ in Input(shape.texts(body, keep: keep)) },
                  body: { record, context in shape.body(record, hiding: try hidden(context)) })
    }
}

extension RecordResource where Record: DeclaredRecord & EditableRecord, Input == Record.Input, Input: TypedInput, Input.Record == Record {
    /// A kind of Storage's with nothing of its own, every record listed by its first listed field.
    init(_ type: Record.Type, at collection: RecordCollection) {
        self.init(Record.declaration, Record.kind, store: .editable(Record.kind), at: APIRecordRoutes(collection), id: { $0.id },
                  version: { $0.version }, page: { try $0.records(Record.self, page: $1) })
    }
}

extension RecordResource where Record: DeclaredKind, Input == FieldTexts<Record> {
    /// A kind declared only in Records, at the address its table names (`/api/v1/notes`), newest first.
    init(_ type: Record.Type) {
        self.init(Record.declaration, Record.kind, store: .declared, at: APIRecordRoutes(Record.kind), id: { $0.id }, version: { $0.version },
                  page: { try $0.records(Record.self, matching: "", page: $1) })
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
