import Domain
import Foundation
import PropertyBased
@testable import Storage
import Testing

@Suite struct VenueStoreTests {
    let actor = Actor.system("test")
    static let words = ["Hall", "Centre", "House", "Library", "Church", "School", "Garden", "Annex"]

    /// Two areas (a city inside a country) and venues named from `picks`.
    func community(_ picks: [Int]) throws -> (TestDatabase, city: GeographicArea, country: GeographicArea, venues: [Venue]) {
        let given = try TestDatabase()
        let country = try given.database.createArea(AreaInput(name: "Country", areaType: "COUNTRY", parentId: ""), by: actor)
        let city = try given.database.createArea(AreaInput(name: "City", areaType: "CITY", parentId: country.id.uuidString), by: actor)
        var venues: [Venue] = []
        for (index, pick) in picks.enumerated() {
            let area = pick % 2 == 0 ? city : country
            let type = [VenueType.publicBuilding.rawValue, VenueType.privateResidence.rawValue, ""][pick % 3]
            venues.append(try given.database.createVenue(VenueInput(
                name: "\(Self.words[pick % Self.words.count]) \(index)", address: "\(pick) \(Self.words[(pick + 3) % Self.words.count]) Street",
                areaId: area.id.uuidString, venueType: type), by: actor))
        }
        return (given, city, country, venues)
    }

    func all(_ database: AppDatabase, _ query: VenueQuery) throws -> [VenueListItem] {
        var query = query
        query.page = PageRequest(page: 1, perPage: 500)
        return try database.venues(query).items
    }

    // Feature: fieldbook, Property 1: Complete Data Retrieval
    // Feature: fieldbook, Property 23: Venue List Display
    @Test func property23_venueListDisplay() async throws {
        await propertyCheck(count: 15, input: Gen.int(in: 0...40).array(of: 0...60)) { picks in
            let (given, _, _, venues) = try community(picks)
            var seen: [UUID] = []
            var page = 1
            while true {
                let listed = try given.database.venues(VenueQuery(page: PageRequest(page: page)))
                #expect(listed.total == venues.count)
                #expect(listed.items.count <= 50)
                seen += listed.items.map(\.venue.id)
                #expect(listed.items.allSatisfy { !$0.areaName.isEmpty && !$0.venue.address.isEmpty })
                if page >= listed.pageCount { break }
                page += 1
            }
            #expect(Set(seen) == Set(venues.map(\.id)))
            #expect(seen.count == venues.count)
        }
    }

    // Feature: fieldbook, Property 3: Search Result Accuracy
    // Feature: fieldbook, Property 24: Venue Search Accuracy
    @Test func property24_venueSearchAccuracy() async throws {
        await propertyCheck(count: 20, input: Gen.int(in: 0...40).array(of: 1...30), Gen.element(of: ["hall", "HOUSE", "street", "1", "zz", "an"])) { picks, pickedText in
            let text = try #require(pickedText)
            let (given, _, _, venues) = try community(picks)
            let found = Set(try all(given.database, VenueQuery(text: text)).map(\.venue.id))
            let expected = Set(venues.filter { $0.name.lowercased().contains(text.lowercased()) || $0.address.lowercased().contains(text.lowercased()) }.map(\.id))
            #expect(found == expected)
        }
    }

    // Feature: fieldbook, Property 4: Filter Correctness
    @Test func property4_venueFilterCorrectness() async throws {
        await propertyCheck(count: 15, input: Gen.int(in: 0...40).array(of: 1...30)) { picks in
            let (given, city, country, venues) = try community(picks)
            #expect(Set(try all(given.database, VenueQuery(areaId: city.id)).map(\.venue.id)) == Set(venues.filter { $0.areaId == city.id }.map(\.id)))
            #expect(try all(given.database, VenueQuery(areaId: country.id)).count == venues.count, "an area's filter includes the areas inside it")
            for type in VenueType.allCases {
                #expect(Set(try all(given.database, VenueQuery(venueType: type)).map(\.venue.id)) == Set(venues.filter { $0.venueType == type }.map(\.id)))
            }
        }
    }

    // Feature: fieldbook, Property 5: Sort Order Preservation
    @Test func property5_venueSortOrderPreservation() async throws {
        await propertyCheck(count: 15, input: Gen.int(in: 0...40).array(of: 2...30)) { picks in
            let (given, _, _, _) = try community(picks)
            let names = try all(given.database, VenueQuery(sort: .name)).map { $0.venue.name.lowercased() }
            #expect(names == names.sorted())
            let areas = try all(given.database, VenueQuery(sort: .area)).map { $0.areaName.lowercased() }
            #expect(areas == areas.sorted())
        }
    }

    // Feature: fieldbook, Property 25: Venue Required Field Validation
    @Test func property25_venueRequiredFieldValidation() async {
        await propertyCheck(count: 100, input: Gen.bool, Gen.bool, Gen.bool) { hasName, hasAddress, hasArea in
            let input = VenueInput(name: hasName ? "Hall" : "", address: hasAddress ? "1 Road" : " ", areaId: hasArea ? UUID().uuidString : "")
            do {
                _ = try input.validated()
                #expect(hasName && hasAddress && hasArea)
            } catch let error as ValidationError {
                #expect((error.message(for: "name") != nil) == !hasName)
                #expect((error.message(for: "address") != nil) == !hasAddress)
                #expect((error.message(for: "geographic_area_id") != nil) == !hasArea)
            } catch {
                Issue.record("unexpected \(error)")
            }
        }
    }

    // Feature: fieldbook, Property 26: Venue Optional Field Acceptance
    @Test func property26_venueOptionalFieldAcceptance() async {
        await propertyCheck(count: 200, input: Gen.double(in: -200...200), Gen.double(in: -200...200), Gen.bool) { latitude, longitude, given in
            let input = VenueInput(name: "Hall", address: "1 Road", areaId: UUID().uuidString,
                                   latitude: given ? "\(latitude)" : "", longitude: given ? "\(longitude)" : "")
            let valid = try? input.validated()
            let inRange = (-90...90).contains(latitude) && (-180...180).contains(longitude)
            #expect((valid != nil) == (!given || inRange))
            if let valid, given { #expect(valid.latitude == latitude && valid.longitude == longitude) }
        }
        #expect(throws: ValidationError.self) { try VenueInput(name: "H", address: "A", areaId: UUID().uuidString, latitude: "1").validated() }
    }

    // Feature: fieldbook, Property 27: Venue Deletion Prevention
    @Test func property27_venueDeletionPrevention() async throws {
        await propertyCheck(count: 20, input: Gen.int(in: 0...2), Gen.int(in: 0...2)) { residents, activities in
            let (given, _, _, venues) = try community([0])
            let venue = venues[0]
            let type = try #require(try given.database.categories(.activityType).first)
            for index in 0..<residents { try given.insertParticipant(named: "Person\(index)", homeVenue: venue.id) }
            for index in 0..<activities { try given.insertActivity(named: "Activity \(index)", typeId: type.id, venue: venue.id) }
            do {
                try given.database.deleteVenue(id: venue.id, by: actor)
                #expect(residents + activities == 0)
            } catch DomainError.stillReferenced(let message, _) {
                #expect(residents + activities > 0)
                #expect(message.contains("cannot be deleted"))
                #expect(try given.database.venue(id: venue.id).name == venue.name)
            }
        }
    }

    // Feature: fieldbook, Property 28: Venue Detail View Completeness
    @Test func property28_venueDetailViewCompleteness() throws {
        let (given, _, _, venues) = try community([0, 1])
        let type = try #require(try given.database.categories(.activityType).first)
        try given.insertParticipant(named: "Ann", homeVenue: venues[0].id)
        try given.insertParticipant(named: "Bob", homeVenue: venues[1].id)
        try given.insertActivity(named: "Choir", typeId: type.id, venue: venues[0].id)
        let occupancy = try given.database.venueOccupancy(id: venues[0].id)
        #expect(occupancy.activities.map(\.name) == ["Choir"])
        #expect(occupancy.participants.map(\.name) == ["Ann"])
        #expect(occupancy.activityTotal == 1 && occupancy.participantTotal == 1)
    }

    @Test func searchTreatsWildcardsLiterally() throws {
        let (given, city, _, _) = try community([])
        try given.database.createVenue(VenueInput(name: "100% Hall", address: "a_b Road", areaId: city.id.uuidString), by: actor)
        try given.database.createVenue(VenueInput(name: "1000 Hall", address: "abb Road", areaId: city.id.uuidString), by: actor)
        #expect(try all(given.database, VenueQuery(text: "100%")).map(\.venue.name) == ["100% Hall"])
        #expect(try all(given.database, VenueQuery(text: "a_b")).map(\.venue.name) == ["100% Hall"])
    }
}
