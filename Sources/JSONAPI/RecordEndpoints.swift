import Domain
import Foundation
import HTTPServer
import Storage

/// What differs between record resources in reading one record, creating one, changing one (PUT and PATCH) and
/// deleting one; `handlers(list:)` makes the same handlers from it for every kind.
struct RecordEndpoints<Record: Identifiable & Sendable, Input, Body: Encodable>: Sendable where Record.ID == UUID {
    /// The body fields of a create and a change.
    let fields: [Field]
    let routes: APIRecordRoutes
    let load: @Sendable (AppDatabase, UUID) throws -> Record
    /// The input a body stands for: `keep` is the stored record for PATCH, whose absent fields keep their values
    /// (nil for POST and PUT); `current` is the stored record for PUT and PATCH.
    let input: @Sendable (_ body: APIBody, _ keep: Record?, _ current: Record?, APIContext) throws -> Input
    let make: @Sendable (AppDatabase, Input, Actor) throws -> Record
    let change: @Sendable (AppDatabase, _ id: UUID, Input, _ version: Int?, Actor) throws -> Record
    let remove: @Sendable (AppDatabase, UUID, Actor) throws -> Void
    /// The record as the API writes it.
    let body: @Sendable (Record, APIContext) throws -> Body

    func handlers(list: @escaping APIHandler) -> RecordHandlers {
        RecordHandlers(list: list, get: getHandler, create: createHandler, update: updateHandler, delete: deleteHandler)
    }

    private var getHandler: APIHandler {
        { [load, body] context in APIResponse.ok(try body(try load(context.database, try context.id()), context)) }
    }

    private var createHandler: APIHandler {
        { [self] context in
            let record = try context.create(fields, input: { try input($0, nil, nil, context) }) { try make(context.database, $0, context.actor) }
            return APIResponse.created(try body(record, context), at: routes.item(record.id))
        }
    }

    private var updateHandler: @Sendable (APIContext, WriteMode) throws -> Response {
        { [self] context, mode in
            let record = try context.update(fields, mode: mode, load: { try load(context.database, $0) },
                                            input: { try input($0, $1, $2, context) }) {
                try change(context.database, $0, $1, $2, context.actor)
            }
            return APIResponse.ok(try body(record, context))
        }
    }

    private var deleteHandler: APIHandler {
        { [remove] context in
            try remove(context.database, try context.id(), context.actor)
            return APIResponse.noContent
        }
    }
}
