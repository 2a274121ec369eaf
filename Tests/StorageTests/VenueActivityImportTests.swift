import Domain
import Foundation
@testable import Storage
import Testing

/// Importing venues and activities (issue 14): references named by name, choices written as their labels, matches by
/// each kind's own key (a venue's name and address, an activity's name and start date), and the kind's writer.
@Suite struct VenueActivityImportTests {
    let actor = Actor.system("test")

    func imported(_ given: TestDatabase, _ text: String, _ target: ImportTarget) throws -> ImportJob {
        let path = given.directory.appendingPathComponent(UUID().uuidString + ".csv").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return try given.database.createImport(fromFile: path, named: "file.csv", holding: target, by: UUID())
    }

    func rows(_ given: TestDatabase, _ job: ImportJob) throws -> [ImportRow] {
        try given.database.importRows(of: job.id, .all, page: PageRequest(page: 1, perPage: 500)).items
    }

    func run(_ given: TestDatabase, _ job: ImportJob) throws -> ImportJob {
        try given.database.queueImport(job.id)
        #expect(ImportRunner(database: given.database, logger: .init(label: "test")).runOnce() == 1)
        return try given.database.importJob(id: job.id)
    }

    @Test func venuesFindTheirAreaByNameAndMatchByNameAndAddress() throws {
        let given = try TestDatabase()
        let area = try given.database.createArea(AreaInput(name: "Île de la Cité", areaType: "NEIGHBOURHOOD", parentId: ""), by: actor)
        let hall = try given.database.createVenue(VenueInput(name: "Town Hall", address: "1 Rue de Lutèce", areaId: area.id.uuidString), by: actor)
        let job = try imported(given, """
            Venue name;Address;Neighbourhood;Lat;Lon;Type
            TOWN HALL;1 rue de Lutece;ile de la cite;48.8556;2.3469;Public building
            Town Hall;9 Quai aux Fleurs;Île de la Cité;;;
            Café Flore;172 Boulevard Saint-Germain;Saint-Germain;;;
            Library;2 Rue Arcole;Île de la Cité;95;;Castle
            """, .venues)
        #expect(job.mapping.fields == [.name, .address, .area, .latitude, .longitude, .venueType])
        let found = try rows(given, job)
        #expect(found.map(\.matchReason) == [.sameKey, .sameName, nil, nil])
        #expect(found.map(\.decision) == [.merge, .create, .skip, .skip])
        #expect(found[2].errors.first?.message.contains("No area is named “Saint-Germain”") == true)
        #expect(Set(found[3].errors.map(\.field)) == ["latitude", "venue_type"])
        let done = try run(given, job)
        #expect((done.state, done.created, done.merged, done.skipped) == (.done, 1, 1, 2))
        let merged = try given.database.venue(id: hall.id)
        #expect(merged.name == "TOWN HALL" && merged.latitude == 48.8556 && merged.venueType == .publicBuilding)
    }

    @Test func activitiesFindTypesAndVenuesByNameAndMatchByNameAndStart() throws {
        let given = try TestDatabase()
        let area = try given.database.createArea(AreaInput(name: "City", areaType: "CITY", parentId: ""), by: actor)
        let hall = try given.database.createVenue(VenueInput(name: "Hall", address: "1 Road", areaId: area.id.uuidString), by: actor)
        let barn = try given.database.createVenue(VenueInput(name: "Barn", address: "9 Lane", areaId: area.id.uuidString), by: actor)
        let type = try given.database.categories(.activityType).first { $0.name == "Study Circle" }!
        let choir = try given.database.createActivity(ActivityInput(name: "Choir", typeId: type.id.uuidString, startDate: "2025-01-06",
                                                                    duration: "ongoing", status: "ACTIVE", venueIds: [hall.id.uuidString]), by: actor)
        let job = try imported(given, """
            Title,Type,Start,End,Status,Venues
            choir,study circle,2025-01-06,2025-06-30,Completed,Hall; Barn
            Choir,Study Circle,2026-01-05,,planned,
            Market,Fair,2025-05-01,,Active,
            Picnic,Social Event,2025-07-01,2025-06-01,Active,Meadow
            """, .activities)
        #expect(job.mapping.fields == [.name, .activityType, .startDate, .endDate, .status, .venues])
        let found = try rows(given, job)
        #expect(found.map(\.matchReason) == [.sameKey, .sameName, nil, nil])
        #expect(found[2].errors.first?.message.contains("No activity type is named “Fair”") == true)
        #expect(Set(found[3].errors.map(\.field)) == ["venues", "end_date"])
        let done = try run(given, job)
        #expect((done.state, done.created, done.merged, done.skipped) == (.done, 1, 1, 2))
        let merged = try given.database.activity(id: choir.id)
        #expect(merged.endDate == CalendarDate("2025-06-30") && merged.status == .completed)
        #expect(Set(try given.database.venueHistory(ofActivity: choir.id).filter { $0.effectiveTo == nil }.map(\.venueId)).isSuperset(of: [hall.id, barn.id]))
    }

    @Test func aParticipantFileCannotChooseAVenuesColumns() throws {
        let problems = ImportMapping(fields: [.name, .address]).problems(headers: ["Name", "Address"], target: .participants)
        #expect(problems.message(for: "column-1") == "“Address” cannot hold the address: participants have none. Choose another field or leave the column out")
    }
}
