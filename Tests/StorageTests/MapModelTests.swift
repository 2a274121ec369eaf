import Domain
import Foundation
import GRDB
import PropertyBased
import Testing
@testable import Storage

/// The map model is brought up to date from the change log, row by row: after any writes, every filter set must give
/// the venues a database opened afresh (whose model is read whole) gives, in the same order with the same activities.
@Suite struct MapModelTests {
    let actor = Actor.system("test")

    @Test func theMapAfterWritesEqualsOneReadAfresh() async throws {
        await propertyCheck(count: 8, input: Gen.int(in: 0...1_000_000)) { seed in
            let given = try TestDatabase()
            let database = given.database
            _ = try database.importDemoCommunity(size: DemoCommunity.Size(venues: 12, participants: 10, activities: 10), seed: UInt64(seed))
            let area = try #require(try database.read { try String.fetchOne($0, sql: "SELECT id FROM geographic_areas WHERE parent_id IS NULL LIMIT 1") })
            let type = try #require(try database.read { try String.fetchOne($0, sql: "SELECT activity_type_id FROM activities LIMIT 1") })
            let queries = [MapQuery(), MapQuery(status: .active), MapQuery(typeId: UUID(uuidString: type)),
                           MapQuery(from: CalendarDate("2025-01-01"), to: CalendarDate("2025-12-31")), MapQuery(areaId: UUID(uuidString: area))]
            let custom = try database.createCategory(.activityType, CategoryInput(name: "Walk"), by: actor)
            let venue = try #require(try database.read { try String.fetchOne($0, sql: "SELECT id FROM venues WHERE latitude IS NOT NULL LIMIT 1") })
            _ = try database.createActivity(ActivityInput(name: "Evening walk", typeId: custom.id.uuidString, startDate: "2025-05-01",
                                                          duration: "ongoing", status: "ACTIVE", venueIds: [venue]), by: actor)
            let areaOfPinless = try #require(try database.read { try String.fetchOne($0, sql: "SELECT id FROM geographic_areas LIMIT 1") })
            let pinless = try database.createVenue(VenueInput(name: "Hall without a pin", address: "3 Lane", areaId: areaOfPinless), by: actor)
            _ = try database.createActivity(ActivityInput(name: "Study circle", typeId: custom.id.uuidString, startDate: "2024-02-01",
                                                          duration: "ongoing", status: "ACTIVE", venueIds: [pinless.id.uuidString]), by: actor)
            for query in queries { _ = try database.mapVenues(query) }

            // Given coordinates later, a venue shows the activities it already held. (Before `write`, which may delete
            // this venue once its activity is gone.)
            _ = try database.updateVenue(id: pinless.id, VenueInput(name: pinless.name, address: pinless.address, areaId: areaOfPinless,
                                                                    latitude: "5", longitude: "6"), expectedVersion: nil, by: actor)
            try write(database, seed: seed, renaming: custom)

            let fresh = try AppDatabase(path: database.path, passwordCost: .test)
            for query in queries {
                #expect(try database.mapVenues(query) == fresh.mapVenues(query), "\(query)")
            }
        }
    }

    /// Venues come in the order of SQLite's `ORDER BY name COLLATE NOCASE, id`, which the model compares itself: only
    /// ASCII letters folded, a name before the longer names it begins, equal names by id. Also after a rename, which
    /// moves just that venue.
    @Test func venuesComeInTheDatabasesNameOrder() throws {
        let given = try TestDatabase()
        let database = given.database
        let area = try database.createArea(AreaInput(name: "Town", areaType: "CITY", parentId: ""), by: actor)
        var created: [Venue] = []
        for name in ["bakery", "Bakery", "Bak", "ÉCOLE", "école", "Ecole", "zoo", "Zoo hall", "_under", "2nd hall", "bakery", "Ω", "a"] {
            created.append(try database.createVenue(VenueInput(name: name, address: "1 Road", areaId: area.id.uuidString,
                                                               latitude: "1", longitude: "2"), by: actor))
        }
        let inSQLOrder = { try database.read { try String.fetchAll($0, sql: "SELECT id FROM venues ORDER BY name COLLATE NOCASE, id") } }
        #expect(try database.mapVenues(MapQuery()).map(\.id) == inSQLOrder())
        _ = try database.updateVenue(id: created[0].id, VenueInput(name: "BAKERY", address: "1 Road", areaId: area.id.uuidString,
                                                                   latitude: "1", longitude: "2"), expectedVersion: nil, by: actor)
        _ = try database.updateVenue(id: created[6].id, VenueInput(name: "Aa", address: "1 Road", areaId: area.id.uuidString,
                                                                   latitude: "1", longitude: "2"), expectedVersion: nil, by: actor)
        #expect(try database.mapVenues(MapQuery()).map(\.id) == inSQLOrder())
    }

    /// Renames, moves, removes coordinates, changes activities' dates, status and venues, deletes, each through the
    /// one write path.
    private func write(_ database: AppDatabase, seed: Int, renaming type: Domain.Category) throws {
        func ids(_ sql: String) throws -> [UUID] {
            try database.read { try String.fetchAll($0, sql: sql) }.compactMap(UUID.init(uuidString:))
        }
        let venues = try ids("SELECT id FROM venues ORDER BY id")
        let areas = try ids("SELECT id FROM geographic_areas ORDER BY id")
        let renamed = try database.venue(id: venues[seed % venues.count])
        _ = try database.updateVenue(id: renamed.id, VenueInput(name: "aaa \(renamed.name)", address: renamed.address,
                                                                areaId: areas[seed % areas.count].uuidString,
                                                                latitude: "10.5", longitude: "20.5"), expectedVersion: nil, by: actor)
        let unplaced = try database.venue(id: venues[(seed / 3 + 1) % venues.count])
        _ = try database.updateVenue(id: unplaced.id, VenueInput(name: unplaced.name, address: unplaced.address,
                                                                 areaId: unplaced.areaId.uuidString), expectedVersion: nil, by: actor)
        if let activityId = try ids("SELECT id FROM activities ORDER BY id").dropFirst(seed % 4).first {
            let activity = try database.activity(id: activityId)
            _ = try database.updateActivity(id: activityId, ActivityInput(
                name: "Zz \(activity.name)", typeId: activity.typeId.uuidString, startDate: "2025-03-01", duration: "finite",
                endDate: "2025-04-01", status: ActivityStatus.allCases[seed % 4].rawValue,
                venueIds: [venues[(seed / 5) % venues.count].uuidString]), expectedVersion: nil, by: actor)
        }
        // Dates and name only, at the same venues: the activity's place in its venues' lists changes, their periods do not.
        if let redated = try ids("SELECT activity_id FROM activity_venue_history WHERE effective_to IS NULL GROUP BY activity_id ORDER BY activity_id").dropFirst(seed % 3).first {
            let activity = try database.activity(id: redated)
            let held = try database.read {
                try String.fetchAll($0, sql: "SELECT venue_id FROM activity_venue_history WHERE activity_id = ? AND effective_to IS NULL",
                                    arguments: [redated.uuidString.lowercased()])
            }
            _ = try database.updateActivity(id: redated, ActivityInput(
                name: "Aa \(activity.name)", typeId: activity.typeId.uuidString, startDate: "2020-01-01", duration: "ongoing",
                status: activity.status.rawValue, venueIds: held), expectedVersion: nil, by: actor)
        }
        if let deleted = try ids("SELECT id FROM activities ORDER BY id").last { try database.deleteActivity(id: deleted, by: actor) }
        let area = try database.read { try String.fetchOne($0, sql: "SELECT id FROM geographic_areas ORDER BY id LIMIT 1") }
        if let area = area.flatMap(UUID.init(uuidString:)) {
            let current = try database.area(id: area)
            _ = try database.updateArea(id: area, AreaInput(name: "Renamed \(current.name)", areaType: current.areaType.rawValue,
                                                            parentId: current.parentId?.uuidString ?? ""), expectedVersion: nil, by: actor)
        }
        _ = try database.updateCategory(.activityType, id: type.id, CategoryInput(name: "Renamed \(type.name)"), expectedVersion: nil, by: actor)
        let added = try database.createVenue(VenueInput(name: "New venue", address: "1 New Road", areaId: areas[0].uuidString,
                                                        latitude: "1", longitude: "2"), by: actor)
        _ = try database.createActivity(ActivityInput(name: "New activity", typeId: try database.categories(.activityType)[0].id.uuidString,
                                                      startDate: "2024-06-01", duration: "ongoing", status: "ACTIVE",
                                                      venueIds: [added.id.uuidString]), by: actor)
        try? database.deleteVenue(id: venues[(seed / 11) % venues.count], by: actor)
    }
}
