import Domain
import Foundation
import GRDB
@testable import Storage
import Testing

/// References created on request (issue 41): rows naming records that are not here are counted per name, and the
/// import creates them, through their kinds' writers in its one transaction, only when the person chose so.
@Suite struct ImportCreatedReferencesTests {
    let actor = Actor.system("test")

    static let participants = """
        Name,Email,Home venue,Home venue address,Home venue area
        Ada,ada@example.org,Hall,1 Road,World / Kenya / Nairobi
        Bea,bea@example.org,hall,1 road,world/kenya/nairobi
        Cy,cy@example.org,Barn,2 Lane,World / Kenya
        Di,di@example.org,Shed,,World
        """

    func imported(_ given: TestDatabase, _ text: String, _ target: ImportTarget) throws -> ImportJob {
        let path = given.directory.appendingPathComponent(UUID().uuidString + ".csv").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return try given.database.createImport(fromFile: path, named: "\(target.rawValue).csv", holding: target, by: UUID())
    }

    func run(_ given: TestDatabase, _ job: ImportJob) throws -> ImportJob {
        try given.database.queueImport(job.id)
        #expect(ImportRunner(database: given.database, logger: .init(label: "test")).runOnce() == 1)
        return try given.database.importJob(id: job.id)
    }

    func problems(_ given: TestDatabase, _ job: ImportJob) throws -> [[String]] {
        try given.database.importRows(of: job.id, .all, page: PageRequest(page: 1, perPage: 50)).items.map { $0.errors.map(\.message) }
    }

    func count(_ given: TestDatabase, _ table: String) throws -> Int {
        try given.database.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM \(table)") ?? 0 }
    }

    @Test func missingHomeVenuesAreCountedAndCreatedOnlyOnRequest() throws {
        let given = try TestDatabase()
        let job = try imported(given, Self.participants, .participants)
        #expect(job.mapping.fields == [.name, .email, .homeVenue, .homeVenueAddress, .homeVenueArea])
        #expect(job.missing == [
            MissingReferences(field: "home_venue", names: ["Hall", "Barn", "Shed"], rows: 4),
            MissingReferences(field: "home_venue_area", names: ["World", "World / Kenya", "World / Kenya / Nairobi"], rows: 4),
        ])
        #expect(try problems(given, job).allSatisfy { !$0.isEmpty })

        // Not chosen: nothing is created, every row is skipped.
        let untouched = try run(given, job)
        #expect((untouched.state, untouched.created, untouched.skipped) == (.done, 0, 4))
        #expect(try count(given, "venues") == 0 && count(given, "geographic_areas") == 0)

        let chosen = try imported(given, Self.participants, .participants)
        #expect(throws: ValidationError.self) { try given.database.setImportCreating(of: chosen.id, ImportCreating(fields: [.homeVenue, .homeVenueArea])) }
        try given.database.setImportCreating(of: chosen.id, ImportCreating(fields: [.homeVenue, .homeVenueArea], areaType: .city))
        #expect(try problems(given, chosen) == [[], [], [],
                                                 ["Give the address of “Shed”: the import creates the venue with it"]])
        let done = try run(given, chosen)
        #expect(done.failure == nil)
        #expect((done.state, done.created, done.skipped) == (.done, 3, 1))
        let homes = try given.database.read { db in
            try Row.fetchAll(db, sql: """
                SELECT p.name AS person, v.name AS venue, v.address, a.name AS area, a.area_type FROM participants p
                JOIN venues v ON v.id = p.home_venue_id JOIN geographic_areas a ON a.id = v.geographic_area_id ORDER BY p.name
                """).map { [$0["person"], $0["venue"], $0["address"], $0["area"], $0["area_type"]] as [String] }
        }
        #expect(homes == [["Ada", "Hall", "1 Road", "Nairobi", "CITY"], ["Bea", "Hall", "1 Road", "Nairobi", "CITY"],
                          ["Cy", "Barn", "2 Lane", "Kenya", "CITY"]])
        let tree = try given.database.read { try AreaTree($0) }
        #expect(tree.named.resolve("World / Kenya / Nairobi").problem == nil)
        #expect(try count(given, "geographic_areas") == 3 && count(given, "venues") == 2)
    }

    @Test func createdRecordsSyncLikeAnyWrite() throws {
        let hub = try TestDatabase(linked: false), node = try TestDatabase(), elsewhere = try TestDatabase()
        let job = try imported(node, Self.participants, .participants)
        try node.database.setImportCreating(of: job.id, ImportCreating(fields: [.homeVenue, .homeVenueArea], areaType: .city))
        #expect(try run(node, job).created == 3)
        let recorded = try node.database.read { db in
            try Dictionary(uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT entity, count(*) AS n FROM outbox WHERE operation = 'create' GROUP BY entity")
                .map { ($0["entity"] as String, $0["n"] as Int) })
        }
        #expect(recorded["geographic_area"] == 3 && recorded["venue"] == 2 && recorded["participant"] == 3)
        try SyncExchange.sync(node.database, with: hub.database)
        try SyncExchange.sync(elsewhere.database, with: hub.database)
        #expect(try count(elsewhere, "venues") == 2 && count(elsewhere, "geographic_areas") == 3 && count(elsewhere, "participants") == 3)
    }

    @Test func anAreaGoneSinceTheReviewIsNotCreatedUnasked() throws {
        let given = try TestDatabase()
        let kenya = try given.database.createArea(AreaInput(name: "Kenya", areaType: "COUNTRY", parentId: ""), by: actor)
        let job = try imported(given, "Name,Email,Home venue,Home venue address,Home venue area\nAda,ada@example.org,Hall,1 Road,Kenya\n", .participants)
        try given.database.setImportCreating(of: job.id, ImportCreating(fields: [.homeVenue], areaType: .country))
        #expect(try problems(given, job) == [[]])
        try given.database.deleteArea(id: kenya.id, by: actor)
        let done = try run(given, job)
        #expect(done.state == .failed)
        #expect(done.failure?.contains("No area is named “Kenya”") == true)
        #expect(try count(given, "geographic_areas") == 0 && count(given, "venues") == 0)
    }

    @Test func ambiguousNamesAreNeverGuessed() throws {
        let given = try TestDatabase()
        let area = try given.database.createArea(AreaInput(name: "City", areaType: "CITY", parentId: ""), by: actor)
        _ = try given.database.createVenue(VenueInput(name: "Hall", address: "1 Road", areaId: area.id.uuidString), by: actor)
        _ = try given.database.createVenue(VenueInput(name: "Hall", address: "9 Lane", areaId: area.id.uuidString), by: actor)
        let job = try imported(given, "Name,Email,Home venue\nAda,ada@example.org,Hall\n", .participants)
        try given.database.setImportCreating(of: job.id, ImportCreating(fields: [.homeVenue], areaType: nil))
        #expect(try problems(given, job) == [["“Hall” matches 2 venues: give its address"]])
        #expect(try given.database.importJob(id: job.id).missing.isEmpty)
    }

    @Test func everyMissingPartOfAnAreaPathIsCountedAsItIsCreated() throws {
        let given = try TestDatabase()
        _ = try given.database.createArea(AreaInput(name: "World", areaType: "CONTINENT", parentId: ""), by: actor)
        let venues = try imported(given, "Name,Address,Area\nHall,1 Road,World / Kenya / Nairobi\nBarn,2 Lane,World / Kenya / Mombasa\n", .venues)
        #expect(venues.missing == [MissingReferences(field: "area", names: ["World / Kenya", "World / Kenya / Nairobi", "World / Kenya / Mombasa"], rows: 2)])
        try given.database.setImportCreating(of: venues.id, ImportCreating(fields: [.area], areaType: .city))
        #expect(try run(given, venues).created == 2)
        #expect(try count(given, "geographic_areas") == 1 + venues.missing[0].names.count)
    }

    @Test func aPathEndingInASlashNamesTheAreaTheImportCreates() throws {
        let given = try TestDatabase()
        _ = try given.database.createArea(AreaInput(name: "World", areaType: "CONTINENT", parentId: ""), by: actor)
        let venues = try imported(given, "Name,Address,Area\nHall,1 Road,World / Kenya /\n", .venues)
        #expect(venues.missing == [MissingReferences(field: "area", names: ["World / Kenya /"], rows: 1)])
        try given.database.setImportCreating(of: venues.id, ImportCreating(fields: [.area], areaType: .country))
        #expect(try problems(given, venues) == [[]])
        let done = try run(given, venues)
        #expect(done.failure == nil)
        #expect((done.state, done.created) == (.done, 1))
        let area = try given.database.read { try String.fetchOne($0, sql: "SELECT a.name FROM venues v JOIN geographic_areas a ON a.id = v.geographic_area_id") }
        #expect(area == "Kenya")
    }

    @Test func missingAreasTypesAndRolesAreCreatedOnRequest() throws {
        let given = try TestDatabase()
        let venues = try imported(given, "Name,Address,Area\nHall,1 Road,World / Kenya\nBarn,2 Lane,World\n", .venues)
        #expect(venues.missing == [MissingReferences(field: "area", names: ["World", "World / Kenya"], rows: 2)])
        try given.database.setImportCreating(of: venues.id, ImportCreating(fields: [.area], areaType: .country))
        #expect(try run(given, venues).created == 2)
        #expect(try count(given, "geographic_areas") == 2)

        let activities = try imported(given, "Name,Type,Start date,Status,Venues\nChoir,Singing,2026-01-05,Planned,Hall\n", .activities)
        #expect(activities.missing == [MissingReferences(field: "activity_type", names: ["Singing"], rows: 1)])
        try given.database.setImportCreating(of: activities.id, ImportCreating(fields: [.activityType]))
        #expect(try run(given, activities).created == 1)
        #expect(try given.database.categories(.activityType).contains { $0.name == "Singing" })

        _ = try given.insertParticipant(named: "Ada", homeVenue: nil)
        let assignments = try imported(given, "Activity,Participant,Role\nChoir,Ada,Conductor\n", .assignments)
        try given.database.setImportCreating(of: assignments.id, ImportCreating(fields: [.role]))
        #expect(try run(given, assignments).created == 1)
        #expect(try given.database.categories(.participantRole).contains { $0.name == "Conductor" })
    }
}
