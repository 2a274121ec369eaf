import Domain
import Foundation
import HTTPServer
import Records
import Storage
import Surface

/// Geographic areas: the hierarchy, its sub-lists and statistics.
enum AreaResource {
    /// The body, schema and write fields derived from the declared fields.
    static let shape = APIRecordShape(GeographicArea.declaration, id: { $0.id }, version: { $0.version },
                                      summaries: ["parent_id": "The enclosing area; null or absent for a top-level area"])

    static func body(_ area: GeographicArea) -> RecordBody { shape.body(area) }

    struct Statistics: Encodable, Sendable {
        let totalActivities: Int
        let totalParticipants: Int
        let activeActivities: Int
        let ongoingActivities: Int
    }

    static let resource = RecordResource(
        kind: GeographicArea.kind, routes: APIPaths.areas, docs: ResourceDocs(schema: "Area", plural: "Areas", listQuery: []), shape: shape,
        list: list, input: { body, keep, _, _ in AreaInput(shape.texts(body, keep: keep)) }, body: { area, _ in body(area) })

    static let components: [String: [Field]] = [
        "AreaStatistics": ["total_activities", "total_participants", "active_activities", "ongoing_activities"].map {
            Field.of($0, .integer, required: true)
        },
    ]

    static let childrenDoc = APIOperation(id: "listAreaChildren", summary: "The areas directly inside an area", query: APIOperation.paging,
                                          success: .page("Area"))
    static let ancestorsDoc = APIOperation(id: "listAreaAncestors", summary: "The areas an area lies in, top level first",
                                           query: APIOperation.paging, success: .page("Area"))
    static let venuesDoc = APIOperation(id: "listAreaVenues", summary: "Venues in an area and the areas inside it",
                                        query: APIOperation.paging, success: .page("Venue"))
    static let statisticsDoc = APIOperation(id: "getAreaStatistics", summary: "Activity and participant counts for an area and the areas inside it",
                                            success: .json("AreaStatistics"))

    /// Every area in tree order: each parent before its children, siblings by name.
    @Sendable static func list(_ context: APIContext) throws -> Response {
        APIResponse.ok(ListEnvelope(all: try context.database.areaTree().map { body($0.area) }, page: try context.pageRequest()))
    }

    @Sendable static func children(_ context: APIContext) throws -> Response {
        let id = try context.existingId(context.database.area(id:))
        return APIResponse.ok(ListEnvelope(all: try context.database.childAreas(of: id).map(body), page: try context.pageRequest()))
    }

    @Sendable static func ancestors(_ context: APIContext) throws -> Response {
        let id = try context.existingId(context.database.area(id:))
        return APIResponse.ok(ListEnvelope(all: try context.database.ancestors(of: id).map(body), page: try context.pageRequest()))
    }

    @Sendable static func venues(_ context: APIContext) throws -> Response {
        let id = try context.existingId(context.database.area(id:))
        let page = try context.database.venues(inArea: id, page: try context.pageRequest())
        return APIResponse.ok(ListEnvelope(page) { VenueResource.body($0.venue) })
    }

    @Sendable static func statistics(_ context: APIContext) throws -> Response {
        let id = try context.existingId(context.database.area(id:))
        let statistics = try context.database.areaStatistics(id: id)
        return APIResponse.ok(Statistics(totalActivities: statistics.totalActivities, totalParticipants: statistics.totalParticipants,
                                         activeActivities: statistics.activeActivities, ongoingActivities: statistics.ongoingActivities))
    }
}
