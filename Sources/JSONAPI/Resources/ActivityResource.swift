import Domain
import Foundation
import HTTPServer
import Records
import Storage
import Surface

/// Activities: search and filters as on the activity list, venues kept as history, completion.
enum ActivityResource {
    /// The body, schema and write fields derived from the declared fields, with the venues the activity is held at now.
    static let shape = APIRecordShape(
        Activity.declaration, id: { $0.id }, version: { $0.version },
        read: [.init(.of("venue_ids", .uuidList, required: true, "Venues it is held at now"))],
        write: [.init(.input("venue_ids", .idList(ActivityInput.Rules.venueIds), "The venues it is held at now; absent keeps the current ones")),
                .init(.input("venues_from", .date(ActivityInput.Rules.venuesFrom),
                             "From when a venue change applies; the start date for a new activity, today otherwise"))],
        summaries: ["end_date": "After start_date for a finite activity; null or absent for an ongoing one"])

    static let statuses = ActivityStatus.allCases.map(\.rawValue)

    static let resource = RecordResource(
        kind: Activity.kind, routes: APIPaths.activities, docs: docs, shape: shape, list: list,
        input: { body, keep, current, context in input(body, keep: keep, venues: try current.map { try currentVenues(of: $0.id, context) } ?? []) },
        body: { try body($0, $1) })

    static let docs = ResourceDocs(schema: "Activity", plural: "Activities", listQuery: [
        .of(ListParameter.text.name, .text, "Name contains (accents and case ignored)"),
        .of(ListParameter.activityTypeId.name, .uuid),
        .of(ListParameter.status.name, .choice(statuses)),
        .of(ListParameter.areaId.name, .uuid, "Held now at a venue in this area or an area inside it"),
        .of(ListParameter.venueId.name, .uuid, "Held now at this venue"),
        .of(ListParameter.from.name, .date, "Still running on or after this day"),
        .of(ListParameter.to.name, .date, "Started on or before this day"),
        .of(ListParameter.sort.name, .choice(ActivityQuery.Sort.allCases.map(\.rawValue)), "Default start"),
        .of(ListParameter.order.name, .choice(SortOrder.allCases.map(\.rawValue)), "Default desc"),
    ])
    static let completeDoc = APIOperation(id: "completeActivity", summary: "Mark an activity completed; an ongoing one, or one ending later, ends today",
                                          success: .json("Activity"), conflict: true, protected: true)

    static func body(_ activity: Activity, _ context: APIContext) throws -> RecordBody {
        shape.body(activity, extras: ["venue_ids": try currentVenues(of: activity.id, context)])
    }

    @Sendable static func list(_ context: APIContext) throws -> Response {
        let query = try ActivityQuery(reading: context)
        return APIResponse.ok(try ListEnvelope(try context.database.activities(query)) { try body($0.activity, context) })
    }

    @Sendable static func complete(_ context: APIContext) throws -> Response {
        APIResponse.ok(try body(try context.database.completeActivity(id: try context.id(), by: context.actor), context))
    }

    private static func currentVenues(of id: UUID, _ context: APIContext) throws -> [String] {
        try context.database.venueHistory(ofActivity: id).filter { $0.effectiveTo == nil }.map(\.venueId.text)
    }

    /// The form input the body stands for; `keep` (PATCH) supplies the fields the body leaves out, `venues` the current venues.
    private static func input(_ body: APIBody, keep: Activity?, venues: [String]) -> ActivityInput {
        let texts = shape.texts(body, keep: keep)
        return ActivityInput(texts, duration: texts[\.endDate].isEmpty ? "ongoing" : "finite", venueIds: body.strings("venue_ids") ?? venues,
                             venuesFrom: body.text("venues_from"))
    }
}
