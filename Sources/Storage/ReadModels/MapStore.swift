import Domain
import Foundation
import GRDB
import Records

/// What the map shows (Requirement 6C.5, Property 36): venues with coordinates, narrowed by area, and by activity
/// type, status and a date range. Every field comes from the query string, so a map address can be shared and reloaded.
public struct MapQuery: Sendable, Hashable {
    public var typeId: UUID?
    public var status: ActivityStatus?
    /// Activities whose dates overlap [from, to]; either end may be open.
    public var from: CalendarDate?
    public var to: CalendarDate?
    /// Venues in this area or any area inside it.
    public var areaId: UUID?
    /// Only the venues a visit list's stops are at (a list's walk shown on the map).
    public var visitListId: UUID?
    /// Leaves out the list's stops at participants' homes, for a viewer who may not see where people live (the privacy
    /// setting): the list itself names no one and nowhere for them (`StopLine`). Set through `seen(homes:)`.
    public private(set) var leavesOutPeoplesHomes = false

    public init(typeId: UUID? = nil, status: ActivityStatus? = nil, from: CalendarDate? = nil, to: CalendarDate? = nil,
                areaId: UUID? = nil, visitListId: UUID? = nil) {
        (self.typeId, self.status, self.from, self.to, self.areaId) = (typeId, status, from, to, areaId)
        self.visitListId = visitListId
    }

    /// The query as a viewer sees it who may (`homes`) or may not see where participants live. Only a visit list's
    /// answer depends on it, so every other query stays one answer, kept once, for everyone.
    public func seen(homes: Bool) -> MapQuery {
        var query = self
        query.leavesOutPeoplesHomes = visitListId != nil && !homes
        return query
    }

    /// True when the map keeps only venues with a matching activity; without one, every venue with coordinates shows.
    public var filtersActivities: Bool { typeId != nil || status != nil || from != nil || to != nil }
}

/// An activity as a venue's popup lists it. Ids and dates are kept as stored (lower-case ids, ISO dates): they are
/// written into GeoJSON tens of thousands of times, and converting each would cost more than the query.
public struct MapActivity: Sendable, Equatable {
    public let id: String
    public let name: String
    public let typeId: String
    public let typeName: String
    public let status: ActivityStatus
    public let startDate: String
    public let endDate: String?
}

/// A venue as the map shows it: where it is and the activities currently held there that match the filters.
/// The id is kept as stored (lower-case text).
public struct MapVenue: Sendable, Equatable {
    public let id: String
    public let name: String
    public let address: String
    public let areaName: String
    public let latitude: Double
    public let longitude: Double
    public var activities: [MapActivity]
}

/// A venue where participants live, for the homes layer (6C.8): how many, and their names only when allowed.
public struct MapHome: Sendable, Equatable {
    /// As stored (lower-case text).
    public let venueId: String
    public let venueName: String
    public let latitude: Double
    public let longitude: Double
    public let residentCount: Int
    /// Filled only when the caller asked for names (the privacy setting allows them).
    public var residentNames: [String]
}

/// The venues of a map query and the records' version (`recordsVersion`) they were read at.
public struct MapVenueSet: Sendable {
    public let version: Int64
    public let venues: [MapVenue]
}

/// A box of coordinates (south-west, north-east) to centre the map on.
public struct MapBounds: Sendable, Equatable {
    public let south: Double, west: Double, north: Double, east: Double
}

extension AppDatabase {
    /// The venues the map shows for `query`, by name; each with its matching current activities, by start date.
    public func mapVenues(_ query: MapQuery) throws -> [MapVenue] {
        try mapVenueSet(query).venues
    }

    /// The venues for `query` and the records' version they were read at, from the in-memory map model.
    public func mapVenueSet(_ query: MapQuery) throws -> MapVenueSet {
        try read { db in
            MapVenueSet(version: try Self.recordsVersion(db), venues: try mapModel.venues(db, query))
        }
    }

    /// Venues with coordinates where participants live, in the area (and the areas inside it) when one is given.
    public func mapHomes(areaId: UUID?, withNames: Bool) throws -> [MapHome] {
        try read { db in
            var filter = ListQuery("venues v")
            filter.add("v.latitude IS NOT NULL AND v.longitude IS NOT NULL")
            filter.within(areaId, areaColumn: "v.geographic_area_id")
            let rows = try Row.fetchAll(db, sql: """
                SELECT v.id, v.name, v.latitude, v.longitude, COUNT(*) AS residents, group_concat(p.name, char(31)) AS names
                FROM venues v JOIN participants p ON p.\(Participant.homeVenueColumn) = v.id \(filter.whereClause)
                GROUP BY v.id ORDER BY v.name COLLATE NOCASE, v.id
                """, arguments: filter.arguments)
            return rows.map { row in
                let names = withNames ? ((row["names"] as String?) ?? "").split(separator: "\u{1F}").map(String.init).sorted() : []
                return MapHome(venueId: row["id"], venueName: row["name"], latitude: row["latitude"], longitude: row["longitude"],
                               residentCount: row["residents"], residentNames: names)
            }
        }
    }

    /// Whether any venue has coordinates (the map's empty page says how to add them when none has).
    public func anyVenueHasCoordinates() throws -> Bool {
        try read { try Bool.fetchOne($0, sql: "SELECT EXISTS (SELECT 1 FROM venues WHERE latitude IS NOT NULL)") ?? false }
    }

    /// The box around the venues with coordinates in an area and the areas inside it; nil when none has coordinates.
    public func mapBounds(ofArea areaId: UUID) throws -> MapBounds? {
        try read { db in
            let row = try Row.fetchOne(db, sql: """
                SELECT MIN(latitude) AS s, MIN(longitude) AS w, MAX(latitude) AS n, MAX(longitude) AS e FROM venues
                WHERE latitude IS NOT NULL AND longitude IS NOT NULL AND geographic_area_id IN (\(Self.areaTreeSQL))
                """, arguments: [areaId.databaseText])
            guard let row, let south = row["s"] as Double?, let west = row["w"] as Double?,
                  let north = row["n"] as Double?, let east = row["e"] as Double? else { return nil }
            return MapBounds(south: south, west: west, north: north, east: east)
        }
    }
}
