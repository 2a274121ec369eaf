import Domain
import Foundation
@testable import Storage
import Testing

/// Participants another Fieldbook made, brought in by a sync, listed when they may be someone already here (issue 14).
@Suite struct SyncedDuplicateTests {
    let actor = Actor.system("test")

    @Test func newcomersPulledFromTheHubAreCheckedAndListedUntilSetAside() throws {
        let hub = try TestDatabase(linked: false), node = try TestDatabase(), elsewhere = try TestDatabase()
        // The node's first sync copies what the hub holds: nothing is checked, there was nothing here to duplicate.
        try hub.database.createParticipant(ParticipantInput(name: "John Smith", email: "john@example.org"), by: actor)
        try SyncExchange.sync(node.database, with: hub.database)
        #expect(try node.database.checkSyncedParticipants() == 0)

        let here = try node.database.createParticipant(ParticipantInput(name: "Amina Odhiambo", email: "amina@example.org"), by: actor)
        try SyncExchange.sync(elsewhere.database, with: hub.database)
        let twin = try elsewhere.database.createParticipant(ParticipantInput(name: "Amina Odhimabo", email: "a.odhiambo@example.org"), by: actor)
        try elsewhere.database.createParticipant(ParticipantInput(name: "Grace Hopper", email: "grace@example.org"), by: actor)
        try SyncExchange.sync(elsewhere.database, with: hub.database)
        try SyncExchange.sync(node.database, with: hub.database)

        #expect(try node.database.checkSyncedParticipants() == 1)
        let listed = try node.database.syncedDuplicates(page: PageRequest(page: 1)).items
        #expect(listed.map(\.arrived.id) == [twin.id] && listed.map(\.match.id) == [here.id])
        #expect(listed.first?.match.reason == .similarName)
        try node.database.dismissSyncedDuplicate(twin.id, match: here.id)
        #expect(try node.database.syncedDuplicates(page: PageRequest(page: 1)).total == 0)
        #expect(throws: DomainError.self) { try node.database.dismissSyncedDuplicate(twin.id, match: here.id) }

        // The hub, too, checks what nodes push to it: the node's Amina is the hub's possible duplicate of the twin.
        #expect(try hub.database.checkSyncedParticipants() >= 1)
        #expect(try hub.database.syncedDuplicates(page: PageRequest(page: 1)).items.contains { $0.arrived.id == twin.id || $0.arrived.id == here.id })
    }

    @Test func aFirstSyncOfManyPagesChecksNothingButANodeWithItsOwnPeopleChecksWhatTheHubBrings() throws {
        let hub = try TestDatabase(linked: false)
        for index in 0..<120 {
            try hub.database.createParticipant(ParticipantInput(name: "Person \(index)", email: "p\(index)@example.org"), by: actor)
        }
        let empty = try TestDatabase()
        #expect(try SyncExchange.pull(empty.database, from: hub.database, page: 50) > 100)
        #expect(try empty.database.hasQueuedDuplicateChecks() == false, "a copy into an empty Fieldbook is checked against nothing")

        let populated = try TestDatabase(linked: false)
        try populated.database.createParticipant(ParticipantInput(name: "Person 7", email: "seven@example.org"), by: actor)
        try populated.database.linkHub(.unreachableForTests)
        try SyncExchange.sync(populated.database, with: hub.database)
        #expect(try populated.database.checkSyncedParticipants() >= 1)
        #expect(try populated.database.syncedDuplicates(page: PageRequest(page: 1)).items.contains { $0.arrived.name == "Person 7" && $0.match.email == "seven@example.org" })
    }

    @Test func aPairDropsOutOfTheListOnceMerged() throws {
        let hub = try TestDatabase(linked: false), node = try TestDatabase(), elsewhere = try TestDatabase()
        try hub.database.createParticipant(ParticipantInput(name: "Seed", email: "seed@example.org"), by: actor)
        try SyncExchange.sync(node.database, with: hub.database)
        let here = try node.database.createParticipant(ParticipantInput(name: "Li Wei", email: "li@example.org"), by: actor)
        let copy = try elsewhere.database.createParticipant(ParticipantInput(name: "Wei Li", email: "LI@example.org"), by: actor)
        try SyncExchange.sync(elsewhere.database, with: hub.database)
        try SyncExchange.sync(node.database, with: hub.database)
        #expect(try node.database.checkSyncedParticipants() == 1)
        #expect(try node.database.syncedDuplicates(page: PageRequest(page: 1)).items.first?.match.reason == .sameEmail)
        try node.database.mergeParticipants(ParticipantMerge(kept: here.id, removed: copy.id), by: actor)
        #expect(try node.database.syncedDuplicates(page: PageRequest(page: 1)).total == 0)
    }
}
