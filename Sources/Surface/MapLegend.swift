import Domain
import Foundation
import Storage

/// How a venue's marker looks (Property 35): a shape, a short text and a colour, so symbols differ by shape and text
/// as well as by colour, for people who cannot tell the colours apart.
public struct MapSymbol: Sendable, Equatable {
    /// What GeoJSON features and the page's markers name the symbol by.
    public let key: String
    /// One of `MapLegend.shapes`.
    public let shape: String
    /// One to three characters drawn on the marker.
    public let text: String
    public let label: String
    /// 0–7, a palette entry of the page's stylesheet.
    public let colour: Int
}

/// The symbols of the map, by activity type or by activity status: what the legend lists and markers use.
/// A venue whose activities differ gets the "several" symbol; a venue with none (or none matching) the "none" symbol.
public struct MapLegend: Sendable {
    public static let shapes = ["circle", "square", "triangle", "diamond", "pentagon", "star"]
    public static let several = MapSymbol(key: "several", shape: "hexagon", text: "+", label: "Several", colour: 6)
    public static let noActivities = MapSymbol(key: "none", shape: "ring", text: "–", label: "No activities", colour: 7)

    public let byType: [MapSymbol]
    public let byStatus: [MapSymbol]

    /// Symbols for each activity type (by name order, shapes and colours in turn) and each status.
    public init(activityTypes: [Domain.Category]) {
        var taken: Set<String> = []
        byType = activityTypes.enumerated().map { index, type in
            var text = Self.initials(type.name)
            if taken.contains(text) { text = String(text.prefix(1)) + String(index + 1) }
            taken.insert(text)
            return MapSymbol(key: type.id.uuidString.lowercased(), shape: Self.shapes[index % Self.shapes.count], text: text,
                             label: type.name, colour: index % 6)
        } + [Self.several, Self.noActivities]
        let statusShapes: [ActivityStatus: String] = [.planned: "triangle", .active: "circle", .completed: "square", .cancelled: "diamond"]
        byStatus = ActivityStatus.allCases.enumerated().map { index, status in
            MapSymbol(key: status.rawValue, shape: statusShapes[status] ?? "circle", text: String(status.label.prefix(1)),
                      label: status.label, colour: index)
        } + [Self.several, Self.noActivities]
    }

    /// The key of the venue's symbol by activity type.
    public static func typeKey(_ venue: MapVenue) -> String {
        key(venue.activities.map(\.typeId))
    }

    /// The key of the venue's symbol by activity status.
    public static func statusKey(_ venue: MapVenue) -> String {
        key(venue.activities.map(\.status.rawValue))
    }

    /// The one value all share, else "several" (or "none" for no values); no Set, as this runs for every venue.
    private static func key(_ values: [String]) -> String {
        guard let first = values.first else { return noActivities.key }
        return values.allSatisfy { $0 == first } ? first : several.key
    }

    /// Up to two capital letters: the first of the first two words ("Children's class" → "CC").
    static func initials(_ name: String) -> String {
        let words = name.split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "'" && $0 != "’" })
        let letters = words.count >= 2 ? words.prefix(2).compactMap(\.first) : Array(name.filter { $0.isLetter || $0.isNumber }.prefix(2))
        let text = String(letters).uppercased()
        return text.isEmpty ? "?" : text
    }
}

/// What the map shows and how its symbols are chosen: the one read model behind `/map` and its GeoJSON.
public struct MapData: Sendable {
    /// Which symbols the markers use: by activity type or by status (the user's choice, kept in the query string).
    public enum SymbolMode: String, Sendable, CaseIterable {
        case type, status
    }

    public let query: MapQuery
    public let venues: [MapVenue]
    public let legend: MapLegend
    /// The records' version the venues were read at (`AppDatabase.recordsVersion`).
    public let version: Int64

    public static func load(_ database: AppDatabase, _ query: MapQuery) throws -> MapData {
        let set = try database.mapVenueSet(query)
        return MapData(query: query, venues: set.venues, legend: MapLegend(activityTypes: try database.categories(.activityType)),
                       version: set.version)
    }

    /// A venue's page, and each activity's, for links from popups, the list and GeoJSON (ids as stored).
    public static func venuePath(_ id: String) -> String { venuePrefix + id }
    public static func activityPath(_ id: String) -> String { activityPrefix + id }
    private static let venuePrefix = RecordCollection.venues.path(under: RoutePattern("/")).pattern + "/"
    private static let activityPrefix = RecordCollection.activities.path(under: RoutePattern("/")).pattern + "/"
}
