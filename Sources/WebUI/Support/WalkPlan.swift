import Domain
import Foundation
import HTTPServer
import Storage
import Translations

/// The order an organizer walks a list in, and where distances are measured from: the browser's location (sent as
/// `lat`, `lon` by the page's script, in a secure context) or a chosen starting venue (`from`). Read from the query
/// string so the walk page, each stop page and the redirect after logging keep the same order.
struct WalkPlan {
    enum Sort: String, CaseIterable {
        case distance, address

        var label: Message { self == .distance ? Message("Nearest first (walking order)") : Message("By address") }
    }

    let sort: Sort
    let here: Coordinate?
    let startVenue: UUID?
    let origin: Coordinate?
    let originLabel: Message?
    let ordered: [StopLine]
    let errors: ValidationError
    /// `?sort=…&from=…` (or empty) to carry the plan to the next page.
    let query: String

    init(_ request: Request, sheet: VisitSheet, database: AppDatabase) throws {
        var errors = ValidationError()
        let asked = Sort(rawValue: request.query["sort"] ?? "")
        let here = Self.coordinate(request)
        let venue = (request.query["from"]).flatMap(UUID.strict)
        let start = try venue.map { try database.venue(id: $0) }
        // A venue chosen in the form wins over a location sent earlier (the form keeps carrying it).
        var origin = here
        var label = here.map { _ in Message("your location") }
        if let start {
            if let latitude = start.latitude, let longitude = start.longitude {
                (origin, label) = (Coordinate(latitude: latitude, longitude: longitude), Message.verbatim(start.name))
            } else {
                errors.add("from", "“\(start.name)” has no coordinates; choose another starting venue, or add them to the venue")
            }
        }
        // Nearest first when there is somewhere to measure from; a page opened with nothing chosen yet is by address,
        // and only someone who asked for distances without a start is told what is missing.
        let sort = asked ?? (origin == nil ? .address : .distance)
        if asked == .distance, origin == nil, errors.isEmpty, !sheet.stops.isEmpty {
            errors.add("from", Message("Choose a starting venue (or use your location) to sort by distance; until then the stops are by address").english)
        }
        let byAddress = sheet.stops.sorted { first, second in
            let order = first.address.localizedStandardCompare(second.address)
            return order == .orderedSame ? first.name.localizedStandardCompare(second.name) == .orderedAscending : order == .orderedAscending
        }
        if sort == .distance, let origin {
            ordered = WalkingOrder.nearestNeighbour(from: origin, byAddress) { $0.coordinate }
        } else {
            ordered = byAddress
        }
        (self.sort, self.here, startVenue, self.origin, originLabel, self.errors) = (sort, here, venue, origin, label, errors)
        query = Self.queryString(request)
    }

    func distance(to line: StopLine) -> Double? {
        guard let origin, let point = line.coordinate else { return nil }
        return origin.distance(to: point)
    }

    func walkPath(_ listId: UUID) -> String { Paths.walkVisitList(listId) + query }
    func stopPath(_ listId: UUID, _ stopId: UUID) -> String { Paths.visitStop(listId, stopId) + query }

    /// Venues to start from: the list's own venues with coordinates, then public buildings, by name.
    func startChoices(_ database: AppDatabase) throws -> [(value: String, label: String)] {
        try database.startingVenues(limit: 100).map { ($0.id.lowercasedString, $0.name) }
    }

    /// The plan's parameters as a query string, only the ones this page understands, re-encoded.
    static func queryString(_ request: Request) -> String {
        var kept = Parameters()
        for name in ["sort", "from", "lat", "lon"] {
            if let value = request.query[name], !value.isEmpty, value.utf8.count <= 40 { kept.append(name, value) }
        }
        return kept.isEmpty ? "" : "?" + QueryString.encode(kept)
    }

    private static func coordinate(_ request: Request) -> Coordinate? {
        guard let latitude = request.query["lat"].flatMap(Double.init), let longitude = request.query["lon"].flatMap(Double.init),
              (-90...90).contains(latitude), (-180...180).contains(longitude) else { return nil }
        return Coordinate(latitude: latitude, longitude: longitude)
    }
}
