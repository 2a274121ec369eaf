import Domain
import Foundation
import PropertyBased
@testable import Storage
import Testing

@Suite struct ActivityStoreTests {
    let actor = Actor.system("test")

    struct Community {
        let given: TestDatabase
        let types: [Domain.Category]
        let venues: [Venue]
    }

    func community(venues count: Int = 3) throws -> Community {
        let given = try TestDatabase()
        let area = try given.database.createArea(AreaInput(name: "Town", areaType: "CITY", parentId: ""), by: actor)
        let venues = try (0..<count).map {
            try given.database.createVenue(VenueInput(name: "Venue \($0)", address: "\($0) Lane", areaId: area.id.uuidString), by: actor)
        }
        return Community(given: given, types: try given.database.categories(.activityType), venues: venues)
    }

    func input(_ name: String, type: Domain.Category, start: String = "2025-01-10", end: String? = nil,
               status: ActivityStatus = .active, venues: [Venue] = [], from: String = "") -> ActivityInput {
        ActivityInput(name: name, typeId: type.id.uuidString, startDate: start, duration: end == nil ? "ongoing" : "finite",
                      endDate: end ?? "", status: status.rawValue, venueIds: venues.map(\.id.uuidString), venuesFrom: from)
    }

    func all(_ database: AppDatabase, _ query: ActivityQuery) throws -> [ActivityListItem] {
        var query = query
        query.page = PageRequest(page: 1, perPage: 500)
        return try database.activities(query).items
    }

    /// Activities made from picks: type, status, start day, finite or not.
    func activities(_ community: Community, _ picks: [Int]) throws -> [Activity] {
        try picks.enumerated().map { index, pick in
            let start = String(format: "2024-%02d-%02d", pick % 12 + 1, pick % 28 + 1)
            let end = pick % 3 == 0 ? nil : String(format: "2025-%02d-01", pick % 12 + 1)
            return try community.given.database.createActivity(input("Activity \(index) \(pick)", type: community.types[pick % community.types.count],
                                                                     start: start, end: end, status: ActivityStatus.allCases[pick % 4]), by: actor)
        }
    }

    // Feature: fieldbook, Property 1: Complete Data Retrieval. The list page reads only what it shows (`activityRows`):
    // the same activities in the same order, with the same type, dates, status and venues, in every order offered.
    @Test func property1_theListPagesRowsAreTheFullRecordsTheyShow() async throws {
        await propertyCheck(count: 8, input: Gen.int(in: 0...200).array(of: 1...40), Gen.int(in: 0...5)) { picks, order in
            let community = try community(venues: 3)
            let created = try activities(community, picks)
            for (index, activity) in created.enumerated() where index % 4 == 0 {
                let moved = input(activity.name, type: community.types[index % community.types.count], start: activity.startDate.description,
                                  end: activity.endDate?.description, status: activity.status, venues: Array(community.venues.prefix(index % 3 + 1)),
                                  from: activity.startDate.description)
                _ = try community.given.database.updateActivity(id: activity.id, moved, expectedVersion: nil, by: actor)
            }
            var query = ActivityQuery()
            (query.sort, query.descending) = (ActivityQuery.Sort.allCases[order % 3], order >= 3)
            query.page = PageRequest(page: 1, perPage: 500)
            let full = try community.given.database.activities(query).items
            let rows = try community.given.database.activityRows(query).items
            #expect(rows.map(\.id) == full.map(\.activity.id))
            for (row, item) in zip(rows, full) {
                #expect(row.name == item.activity.name && row.startDate == item.activity.startDate && row.endDate == item.activity.endDate
                        && row.status == item.activity.status && row.typeName == item.typeName && row.venueNames == item.venueNames)
            }
        }
    }

    // Feature: fieldbook, Property 1: Complete Data Retrieval
    // Feature: fieldbook, Property 4: Filter Correctness
    @Test func property4_activityFilterCorrectness() async throws {
        await propertyCheck(count: 10, input: Gen.int(in: 0...200).array(of: 0...60)) { picks in
            let community = try community(venues: 0)
            let created = try activities(community, picks)
            #expect(Set(try all(community.given.database, ActivityQuery()).map(\.activity.id)) == Set(created.map(\.id)))
            for status in ActivityStatus.allCases {
                #expect(Set(try all(community.given.database, ActivityQuery(status: status)).map(\.activity.id))
                        == Set(created.filter { $0.status == status }.map(\.id)))
            }
            let type = community.types[picks.first.map { $0 % community.types.count } ?? 0]
            #expect(Set(try all(community.given.database, ActivityQuery(typeId: type.id)).map(\.activity.id))
                    == Set(created.filter { $0.typeId == type.id }.map(\.id)))
        }
    }

    // Issue 16: activities filtered by area (with the areas inside it), by venue, and by a date range they overlap.
    @Test func activitiesFilterByAreaVenueAndDates() async throws {
        await propertyCheck(count: 10, input: Gen.int(in: 0...500).array(of: 1...30)) { picks in
            let given = try TestDatabase()
            let city = try given.database.createArea(AreaInput(name: "City", areaType: "CITY", parentId: ""), by: actor)
            let quarter = try given.database.createArea(AreaInput(name: "Quarter", areaType: "NEIGHBOURHOOD", parentId: city.id.uuidString), by: actor)
            let elsewhere = try given.database.createArea(AreaInput(name: "Elsewhere", areaType: "CITY", parentId: ""), by: actor)
            let areas = [city, quarter, elsewhere]
            let venues = try (0..<4).map {
                try given.database.createVenue(VenueInput(name: "V\($0)", address: "\($0) Lane", areaId: areas[$0 % 3].id.uuidString), by: actor)
            }
            let type = try given.database.categories(.activityType)[0]
            var made: [(id: UUID, venue: Int?, start: String, end: String?)] = []
            for (index, pick) in picks.enumerated() {
                let venue: Int? = pick % 5 == 4 ? nil : pick % 4
                let start = String(format: "2025-%02d-01", pick % 12 + 1)
                let end: String? = pick % 3 == 0 ? nil : String(format: "2025-%02d-28", min(12, pick % 12 + 1 + pick % 4))
                let activity = try given.database.createActivity(input("A\(index)", type: type, start: start, end: end,
                                                                       venues: venue.map { [venues[$0]] } ?? []), by: actor)
                made.append((activity.id, venue, start, end))
            }
            func found(_ query: ActivityQuery) throws -> Set<UUID> { Set(try all(given.database, query).map(\.activity.id)) }
            let inCity = made.filter { $0.venue.map { $0 % 3 != 2 } ?? false }  // City and the Quarter inside it
            #expect(try found(ActivityQuery(areaId: city.id)) == Set(inCity.map(\.id)))
            #expect(try found(ActivityQuery(areaId: quarter.id)) == Set(made.filter { $0.venue.map { $0 % 3 == 1 } ?? false }.map(\.id)))
            #expect(try found(ActivityQuery(venueId: venues[0].id)) == Set(made.filter { $0.venue == 0 }.map(\.id)))
            let (from, to) = ("2025-05-10", "2025-07-15")
            let overlapping = made.filter { $0.start <= to && ($0.end.map { $0 >= from } ?? true) }
            #expect(try found(ActivityQuery(from: CalendarDate(from), to: CalendarDate(to))) == Set(overlapping.map(\.id)))
        }
    }

    // Feature: fieldbook, Property 5: Sort Order Preservation
    @Test func property5_activitySortOrderPreservation() async throws {
        await propertyCheck(count: 10, input: Gen.int(in: 0...200).array(of: 2...40), Gen.bool) { picks, descending in
            let community = try community(venues: 0)
            _ = try activities(community, picks)
            let starts = try all(community.given.database, ActivityQuery(sort: .start, descending: descending)).map(\.activity.startDate)
            #expect(starts == (descending ? starts.sorted(by: >) : starts.sorted()))
            let names = try all(community.given.database, ActivityQuery(sort: .name, descending: descending)).map { $0.activity.name.lowercased() }
            #expect(names == (descending ? names.sorted(by: >) : names.sorted()))
        }
    }

    // Feature: fieldbook, Property 6: Input Validation Rejection
    @Test func property6_activityInputValidationRejection() async {
        await propertyCheck(count: 200, input: Gen.int(in: -3...3), Gen.bool, Gen.bool, Gen.bool) { endOffset, finite, hasName, hasType in
            let end = finite ? String(format: "2025-05-%02d", 10 + endOffset) : ""
            let activity = ActivityInput(name: hasName ? "Choir" : " ", typeId: hasType ? UUID().uuidString : "", startDate: "2025-05-10",
                                         duration: finite ? "finite" : "ongoing", endDate: end, status: "ACTIVE")
            let valid = hasName && hasType && (!finite || endOffset > 0)
            #expect(((try? activity.validated()) != nil) == valid)
        }
        let ongoingWithEnd = ActivityInput(name: "A", typeId: UUID().uuidString, startDate: "2025-05-10", duration: "ongoing",
                                           endDate: "2025-06-01", status: "ACTIVE")
        #expect(throws: ValidationError.self) { try ongoingWithEnd.validated() }
        let pastStart = ActivityInput(name: "A", typeId: UUID().uuidString, startDate: "2019-01-01", duration: "ongoing", status: "ACTIVE")
        #expect((try? pastStart.validated()) != nil, "past start dates are allowed")
    }

    // Feature: fieldbook, Property 7: Activity Classification
    @Test func property7_activityClassification() async throws {
        await propertyCheck(count: 10, input: Gen.int(in: 0...200).array(of: 1...30)) { picks in
            let community = try community(venues: 0)
            let created = try activities(community, picks)
            for item in try all(community.given.database, ActivityQuery()) {
                let original = try #require(created.first { $0.id == item.activity.id })
                #expect(item.activity.isOngoing == (original.endDate == nil))
                #expect(item.activity.dateText.contains("ongoing") == item.activity.isOngoing)
            }
        }
    }

    // Feature: fieldbook, Property 8: Duplicate Assignment Prevention
    @Test func property8_duplicateAssignmentPrevention() async throws {
        await propertyCheck(count: 15, input: Gen.int(in: 0...5).array(of: 1...12)) { picks in
            let community = try community(venues: 0)
            let activity = try activities(community, [1])[0]
            let people = try (0..<2).map { try community.given.database.createParticipant(ParticipantInput(name: "P\($0)", email: "p\($0)@example.org"), by: actor) }
            let roles = try community.given.database.categories(.participantRole)
            var pairs = Set<String>()
            for pick in picks {
                let person = people[pick % 2], role = roles[pick % 3]
                let key = "\(person.id)-\(role.id)"
                do {
                    try community.given.database.assign(participant: person.id.uuidString, role: role.id.uuidString, toActivity: activity.id, by: actor)
                    #expect(!pairs.contains(key))
                    pairs.insert(key)
                } catch let error as ValidationError {
                    #expect(pairs.contains(key))
                    #expect(error.message(for: "role_id")?.contains("already assigned") == true)
                }
            }
            #expect(try community.given.database.assignments(ofActivity: activity.id).count == pairs.count)
        }
    }

    // Feature: fieldbook, Property 38: Activity Venue History Display
    @Test func property38_activityVenueHistoryDisplay() async throws {
        await propertyCheck(count: 15, input: Gen.int(in: 0...7).array(of: 1...6)) { venueSets in
            let community = try community(venues: 3)
            var activity = try community.given.database.createActivity(input("Choir", type: community.types[0], start: "2024-01-01"), by: actor)
            var expectedPeriods = 0
            var current = Set<UUID>()
            for (step, mask) in venueSets.enumerated() {
                let chosen = community.venues.enumerated().filter { mask & (1 << $0.offset) != 0 }.map(\.element)
                expectedPeriods += Set(chosen.map(\.id)).subtracting(current).count
                current = Set(chosen.map(\.id))
                activity = try community.given.database.updateActivity(id: activity.id, input("Choir", type: community.types[0], start: "2024-01-01",
                    venues: chosen, from: String(format: "2024-%02d-01", step + 2)), expectedVersion: nil, by: actor)
            }
            let history = try community.given.database.venueHistory(ofActivity: activity.id)
            #expect(history.count == expectedPeriods)
            #expect(history.map(\.effectiveFrom) == history.map(\.effectiveFrom).sorted(by: >), "newest first")
            #expect(Set(history.filter { $0.effectiveTo == nil }.map(\.venueId)) == current)
            #expect(history.allSatisfy { period in period.effectiveTo.map { $0 >= period.effectiveFrom } ?? true })
        }
    }

    @Test func completionEndsTodayAndIsRefusedBeforeTheStart() throws {
        let community = try community(venues: 0)
        let today = CalendarDate("2025-06-15")!
        let ongoing = try community.given.database.createActivity(input("Choir", type: community.types[0], start: "2025-01-01"), by: actor)
        let done = try community.given.database.completeActivity(id: ongoing.id, today: today, by: actor)
        #expect(done.status == .completed && done.endDate == today)
        let future = try community.given.database.createActivity(input("Fair", type: community.types[0], start: "2025-09-01", status: .planned), by: actor)
        #expect(throws: DomainError.self) { try community.given.database.completeActivity(id: future.id, today: today, by: actor) }
        let finite = try community.given.database.createActivity(input("Course", type: community.types[0], start: "2025-01-01", end: "2025-03-01"), by: actor)
        #expect(try community.given.database.completeActivity(id: finite.id, today: today, by: actor).endDate == CalendarDate("2025-03-01"))
    }

    @Test func eachActivityWriteRecordsItsChanges() throws {
        let community = try community(venues: 2)
        let before = try community.given.outboxCount()
        let activity = try community.given.database.createActivity(input("Choir", type: community.types[0], venues: [community.venues[0]]), by: actor)
        try community.given.database.updateActivity(id: activity.id, input("Choir", type: community.types[0], venues: [community.venues[1]]),
                                                    expectedVersion: 1, by: actor)
        let entries = try community.given.database.outboxEntries().dropFirst(before)
        #expect(entries.map(\.change.entity) == ["activity", "activity_venue", "activity_venue", "activity_venue"])
        #expect(entries.map(\.change.operation) == [.create, .create, .update, .create])
    }
}
