import Domain
import Foundation
import HTTPServer
import Storage
import Surface

/// Venues: search and filters as on the venue list, and the activities held and people living at each.
enum VenueResource {
    struct Coordinates: Encodable, Sendable {
        let latitude: Double
        let longitude: Double
    }

    struct Body: Encodable, Sendable {
        let id: String
        let name: String
        let address: String
        let geographicAreaId: String
        @Null var coordinates: Coordinates?
        @Null var venueType: String?
        let version: Int
        let createdAt: Date
        let updatedAt: Date

        init(_ venue: Venue) {
            (id, name, address, geographicAreaId) = (venue.id.text, venue.name, venue.address, venue.areaId.text)
            if let latitude = venue.latitude, let longitude = venue.longitude {
                coordinates = Coordinates(latitude: latitude, longitude: longitude)
            }
            venueType = venue.venueType?.rawValue
            (version, createdAt, updatedAt) = (venue.version, venue.createdAt, venue.updatedAt)
        }
    }

    static let venueTypes = VenueType.allCases.map(\.rawValue)
    static let coordinateFields: [Field] = [
        .input("latitude", .number(VenueInput.Rules.latitude)),
        .input("longitude", .number(VenueInput.Rules.longitude)),
    ]
    static let writeFields: [Field] = [
        .input("name", .text(VenueInput.Rules.name)),
        .input("address", .text(VenueInput.Rules.address)),
        .input("geographic_area_id", .id(VenueInput.Rules.areaId), "The area the venue is in"),
        .of("coordinates", .object(coordinateFields), nullable: true, "Both or neither: null or absent for none"),
        .input("venue_type", .choice(VenueInput.Rules.venueType)),
        .version(),
    ]
    /// Where the body holds what Domain calls latitude and longitude.
    static let bodyNames = ["latitude": "coordinates.latitude", "longitude": "coordinates.longitude"]

    static let components: [String: [Field]] = [
        "Venue": [
            .of("id", .uuid, required: true), .of("name", .text, required: true), .of("address", .text, required: true),
            .of("geographic_area_id", .uuid, required: true),
            .of("coordinates", .object(coordinateFields), required: true, nullable: true),
            .of("venue_type", .choice(venueTypes), required: true, nullable: true),
            .version(required: true), .of("created_at", .dateTime, required: true), .of("updated_at", .dateTime, required: true),
        ],
        "VenueWrite": writeFields,
    ]

    static let docs = ResourceDocs(schema: "Venue", plural: "Venues", listQuery: [
        .of(ListParameter.text.name, .text, "Name or address contains (accents and case ignored)"),
        .of(ListParameter.areaId.name, .uuid, "Venues in this area or an area inside it"),
        .of(ListParameter.venueType.name, .choice(venueTypes)),
        .of(ListParameter.sort.name, .choice(VenueQuery.Sort.allCases.map(\.rawValue)), "name (default), area, or created (newest first)"),
    ])
    static let handlers = RecordEndpoints<Venue, VenueInput, Body>(
        fields: writeFields, routes: APIPaths.venues, load: { try $0.venue(id: $1) }, input: { body, keep, _, _ in input(body, keep: keep) },
        make: { database, input, actor in try inBodyNames { try database.createVenue(input, by: actor) } },
        change: { database, id, input, version, actor in
            try inBodyNames { try database.updateVenue(id: id, input, expectedVersion: version, by: actor) }
        },
        remove: { try $0.deleteVenue(id: $1, by: $2) }, body: { venue, _ in Body(venue) }
    ).handlers(list: list)

    static let activitiesDoc = APIOperation(id: "listVenueActivities", summary: "Activities currently held at a venue",
                                            query: APIOperation.paging, success: .page("Activity"))
    static let participantsDoc = APIOperation(id: "listVenueParticipants",
                                              summary: "Participants whose home venue this is. 403 for read-only callers while the privacy setting hides homes",
                                              query: APIOperation.paging, success: .page("Participant"), protected: true)

    @Sendable static func list(_ context: APIContext) throws -> Response {
        let query = try VenueQuery(reading: context)
        return APIResponse.ok(ListEnvelope(try context.database.venues(query)) { Body($0.venue) })
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
            ParticipantResource.Body(try context.database.participant(id: $0.id), seen: seen)
        }
        return APIResponse.ok(ListEnvelope(items: items, page: page, total: occupancy.participantTotal))
    }

    /// Runs a store write, naming the coordinates its refusal mentions as the body does.
    private static func inBodyNames<T>(_ write: () throws -> T) throws -> T {
        do { return try write() } catch let error as ValidationError { throw error.renamingFields(bodyNames) }
    }

    /// The form input the body stands for; `keep` (PATCH) supplies the fields the body leaves out.
    private static func input(_ body: APIBody, keep: Venue?) -> VenueInput {
        var latitude = keep?.latitude.map { "\($0)" } ?? "", longitude = keep?.longitude.map { "\($0)" } ?? ""
        if body.has("coordinates") {
            let coordinates = body.object("coordinates")
            latitude = coordinates?.number("latitude").map { "\($0)" } ?? ""
            longitude = coordinates?.number("longitude").map { "\($0)" } ?? ""
        }
        return VenueInput(name: body.text("name", otherwise: keep?.name), address: body.text("address", otherwise: keep?.address),
                          areaId: body.text("geographic_area_id", otherwise: keep?.areaId.text), latitude: latitude, longitude: longitude,
                          venueType: body.text("venue_type", otherwise: keep?.venueType?.rawValue))
    }
}
