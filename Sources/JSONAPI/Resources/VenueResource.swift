import Domain
import Foundation
import HTTPServer
import Records
import Storage
import Surface

/// Venues: search and filters as on the venue list, and the activities held and people living at each.
enum VenueResource {
    struct Coordinates: Encodable, Sendable {
        let latitude: Double
        let longitude: Double
    }

    /// The body, schema and write fields derived from the declared fields, latitude and longitude shown as one
    /// `coordinates` object.
    static let shape = APIRecordShape(
        Venue.declaration, id: { $0.id }, version: { $0.version }, leftOut: ["latitude", "longitude"],
        read: [.init(.of("coordinates", .object(coordinateFields), required: true, nullable: true), after: "geographic_area_id")],
        write: [.init(.of("coordinates", .object(coordinateFields), nullable: true, "Both or neither: null or absent for none"), after: "geographic_area_id")],
        summaries: ["geographic_area_id": "The area the venue is in"])

    static func body(_ venue: Venue) -> RecordBody {
        var coordinates: Coordinates?
        if let latitude = venue.latitude, let longitude = venue.longitude { coordinates = Coordinates(latitude: latitude, longitude: longitude) }
        return shape.body(venue, extras: ["coordinates": coordinates])
    }

    static let venueTypes = VenueType.allCases.map(\.rawValue)
    static let coordinateFields: [Field] = [
        .input("latitude", .number(VenueInput.Rules.latitude)),
        .input("longitude", .number(VenueInput.Rules.longitude)),
    ]

    static let resource = RecordResource(
        kind: Venue.kind, routes: APIPaths.venues, docs: docs, shape: shape, list: list, input: { body, keep, _, _ in input(body, keep: keep) },
        body: { venue, _ in body(venue) }, bodyNames: ["latitude": "coordinates.latitude", "longitude": "coordinates.longitude"])

    static let docs = ResourceDocs(schema: "Venue", plural: "Venues", listQuery: [
        .of(ListParameter.text.name, .text, "Name or address contains (accents and case ignored)"),
        .of(ListParameter.areaId.name, .uuid, "Venues in this area or an area inside it"),
        .of(ListParameter.venueType.name, .choice(venueTypes)),
        .of(ListParameter.sort.name, .choice(VenueQuery.Sort.allCases.map(\.rawValue)), "name (default), area, or created (newest first)"),
    ])
    static let activitiesDoc = APIOperation(id: "listVenueActivities", summary: "Activities currently held at a venue",
                                            query: APIOperation.paging, success: .page("Activity"))
    static let participantsDoc = APIOperation(id: "listVenueParticipants",
                                              summary: "Participants whose home venue this is. 403 for read-only callers while the privacy setting hides homes",
                                              query: APIOperation.paging, success: .page("Participant"), protected: true)

    @Sendable static func list(_ context: APIContext) throws -> Response {
        let query = try VenueQuery(reading: context)
        return APIResponse.ok(ListEnvelope(try context.database.venues(query)) { body($0.venue) })
    }

    @Sendable static func activities(_ context: APIContext) throws -> Response {
        let (id, page) = (try context.existingId(context.database.venue(id:)), try context.pageRequest())
        let occupancy = try context.database.venueOccupancy(id: id, limit: page.offset + page.perPage)
        let items = try occupancy.activities.dropFirst(page.offset).map { try ActivityResource.body(context.database.activity(id: $0.id), context) }
        return APIResponse.ok(ListEnvelope(items: items, page: page, total: occupancy.activityTotal))
    }

    @Sendable static func participants(_ context: APIContext) throws -> Response {
        let (id, page) = (try context.existingId(context.database.venue(id:)), try context.pageRequest())
        let seen = try ParticipantResource.visibility(context)
        guard seen.homes else { throw ParticipantResource.homesHidden }
        let occupancy = try context.database.venueOccupancy(id: id, limit: page.offset + page.perPage)
        let items = try occupancy.participants.dropFirst(page.offset).map {
            ParticipantResource.body(try context.database.participant(id: $0.id), seen: seen)
        }
        return APIResponse.ok(ListEnvelope(items: items, page: page, total: occupancy.participantTotal))
    }

    /// The form input the body stands for; `keep` (PATCH) supplies the fields the body leaves out.
    private static func input(_ body: APIBody, keep: Venue?) -> VenueInput {
        var input = VenueInput(shape.texts(body, keep: keep))
        if body.has("coordinates") {
            let coordinates = body.object("coordinates")
            input.latitude = coordinates?.number("latitude").map { "\($0)" } ?? ""
            input.longitude = coordinates?.number("longitude").map { "\($0)" } ?? ""
        }
        return input
    }
}
