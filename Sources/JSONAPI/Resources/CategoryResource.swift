import Domain
import Foundation
import HTTPServer
import Storage
import Surface

/// Activity types (/activity-types) and participant roles (/roles): the same resource for both kinds.
struct CategoryResource: Sendable {
    let kind: CategoryKind

    struct Body: Encodable, Sendable {
        let id: String
        let name: String
        let isPredefined: Bool
        let version: Int
        let createdAt: Date
        let updatedAt: Date

        init(_ category: Domain.Category) {
            (id, name, isPredefined) = (category.id.text, category.name, category.isPredefined)
            (version, createdAt, updatedAt) = (category.version, category.createdAt, category.updatedAt)
        }
    }

    static let fields: [Field] = [
        .of("id", .uuid, required: true),
        .of("name", .text, required: true),
        .of("is_predefined", .boolean, required: true, "Predefined entries are shared by every Fieldbook and cannot be changed"),
        .version(required: true),
        .of("created_at", .dateTime, required: true),
        .of("updated_at", .dateTime, required: true),
    ]
    /// The same limits for both kinds; only the message for a blank name names the kind.
    static let writeFields: [Field] = [.input("name", .text(CategoryInput.nameRule(.activityType))), .version()]

    var docs: ResourceDocs {
        var docs = ResourceDocs(schema: "Category", plural: kind == .activityType ? "ActivityTypes" : "Roles", listQuery: [], protected: true)
        docs.operationSuffix = kind == .activityType ? "ActivityType" : "Role"
        return docs
    }

    var handlers: RecordHandlers {
        RecordHandlers(list: list, get: get, create: create, update: update, delete: delete)
    }

    private var list: APIHandler {
        { [kind] context in
            APIResponse.ok(ListEnvelope(all: try context.database.categories(kind).map(Body.init), page: try context.pageRequest()))
        }
    }

    private var get: APIHandler {
        { [kind] context in APIResponse.ok(Body(try context.database.category(kind, id: try context.id()))) }
    }

    private var create: APIHandler {
        { [kind] context in
            let category = try context.create(Self.writeFields, input: { CategoryInput(name: $0.text("name")) }) {
                try context.database.createCategory(kind, $0, by: context.actor)
            }
            return APIResponse.created(Body(category), at: APIPaths.categories(kind).item(category.id))
        }
    }

    private var update: @Sendable (APIContext, WriteMode) throws -> Response {
        { [kind] context, mode in
            let category = try context.update(Self.writeFields, mode: mode, load: { try context.database.category(kind, id: $0) },
                                              input: { body, keep, _ in CategoryInput(name: body.text("name", otherwise: keep?.name)) }) {
                try context.database.updateCategory(kind, id: $0, $1, expectedVersion: $2, by: context.actor)
            }
            return APIResponse.ok(Body(category))
        }
    }

    private var delete: APIHandler {
        { [kind] context in
            try context.database.deleteCategory(kind, id: try context.id(), by: context.actor)
            return APIResponse.noContent
        }
    }
}
