import Domain
import Foundation
import HTTPServer
import Storage
import Surface

/// Activities: search and filters as on the activity list, venues kept as history, completion.
enum ActivityResource {
    struct Body: Encodable, Sendable {
        let id: String
        let name: String
        @Null var description: String?
        let activityTypeId: String
        let startDate: String
        @Null var endDate: String?
        let status: String
        let venueIds: [String]
        let version: Int
        let createdAt: Date
        let updatedAt: Date
    }

    static let statuses = ActivityStatus.allCases.map(\.rawValue)
    static let writeFields: [Field] = [
        .input("name", .text(ActivityInput.Rules.name)),
        .input("description", .text(ActivityInput.Rules.description)),
        .input("activity_type_id", .id(ActivityInput.Rules.typeId)),
        .input("start_date", .date(ActivityInput.Rules.startDate)),
        .input("end_date", .date(ActivityInput.Rules.endDate), "After start_date for a finite activity; null or absent for an ongoing one"),
        .input("status", .choice(ActivityInput.Rules.status)),
        .input("venue_ids", .idList(ActivityInput.Rules.venueIds), "The venues it is held at now; absent keeps the current ones"),
        .input("venues_from", .date(ActivityInput.Rules.venuesFrom),
               "From when a venue change applies; the start date for a new activity, today otherwise"),
        .version(),
    ]

    static let components: [String: [Field]] = [
        "Activity": [
            .of("id", .uuid, required: true), .of("name", .text, required: true), .of("description", .text, required: true, nullable: true),
            .of("activity_type_id", .uuid, required: true), .of("start_date", .date, required: true),
            .of("end_date", .date, required: true, nullable: true), .of("status", .choice(statuses), required: true),
            .of("venue_ids", .uuidList, required: true, "Venues it is held at now"),
            .version(required: true), .of("created_at", .dateTime, required: true), .of("updated_at", .dateTime, required: true),
        ],
        "ActivityWrite": writeFields,
    ]

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
    static let handlers = RecordEndpoints<Activity, ActivityInput, Body>(
        fields: writeFields, routes: APIPaths.activities, load: { try $0.activity(id: $1) },
        input: { body, keep, current, context in input(body, keep: keep, venues: try current.map { try currentVenues(of: $0.id, context) } ?? []) },
        make: { try $0.createActivity($1, by: $2) }, change: { try $0.updateActivity(id: $1, $2, expectedVersion: $3, by: $4) },
        remove: { try $0.deleteActivity(id: $1, by: $2) }, body: { try body($0, $1) }
    ).handlers(list: list)

    static let completeDoc = APIOperation(id: "completeActivity", summary: "Mark an activity completed; an ongoing one, or one ending later, ends today",
                                          success: .json("Activity"), conflict: true, protected: true)

    static func body(_ activity: Activity, _ context: APIContext) throws -> Body {
        let venues = try currentVenues(of: activity.id, context)
        return Body(id: activity.id.text, name: activity.name, description: activity.description, activityTypeId: activity.typeId.text,
                    startDate: activity.startDate.description, endDate: activity.endDate?.description, status: activity.status.rawValue,
                    venueIds: venues, version: activity.version, createdAt: activity.createdAt, updatedAt: activity.updatedAt)
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
        let end = body.text("end_date", otherwise: keep?.endDate?.description)
        return ActivityInput(name: body.text("name", otherwise: keep?.name), description: body.text("description", otherwise: keep?.description),
                             typeId: body.text("activity_type_id", otherwise: keep?.typeId.text),
                             startDate: body.text("start_date", otherwise: keep?.startDate.description), duration: end.isEmpty ? "ongoing" : "finite",
                             endDate: end, status: body.text("status", otherwise: keep?.status.rawValue),
                             venueIds: body.strings("venue_ids") ?? venues, venuesFrom: body.text("venues_from"))
    }
}
