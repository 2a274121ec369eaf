import Domain
import Foundation
import HTTPServer
import Storage
import Surface

/// The map's data as GeoJSON (RFC 7946): venues with their matching activities, and the participant-homes layer.
/// Written by hand rather than with JSONEncoder: 20,000 venues must answer well inside 150 ms.
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
            .of("url", .text, required: true, "The activity's page"),
        ]
        let venueProperties: [Field] = [
            .of("name", .text, required: true), .of("address", .text, required: true), .of("area", .text, required: true),
            .of("url", .text, required: true, "The venue's page"),
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
            "MapVenueCollection": collection(of: "MapVenueFeature"),
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

    @Sendable static func venues(_ context: APIContext) throws -> Response {
        let data = try MapData.load(context.database, try MapQuery(reading: context))
        return geoJSON(venueCollection(data.venues), for: context.request)
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
        // About 700 bytes a venue with its activities: reserved once rather than regrown (and copied) as it fills.
        var json = JSONWriter(capacity: venues.count * 768)
        json.collection(venues) { json, venue in
            json.feature(id: venue.id, longitude: venue.longitude, latitude: venue.latitude) { json in
                json.field("name", venue.name)
                json.field("address", venue.address)
                json.field("area", venue.areaName)
                json.field("url", MapData.venuePath(venue.id))
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
                        json.field("url", MapData.activityPath(activity.id))
                    }
                }
            }
        }
        return json.bytes
    }

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

    /// Gzipped when the client accepts it: 20,000 venues are megabytes of JSON, and tablets fetch them over Wi-Fi.
    private static func geoJSON(_ bytes: [UInt8], for request: Request) -> Response {
        Gzip.negotiate(Response(status: .ok, headers: [("Content-Type", "application/geo+json")], body: bytes), for: request)
    }
}

/// Appends JSON to a byte buffer: objects and arrays are written by closures, so nesting follows the code's nesting.
struct JSONWriter {
    private(set) var bytes: [UInt8] = []
    private var needsComma = false

    init(capacity: Int = 1 << 16) { bytes.reserveCapacity(capacity) }

    mutating func raw(_ text: String) {
        bytes.append(contentsOf: text.utf8)
        needsComma = true
    }

    mutating func key(_ name: String) {
        string(name)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    mutating func field(_ name: String, _ value: String?) {
        key(name)
        if let value { string(value) } else { raw("null") }
    }

    mutating func object(_ body: (inout JSONWriter) -> Void) {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
        body(&self)
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    mutating func array<Element>(_ elements: [Element], _ body: (inout JSONWriter, Element) -> Void) {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        bytes.append(UInt8(ascii: "["))
        needsComma = false
        for element in elements { body(&self, element) }
        bytes.append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// A GeoJSON FeatureCollection of `elements`.
    mutating func collection<Element>(_ elements: [Element], _ feature: (inout JSONWriter, Element) -> Void) {
        object { json in
            json.field("type", "FeatureCollection")
            json.key("features")
            json.array(elements, feature)
        }
    }

    /// A Point feature whose `properties` object `body` fills.
    mutating func feature(id: String, longitude: Double, latitude: Double, _ body: (inout JSONWriter) -> Void) {
        object { json in
            json.field("type", "Feature")
            json.field("id", id)
            json.key("geometry")
            json.object { json in
                json.field("type", "Point")
                json.key("coordinates")
                json.raw("[\(longitude),\(latitude)]")
            }
            json.key("properties")
            json.object(body)
        }
    }

    /// A JSON string: quotes, backslashes and control characters escaped; everything else as UTF-8.
    mutating func string(_ text: String) {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        bytes.append(UInt8(ascii: "\""))
        // Most texts need no escaping: copied whole, not byte by byte.
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            bytes.append(contentsOf: text.utf8)
            bytes.append(UInt8(ascii: "\""))
            needsComma = true
            return
        }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0..<0x20: bytes.append(contentsOf: Array(String(format: "\\u%04x", byte).utf8))
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }
}
