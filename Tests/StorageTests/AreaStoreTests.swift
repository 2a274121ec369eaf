import Domain
import Foundation
import PropertyBased
@testable import Storage
import Testing

@Suite struct AreaStoreTests {
    let actor = Actor.system("test")

    func area(_ database: AppDatabase, _ name: String, _ type: AreaType = .city, parent: GeographicArea? = nil) throws -> GeographicArea {
        try database.createArea(AreaInput(name: name, areaType: type.rawValue, parentId: parent?.id.uuidString ?? ""), by: actor)
    }

    // Feature: fieldbook, Property 29: Geographic Area Hierarchical Display
    @Test func property29_geographicAreaHierarchicalDisplay() async throws {
        await propertyCheck(count: 25, input: Gen.int(in: 0...20).array(of: 1...25)) { parentPicks in
            let given = try TestDatabase()
            var created: [GeographicArea] = []
            for (index, pick) in parentPicks.enumerated() {
                let parent = created.isEmpty || pick == 0 ? nil : created[pick % created.count]
                created.append(try area(given.database, "Area \(index)", parent: parent))
            }
            let tree = try given.database.areaTree()
            #expect(tree.count == created.count)
            var seen: [UUID: Int] = [:]
            for entry in tree {
                if let parent = entry.area.parentId {
                    let parentDepth = try #require(seen[parent], "a child is listed before its parent")
                    #expect(entry.depth == parentDepth + 1)
                } else {
                    #expect(entry.depth == 0)
                }
                seen[entry.area.id] = entry.depth
            }
        }
    }

    // Feature: fieldbook, Property 30: Geographic Area Required Field Validation
    @Test func property30_geographicAreaRequiredFieldValidation() async {
        await propertyCheck(count: 100, input: Gen.bool, Gen.bool) { hasName, hasType in
            let input = AreaInput(name: hasName ? "Westside" : "  ", areaType: hasType ? "CITY" : "", parentId: "")
            let result = Result { try input.validated() }
            #expect(((try? result.get()) != nil) == (hasName && hasType))
            if case .failure(let error as ValidationError) = result {
                #expect((error.message(for: "name") != nil) == !hasName)
                #expect((error.message(for: "area_type") != nil) == !hasType)
            }
        }
    }

    // Feature: fieldbook, Property 31: Circular Relationship Prevention
    @Test func property31_circularRelationshipPrevention() async throws {
        await propertyCheck(count: 20, input: Gen.int(in: 2...8), Gen.int(in: 0...7), Gen.int(in: 0...7)) { depth, a, b in
            let given = try TestDatabase()
            var chain: [GeographicArea] = []
            for index in 0..<depth { chain.append(try area(given.database, "Level \(index)", parent: chain.last)) }
            let moved = chain[a % depth], newParent = chain[b % depth]
            let input = AreaInput(name: moved.name, areaType: moved.areaType.rawValue, parentId: newParent.id.uuidString)
            let wouldCycle = b % depth >= a % depth
            let outboxBefore = try given.outboxCount()
            do {
                try given.database.updateArea(id: moved.id, input, expectedVersion: nil, by: actor)
                #expect(!wouldCycle)
            } catch let error as ValidationError {
                #expect(wouldCycle)
                #expect(error.message(for: "parent_id") != nil)
                #expect(try given.outboxCount() == outboxBefore)
            }
            #expect(try given.database.areaTree().count == depth, "every area is still reachable from a top-level area")
        }
    }

    // Feature: fieldbook, Property 32: Geographic Area Deletion Prevention
    @Test func property32_geographicAreaDeletionPrevention() async throws {
        await propertyCheck(count: 20, input: Gen.int(in: 0...3), Gen.int(in: 0...3)) { children, venues in
            let given = try TestDatabase()
            let city = try area(given.database, "City")
            for index in 0..<children { _ = try area(given.database, "Quarter \(index)", .neighbourhood, parent: city) }
            for index in 0..<venues {
                try given.database.createVenue(VenueInput(name: "Hall \(index)", address: "\(index) Road", areaId: city.id.uuidString), by: actor)
            }
            do {
                try given.database.deleteArea(id: city.id, by: actor)
                #expect(children + venues == 0)
            } catch DomainError.stillReferenced(let message, let references) {
                #expect(children + venues > 0)
                #expect(references.count == children + venues)
                #expect(message.contains("cannot be deleted"))
                #expect(try given.database.area(id: city.id).name == "City")
            }
        }
    }

    @Test func statisticsIncludeDescendantAreas() throws {
        let given = try TestDatabase()
        let country = try area(given.database, "Country", .country)
        let city = try area(given.database, "City", parent: country)
        let elsewhere = try area(given.database, "Elsewhere")
        let hall = try given.database.createVenue(VenueInput(name: "Hall", address: "1 Road", areaId: city.id.uuidString), by: actor)
        let far = try given.database.createVenue(VenueInput(name: "Far", address: "2 Road", areaId: elsewhere.id.uuidString), by: actor)
        let type = try #require(try given.database.categories(.activityType).first)
        try given.insertActivity(named: "Choir", typeId: type.id, status: "ACTIVE", endDate: nil, venue: hall.id)
        try given.insertActivity(named: "Course", typeId: type.id, status: "COMPLETED", endDate: "2025-06-01", venue: hall.id)
        try given.insertActivity(named: "Other", typeId: type.id, status: "ACTIVE", endDate: nil, venue: far.id)
        try given.insertParticipant(named: "Ann", homeVenue: hall.id)
        let statistics = try given.database.areaStatistics(id: country.id)
        #expect(statistics == AreaStatistics(totalActivities: 2, totalParticipants: 1, activeActivities: 1, ongoingActivities: 1))
        #expect(try given.database.ancestors(of: city.id).map(\.name) == ["Country"])
    }

    @Test func eachAreaWriteRecordsOneChange() throws {
        let given = try TestDatabase()
        let city = try area(given.database, "City")
        try given.database.updateArea(id: city.id, AreaInput(name: "Town", areaType: "CITY", parentId: ""), expectedVersion: 1, by: actor)
        try given.database.deleteArea(id: city.id, by: actor)
        #expect(try given.database.outboxEntries().map(\.change.operation) == [.create, .update, .delete])
        #expect(try given.database.outboxEntries()[1].change.fields == ["name": .string("Town")])
    }
}
