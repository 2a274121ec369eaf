import Domain
import Foundation
@testable import Storage
import Testing

/// One person recorded twice, made one (issue 14): the chosen values, everything that referred to the removed record,
/// no assignment twice, and every write recorded for sync.
@Suite struct ParticipantMergeTests {
    let actor = Actor.system("test")

    struct Twins {
        let given: TestDatabase
        let kept: Participant, removed: Participant
        let hall: Venue, barn: Venue
        let choir: Activity, market: Activity
        let member: Domain.Category
    }

    func twins() throws -> Twins {
        let given = try TestDatabase()
        let db = given.database
        let area = try db.createArea(AreaInput(name: "City", areaType: "CITY", parentId: ""), by: actor)
        let hall = try db.createVenue(VenueInput(name: "Hall", address: "1 Road", areaId: area.id.uuidString), by: actor)
        let barn = try db.createVenue(VenueInput(name: "Barn", address: "9 Lane", areaId: area.id.uuidString), by: actor)
        let kept = try db.createParticipant(ParticipantInput(name: "Émile Dubois", email: "emile@example.org", homeVenueId: hall.id.uuidString), by: actor)
        let removed = try db.createParticipant(ParticipantInput(name: "Emile Dubois", email: "e.dubois@example.org", phone: "+33 1 23 45 67 89",
                                                                notes: "Prefers evenings", homeVenueId: barn.id.uuidString), by: actor)
        let type = try db.categories(.activityType).first!
        let member = try db.categories(.participantRole).first!
        func activity(_ name: String) throws -> Activity {
            try db.createActivity(ActivityInput(name: name, typeId: type.id.uuidString, startDate: "2025-01-01", duration: "ongoing",
                                                status: "ACTIVE", venueIds: [hall.id.uuidString]), by: actor)
        }
        let choir = try activity("Choir"), market = try activity("Market")
        for (person, activity) in [(kept, choir), (removed, choir), (removed, market)] {
            try db.assign(participant: person.id.uuidString, role: member.id.uuidString, toActivity: activity.id, by: actor)
        }
        return Twins(given: given, kept: kept, removed: removed, hall: hall, barn: barn, choir: choir, market: market, member: member)
    }

    @Test func theKeptRecordTakesTheChosenValuesAndEverythingOfTheRemovedOne() throws {
        let twins = try twins()
        let db = twins.given.database
        let outboxBefore = try twins.given.outboxCount()
        let merged = try db.mergeParticipants(ParticipantMerge(kept: twins.kept.id, removed: twins.removed.id, fromRemoved: [.phone, .notes],
                                                               keptVersion: 1, removedVersion: 1), by: actor)
        #expect(merged.name == "Émile Dubois" && merged.email == "emile@example.org")
        #expect(merged.phone == "+33 1 23 45 67 89" && merged.notes == "Prefers evenings" && merged.homeVenueId == twins.hall.id)
        #expect(throws: DomainError.self) { try db.participant(id: twins.removed.id) }
        // Choir once (the kept record had it already), Market moved over.
        let activities = try db.assignments(of: twins.kept.id).map(\.activityName).sorted()
        #expect(activities == ["Choir", "Market"])
        // Both address histories are the kept record's now; only the kept home is still open.
        let history = try db.addressHistory(of: twins.kept.id)
        #expect(history.count == 2 && history.filter { $0.effectiveTo == nil }.map(\.venueId) == [twins.hall.id])
        #expect(try twins.given.outboxCount() > outboxBefore)
    }

    @Test func choosingTheRemovedHomeKeepsItsHistoryOpen() throws {
        let twins = try twins()
        let merged = try twins.given.database.mergeParticipants(ParticipantMerge(kept: twins.kept.id, removed: twins.removed.id,
                                                                                 fromRemoved: [.home]), by: actor)
        #expect(merged.homeVenueId == twins.barn.id)
        let open = try twins.given.database.addressHistory(of: twins.kept.id).filter { $0.effectiveTo == nil }
        #expect(open.map(\.venueId) == [twins.barn.id])
    }

    @Test func aStaleVersionOrTheSameRecordTwiceIsRefusedAndNothingChanges() throws {
        let twins = try twins()
        let db = twins.given.database
        #expect(throws: DomainError.self) {
            try db.mergeParticipants(ParticipantMerge(kept: twins.kept.id, removed: twins.removed.id, keptVersion: 7), by: actor)
        }
        #expect(throws: ValidationError.self) { try db.mergeParticipants(ParticipantMerge(kept: twins.kept.id, removed: twins.kept.id), by: actor) }
        #expect(try db.participant(id: twins.removed.id).name == "Emile Dubois")
        #expect(try db.assignments(of: twins.removed.id).count == 2)
    }

    @Test func groupsAreListedByEmailThenByNameOldestFirst() throws {
        let twins = try twins()
        let db = twins.given.database
        let sameEmail = try db.createParticipant(ParticipantInput(name: "Someone", email: "EMILE@example.org"), by: actor)
        let groups = try db.duplicateGroups(page: PageRequest())
        #expect(groups.total == 2)
        #expect(groups.items.map(\.reason) == [.sameEmail, .sameName])
        #expect(groups.items[0].members.map(\.id) == [twins.kept.id, sameEmail.id])
        #expect(groups.items[1].members.map(\.id) == [twins.kept.id, twins.removed.id] && groups.items[1].count == 2)
        let few = try db.duplicateGroups(page: PageRequest(), shown: 1)
        #expect(few.items.allSatisfy { $0.members.count == 1 && $0.count == 2 })
        _ = try db.mergeParticipants(ParticipantMerge(kept: twins.kept.id, removed: twins.removed.id), by: actor)
        #expect(try db.duplicateGroups(page: PageRequest()).items.map(\.reason) == [.sameEmail])
    }
}
