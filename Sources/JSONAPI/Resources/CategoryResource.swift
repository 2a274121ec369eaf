import Domain
import Foundation
import HTTPServer
import Records
import Storage
import Surface

/// Activity types (/activity-types) and participant roles (/roles): the same resource for both kinds.
struct CategoryResource: Sendable {
    let kind: CategoryKind

    /// The body, schema and write fields derived from the declared fields. The same limits for both kinds; only the
    /// message for a blank name names the kind.
    static let shape = APIRecordShape(
        Domain.Category.declaration(.activityType), id: { $0.id }, version: { $0.version },
        shown: [.of("is_predefined", .boolean, required: true, "Predefined entries are shared by every Fieldbook and cannot be changed")])
    static let writeFields = shape.writeFields

    var docs: ResourceDocs {
        var docs = ResourceDocs(schema: "Category", plural: kind == .activityType ? "ActivityTypes" : "Roles", listQuery: [], protected: true)
        docs.operationSuffix = kind == .activityType ? "ActivityType" : "Role"
        return docs
    }

    var handlers: RecordHandlers {
        let kind = kind
        return RecordEndpoints<Domain.Category, CategoryInput, RecordBody>(
            fields: Self.writeFields, routes: APIPaths.categories(kind), load: { try $0.category(kind, id: $1) },
            input: { body, keep, _, _ in CategoryInput(name: Self.shape.texts(body, keep: keep)[\.name]) },
            make: { try $0.createCategory(kind, $1, by: $2) }, change: { try $0.updateCategory(kind, id: $1, $2, expectedVersion: $3, by: $4) },
            remove: { try $0.deleteCategory(kind, id: $1, by: $2) }, body: { category, _ in Self.shape.body(category) }
        ).handlers(list: list)
    }

    private var list: APIHandler {
        { [kind] context in
            APIResponse.ok(ListEnvelope(all: try context.database.categories(kind).map { Self.shape.body($0) }, page: try context.pageRequest()))
        }
    }
}
