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
        let removed = try laterRecord(in: db, than: kept) {
            try db.createParticipant(ParticipantInput(name: "Emile Dubois", email: "e.dubois@example.org", phone: "+33 1 23 45 67 89",
                                                      notes: "Prefers evenings", homeVenueId: barn.id.uuidString), by: actor)
        }
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

    /// A record made by `make` whose id comes after `kept`'s, so that the merge keeps `kept` (`ParticipantMergeInput.survivor`):
    /// one made otherwise is deleted and made again.
    func laterRecord(in db: AppDatabase, than kept: Participant, _ make: () throws -> Participant) throws -> Participant {
        while true {
            let made = try make()
            if ParticipantMergeInput.survivor(of: kept.id, made.id) == kept.id { return made }
            try db.deleteParticipant(id: made.id, by: actor)
        }
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
        // Both moved in today: the kept record's period covers the removed one's days, so only the kept home remains.
        let history = try db.addressHistory(of: twins.kept.id)
        #expect(history.count == 1 && history.filter { $0.effectiveTo == nil }.map(\.venueId) == [twins.hall.id])
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

    /// No two address periods of the merged person share a day, and exactly one is open while they have a home.
    func expectOneHistory(_ history: [VenuePeriod], home: UUID?, _ comment: Comment? = nil) {
        for (index, period) in history.enumerated() {
            for other in history[(index + 1)...] {
                let apart = (period.effectiveTo.map { $0 <= other.effectiveFrom } ?? false) || (other.effectiveTo.map { $0 <= period.effectiveFrom } ?? false)
                    || period.effectiveTo == period.effectiveFrom || other.effectiveTo == other.effectiveFrom
                #expect(apart, "\(period) overlaps \(other)")
            }
        }
        #expect(history.filter { $0.effectiveTo == nil }.map(\.venueId) == (home.map { [$0] } ?? []), comment)
    }

    @Test func historiesThatOverlapKeepTheKeptOnesAndEarlierHomesMoveOver() throws {
        let given = try TestDatabase()
        let db = given.database
        let area = try db.createArea(AreaInput(name: "City", areaType: "CITY", parentId: ""), by: actor)
        let hall = try db.createVenue(VenueInput(name: "Hall", address: "1 Road", areaId: area.id.uuidString), by: actor)
        let barn = try db.createVenue(VenueInput(name: "Barn", address: "9 Lane", areaId: area.id.uuidString), by: actor)
        // Both at the Hall now, the kept record since 2020; the removed one since 2023, at the Barn from 2010 before that.
        let kept = try db.createParticipant(ParticipantInput(name: "Ann", email: "ann@example.org", homeVenueId: hall.id.uuidString,
                                                             movedOn: "2020-01-01"), by: actor)
        var removed = try laterRecord(in: db, than: kept) {
            try db.createParticipant(ParticipantInput(name: "Ann", email: "ann.w@example.org", homeVenueId: barn.id.uuidString, movedOn: "2010-01-01"),
                                     by: actor)
        }
        removed = try db.updateParticipant(id: removed.id, ParticipantInput(name: "Ann", email: "ann.w@example.org", homeVenueId: hall.id.uuidString,
                                                                            movedOn: "2023-05-01"), expectedVersion: nil, by: actor)
        _ = try db.mergeParticipants(ParticipantMerge(kept: kept.id, removed: removed.id), by: actor)
        let history = try db.addressHistory(of: kept.id)
        expectOneHistory(history, home: hall.id)
        // Newest first: the kept Hall period since 2020, then the Barn from 2010 up to where the kept history begins.
        #expect(history.map(\.venueId) == [hall.id, barn.id])
        #expect(history.last?.effectiveFrom == CalendarDate("2010-01-01") && history.last?.effectiveTo == CalendarDate("2020-01-01"))
    }

    @Test func everyChoiceOfHomeLeavesOneHistory() throws {
        for chooseRemovedHome in [false, true] {
            let twins = try twins()
            let db = twins.given.database
            let merged = try db.mergeParticipants(ParticipantMerge(kept: twins.kept.id, removed: twins.removed.id,
                                                                   fromRemoved: chooseRemovedHome ? [.home] : []), by: actor)
            expectOneHistory(try db.addressHistory(of: merged.id), home: merged.homeVenueId, "removed home chosen: \(chooseRemovedHome)")
        }
    }
}
