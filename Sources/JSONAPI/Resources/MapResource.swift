import Domain
import Foundation
import HTTPServer
import Storage
import Surface

/// The map's data as GeoJSON (RFC 7946): venues with their matching activities, and the participant-homes layer.
/// Written by hand rather than with JSONEncoder: the largest maps must answer within the map benchmark's target.
enum MapResource {
    static let venuesDoc = APIOperation(
        id: "getMapVenues",
        summary: "Venues with coordinates as GeoJSON, each with its current activities that match the filters; with an activity filter only venues with a matching activity",
        query: [
            .of(ListParameter.activityTypeId.name, .uuid, "Only activities of this type"),
            .of(ListParameter.status.name, .choice(ActivityStatus.allCases.map(\.rawValue)), "Only activities with this status"),
            .of(ListParameter.from.name, .date, "Only activities still running on or after this day"),
            .of(ListParameter.to.name, .date, "Only activities started on or before this day"),
            .of(ListParameter.areaId.name, .uuid, "Only venues in this area or an area inside it"),
            .of(ListParameter.visitListId.name, .uuid, "Only the venues this visit list's stops are at"),
        ],
        success: .geoJSON("MapVenueCollection"))

    static let homesDoc = APIOperation(
        id: "getMapHomes",
        summary: "Venues where participants live, as GeoJSON: counts, and names only when the administrators' privacy setting allows them. 403 unless the setting shows homes to the caller's role",
        query: [.of(ListParameter.areaId.name, .uuid, "Only venues in this area or an area inside it")],
        success: .geoJSON("MapHomeCollection"), protected: true)

    static var components: [String: [Field]] {
        let activity: [Field] = [
            .of("id", .uuid, required: true), .of("name", .text, required: true),
            .of("activity_type_id", .uuid, required: true), .of("activity_type", .text, required: true),
            .of("status", .choice(ActivityStatus.allCases.map(\.rawValue)), required: true),
            .of("start_date", .date, required: true), .of("end_date", .date, required: true, nullable: true),
        ]
        let venueProperties: [Field] = [
            .of("name", .text, required: true), .of("address", .text, required: true), .of("area", .text, required: true),
            .of("type_symbol", .text, required: true, "Symbol by activity type: the type's id, several or none"),
            .of("status_symbol", .text, required: true, "Symbol by status: the status, several or none"),
            .of("activities", .list("MapActivity"), required: true),
        ]
        let homeProperties: [Field] = [
            .of("name", .text, required: true), .of("residents", .integer, required: true),
            .of("resident_names", .textList, required: true, "Empty unless the privacy setting allows names"),
        ]
        return [
            "MapActivity": activity,
            "MapVenueFeature": feature(properties: venueProperties),
            "MapVenueCollection": collection(of: "MapVenueFeature") + [.of("links", .object([
                .of("venue", .text, required: true, "A venue's page: replace {id} with the feature's id"),
                .of("activity", .text, required: true, "An activity's page: replace {id} with the activity's id"),
            ]), required: true)],
            "MapHomeFeature": feature(properties: homeProperties),
            "MapHomeCollection": collection(of: "MapHomeFeature"),
        ]
    }

    private static func feature(properties: [Field]) -> [Field] {
        [
            .of("type", .choice(["Feature"]), required: true), .of("id", .uuid, required: true, "The venue's id"),
            .of("geometry", .object([.of("type", .choice(["Point"]), required: true), .of("coordinates", .position, required: true)]),
                required: true),
            .of("properties", .object(properties), required: true),
        ]
    }

    private static func collection(of feature: String) -> [Field] {
        [.of("type", .choice(["FeatureCollection"]), required: true), .of("features", .list(feature), required: true)]
    }

    /// Kept encoded until the records change, and validated by ETag: everyone opening the map asks for the same few
    /// filter sets, and reading, writing and compressing a large map takes far longer than sending it again.
    @Sendable static func venues(_ context: APIContext) throws -> Response {
        let query = try MapQuery(reading: context).seen(homes: ParticipantResource.visibility(context).homes)
        let request = context.request, database = try context.database
        let gzip = Gzip.isAccepted(by: request)
        let key = AnyHashable(VenuesAnswer(query: query, gzip: gzip))
        let current = try database.recordsVersion()
        if isFresh(request, at: current, query) { return notModified(at: current, query) }
        if let kept = database.answers.value(for: key, at: current) { return geoJSON(kept, gzip: gzip, at: current, query) }
        let data = try MapData.load(database, query)
        // One part per core, but only when there is enough to share: a thread costs more than a small answer.
        let parts = venueCollection(data.venues, parts: data.venues.count < 2_000 ? 1 : ProcessInfo.processInfo.activeProcessorCount)
        // Compressed whenever accepted, however small: a kept answer is sent again with the encoding its key names.
        let compressed = gzip ? Gzip.compress(parts: parts) : nil
        if gzip, compressed == nil { throw HTTPError(.internalServerError, "The map's data could not be compressed; reload the page.") }
        let body = compressed ?? Array(parts.joined())
        database.answers.store(body, for: key, at: data.version, cost: body.count)
        return geoJSON(body, gzip: gzip, at: data.version, query)
    }

    /// What a kept venues answer depends on besides the records: the filters and the encoding.
    private struct VenuesAnswer: Hashable {
        let query: MapQuery
        let gzip: Bool
    }

    @Sendable static func homes(_ context: APIContext) throws -> Response {
        let settings = try context.database.mapSettings()
        guard let role = context.caller?.user.role, settings.showsHomes(to: role) else {
            throw HTTPError(.forbidden, "The participant-homes layer is off for your role; an administrator can allow it on the map settings page.")
        }
        let homes = try context.database.mapHomes(areaId: try context.uuid(ListParameter.areaId.name),
                                                  withNames: settings.homesLayer == .names)
        return geoJSON(homeCollection(homes), for: context.request)
    }

    /// The GeoJSON of `venues`, as `/api/v1/map/venues` answers it.
    static func venueCollection(_ venues: [MapVenue]) -> [UInt8] {
        Array(venueCollection(venues, parts: 1).joined())
    }

    /// The GeoJSON in `parts` consecutive pieces, written at once on as many threads: joined, they are the document.
    /// A large map is megabytes of JSON; on two cores two writers (and two compressors) halve the wait.
    static func venueCollection(_ venues: [MapVenue], parts: Int) -> [[UInt8]] {
        let count = max(1, min(parts, venues.count))
        let size = (venues.count + count - 1) / max(count, 1)
        return Parallel.map(0..<count) { part in
            let slice = venues[min(venues.count, part * size)..<min(venues.count, (part + 1) * size)]
            // About 600 bytes a venue with its activities: reserved once rather than regrown (and copied) as it fills.
            var json = JSONWriter(capacity: slice.count * 640 + 256, continuing: part > 0)
            if part == 0 { json.openCollection(links: linkTemplates) }
            for venue in slice { feature(venue, into: &json) }
            if part == count - 1 { json.closeCollection() }
            return json.bytes
        }
    }

    private static func feature(_ venue: MapVenue, into json: inout JSONWriter) {
        json.feature(id: venue.id, longitude: venue.longitude, latitude: venue.latitude) { json in
            json.field("name", venue.name)
            json.field("address", venue.address)
            json.field("area", venue.areaName)
            json.field("type_symbol", MapLegend.typeKey(venue))
            json.field("status_symbol", MapLegend.statusKey(venue))
            json.key("activities")
            json.array(venue.activities) { json, activity in
                json.object { json in
                    json.field("id", activity.id)
                    json.field("name", activity.name)
                    json.field("activity_type_id", activity.typeId)
                    json.field("activity_type", activity.typeName)
                    json.field("status", activity.status.rawValue)
                    json.field("start_date", activity.startDate)
                    json.field("end_date", activity.endDate)
                }
            }
        }
    }

    /// Each page's address with `{id}` for the record's id, once for the whole collection rather than in every feature:
    /// repeated, the addresses would be a large part of the document.
    static let linkTemplates = [("venue", MapData.venuePath(idPlaceholder)), ("activity", MapData.activityPath(idPlaceholder))]
    static let idPlaceholder = "{id}"

    static func homeCollection(_ homes: [MapHome]) -> [UInt8] {
        var json = JSONWriter()
        json.collection(homes) { json, home in
            json.feature(id: home.venueId, longitude: home.longitude, latitude: home.latitude) { json in
                json.field("name", home.venueName)
                json.key("residents")
                json.raw(String(home.residentCount))
                json.key("resident_names")
                json.array(home.residentNames) { json, name in json.string(name) }
            }
        }
        return json.bytes
    }

    /// Gzipped when the client accepts it: a large map is megabytes of JSON, and tablets fetch it over Wi-Fi.
    private static func geoJSON(_ bytes: [UInt8], for request: Request) -> Response {
        Gzip.negotiate(Response(status: .ok, headers: [("Content-Type", "application/geo+json")], body: bytes), for: request)
    }

    private static func geoJSON(_ body: [UInt8], gzip: Bool, at version: Int64, _ query: MapQuery) -> Response {
        var headers = validators(at: version, query) + [("Content-Type", "application/geo+json")]
        if gzip { headers.append(("Content-Encoding", "gzip")) }
        return Response(status: .ok, headers: headers, body: body)
    }

    /// Weak: the same version is one answer whatever its encoding. `no-cache` has the browser ask again each time,
    /// so an edit shows at once, and a 304 spares it the megabytes when nothing changed.
    private static func validators(at version: Int64, _ query: MapQuery) -> [(name: String, value: String)] {
        [("ETag", "W/" + entityTag(at: version, query)), ("Cache-Control", "private, no-cache"), ("Vary", "Accept-Encoding")]
    }

    /// The records' version, and whether the answer left out people's homes: a browser shared by two users, or a
    /// privacy setting changed since, must not have the other answer confirmed as current.
    private static func entityTag(at version: Int64, _ query: MapQuery) -> String {
        "\"records-\(version)\(query.leavesOutPeoplesHomes ? "-without-homes" : "")\""
    }

    private static func isFresh(_ request: Request, at version: Int64, _ query: MapQuery) -> Bool {
        guard let tags = request.header("if-none-match") else { return false }
        let current = entityTag(at: version, query)
        return tags.split(separator: ",").contains { tag in
            let trimmed = tag.trimmingCharacters(in: .whitespaces)
            return trimmed == "*" || trimmed == current || trimmed == "W/" + current
        }
    }

    private static func notModified(at version: Int64, _ query: MapQuery) -> Response {
        Response(status: .notModified, headers: validators(at: version, query))
    }
}
