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
        let kind = kind
        return RecordEndpoints<Domain.Category, CategoryInput, Body>(
            fields: Self.writeFields, routes: APIPaths.categories(kind), load: { try $0.category(kind, id: $1) },
            input: { body, keep, _, _ in CategoryInput(name: body.text("name", otherwise: keep?.name)) },
            make: { try $0.createCategory(kind, $1, by: $2) }, change: { try $0.updateCategory(kind, id: $1, $2, expectedVersion: $3, by: $4) },
            remove: { try $0.deleteCategory(kind, id: $1, by: $2) }, body: { category, _ in Body(category) }
        ).handlers(list: list)
    }

    private var list: APIHandler {
        { [kind] context in
            APIResponse.ok(ListEnvelope(all: try context.database.categories(kind).map(Body.init), page: try context.pageRequest()))
        }
    }
}
