import Domain
import Foundation
import HTTPServer
import Records
import Storage
import Surface

/// Activity types (/activity-types) and participant roles (/roles): the same resource for both kinds.
enum CategoryResource {
    /// The body, schema and write fields derived from the declared fields. The same limits for both kinds; only the
    /// message for a blank name names the kind.
    static let shape = APIRecordShape(
        Domain.Category.declaration(.activityType), id: { $0.id }, version: { $0.version },
        shown: [.of("is_predefined", .boolean, required: true, "Predefined entries are shared by every Fieldbook and cannot be changed")])

    static func resource(_ kind: CategoryKind) -> RecordResource<Domain.Category, CategoryInput> {
        RecordResource(kind: Domain.Category.kind(kind), routes: APIPaths.categories(kind), docs: docs(kind), shape: shape,
                       list: { context in
                           APIResponse.ok(ListEnvelope(all: try context.database.categories(kind).map { shape.body($0) }, page: try context.pageRequest()))
                       },
                       input: { body, keep, _, _ in CategoryInput(name: shape.texts(body, keep: keep)[\.name]) }, body: { category, _ in shape.body(category) })
    }

    private static func docs(_ kind: CategoryKind) -> ResourceDocs {
        var docs = ResourceDocs(schema: "Category", plural: kind == .activityType ? "ActivityTypes" : "Roles", listQuery: [], protected: true)
        docs.operationSuffix = kind == .activityType ? "ActivityType" : "Role"
        return docs
    }
}
