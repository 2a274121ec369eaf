import Domain
import Foundation
import GRDB
import Records
@testable import Storage
import Testing

/// Merges of one person's two records made on nodes apart (issue 36), through a SQLite hub's push and pull: exactly one
/// record stays everywhere, the one `ParticipantMergeInput.survivor` names, holding what both had; whatever still names
/// the merged-away record when it reaches the hub acts on the survivor. The PostgreSQL hub decides with the same
/// `HubDecider` (tests/sync/test_merges.py runs these against both kinds of hub).
@Suite struct ParticipantMergeSyncTests {
    let hub: TestDatabase
    let nodeA: TestDatabase
    let nodeB: TestDatabase
    let actor = Actor.system("test")
    let mensah: Participant, mensa: Participant
    let choir: Activity, market: Activity, garden: Activity
    let role: Domain.Category

    init() throws {
        (hub, nodeA, nodeB) = (try TestDatabase(linked: false), try TestDatabase(), try TestDatabase())
        let db = hub.database, actor = Actor.system("test")
        mensah = try db.createParticipant(ParticipantInput(name: "Kwame Mensah", email: "kwame@example.org", phone: "555-0100"), by: actor)
        mensa = try db.createParticipant(ParticipantInput(name: "Kwame Mensa", email: "k.mensa@example.org", notes: "Met at the market"), by: actor)
        let type = try db.categories(.activityType).first!
        role = try db.categories(.participantRole).first!
        func activity(_ name: String) throws -> Activity {
            try db.createActivity(ActivityInput(name: name, typeId: type.id.uuidString, startDate: "2025-01-01", duration: "ongoing",
                                                status: "ACTIVE", venueIds: []), by: actor)
        }
        let (choir, market) = (try activity("Choir"), try activity("Market"))
        (self.choir, self.market, garden) = (choir, market, try activity("Garden"))
        for (person, activity) in [(mensah, choir), (mensa, market)] {
            try db.assign(participant: person.id.uuidString, role: role.id.uuidString, toActivity: activity.id, by: actor)
        }
        try SyncExchange.pull(nodeA.database, from: hub.database)
        try SyncExchange.pull(nodeB.database, from: hub.database)
    }

    var survivor: UUID { ParticipantMergeInput.survivor(of: mensah.id, mensa.id) }
    var gone: UUID { survivor == mensah.id ? mensa.id : mensah.id }

    func assign(_ node: TestDatabase, _ person: UUID, _ activity: Activity) throws {
        try node.database.assign(participant: person.uuidString, role: role.id.uuidString, toActivity: activity.id, by: actor)
    }

    func merge(_ node: TestDatabase, kept: UUID, removed: UUID, fromRemoved: Set<ParticipantMerge.Field> = []) throws {
        try node.database.mergeParticipants(ParticipantMerge(kept: kept, removed: removed, fromRemoved: fromRemoved), by: actor)
    }

    func converge() throws {
        for _ in 0..<2 {
            try SyncExchange.sync(nodeA.database, with: hub.database)
            try SyncExchange.sync(nodeB.database, with: hub.database)
        }
    }

    /// One record of the person everywhere, the same, holding `activities`; nothing refused; every Fieldbook alike.
    func expectOnePerson(holding activities: [String]) throws {
        let hubState = try SyncExchange.snapshot(hub.database)
        for database in [hub.database, nodeA.database, nodeB.database] {
            #expect(throws: DomainError.self) { try database.participant(id: gone) }
            #expect(try database.assignments(of: survivor).map(\.activityName).sorted() == activities)
            #expect(try database.mergeSurvivor(of: gone)?.id == survivor)
        }
        for node in [nodeA, nodeB] {
            #expect(try node.database.failedOperationCount() == 0)
            let nodeState = try SyncExchange.snapshot(node.database)
            for (table, rows) in hubState where nodeState[table] != rows { Issue.record("\(table) differs: hub \(rows) node \(nodeState[table] ?? [:])") }
        }
    }

    @Test func oppositeMergesMadeApartLeaveTheSameOneRecordHoldingBoth() throws {
        try assign(nodeA, mensa.id, garden)
        try merge(nodeA, kept: mensah.id, removed: mensa.id, fromRemoved: [.notes])
        try assign(nodeB, mensah.id, garden)
        try merge(nodeB, kept: mensa.id, removed: mensah.id)

        try converge()

        try expectOnePerson(holding: ["Choir", "Garden", "Market"])
        #expect(try hub.database.participant(id: survivor).notes == "Met at the market")
    }

    @Test func theSameMergeMadeOnBothNodesIsOneMerge() throws {
        try merge(nodeA, kept: mensah.id, removed: mensa.id)
        try assign(nodeB, mensa.id, garden)
        try merge(nodeB, kept: mensah.id, removed: mensa.id)

        try converge()

        try expectOnePerson(holding: ["Choir", "Garden", "Market"])
        #expect(try nodeA.database.conflicts().isEmpty && nodeB.database.conflicts().isEmpty)
    }

    @Test(arguments: [true, false]) func anEditOfTheMergedAwayRecordLandsOnTheSurvivor(mergeReachesTheHubFirst: Bool) throws {
        try merge(nodeA, kept: mensah.id, removed: mensa.id)
        let current = try nodeB.database.participant(id: gone)
        try nodeB.database.updateParticipant(id: gone, ParticipantInput(name: current.name, email: current.email, phone: "555-0199",
                                                                        notes: current.notes ?? ""), expectedVersion: nil, by: actor)
        try assign(nodeB, gone, garden)

        if mergeReachesTheHubFirst { try SyncExchange.sync(nodeA.database, with: hub.database) }
        try converge()

        try expectOnePerson(holding: ["Choir", "Garden", "Market"])
        #expect(try hub.database.participant(id: survivor).phone == "555-0199")
    }

    @Test func aPullBringingAMergeLeavesNoCopyOfTheMergedAwayRecordEvenWithEditsWaiting() throws {
        try merge(nodeA, kept: mensah.id, removed: mensa.id)
        try SyncExchange.sync(nodeA.database, with: hub.database)
        let current = try nodeB.database.participant(id: gone)
        try nodeB.database.updateParticipant(id: gone, ParticipantInput(name: current.name, email: current.email, phone: "555-0199",
                                                                        notes: current.notes ?? ""), expectedVersion: nil, by: actor)

        try SyncExchange.pull(nodeB.database, from: hub.database)

        #expect(throws: DomainError.self) { try nodeB.database.participant(id: gone) }
        #expect(try nodeB.database.assignments(of: survivor).map(\.activityName).sorted() == ["Choir", "Market"])
        try converge()
        try expectOnePerson(holding: ["Choir", "Market"])
        #expect(try hub.database.participant(id: survivor).phone == "555-0199")
    }

    @Test func aRecordMergedAwayWhileAnotherMergeKeptItFollowsTheChain() throws {
        // Three records of one person: A merges the later two, B merges the first two.
        let third = try hub.database.createParticipant(ParticipantInput(name: "K. Mensah", email: "km@example.org"), by: actor)
        try assign(hub, third.id, garden)
        try SyncExchange.pull(nodeA.database, from: hub.database)
        try SyncExchange.pull(nodeB.database, from: hub.database)
        let ids = [mensah.id, mensa.id, third.id].sorted { $0.lowercaseText < $1.lowercaseText }
        try merge(nodeA, kept: ids[1], removed: ids[2])
        try merge(nodeB, kept: ids[0], removed: ids[1])

        try converge()

        for database in [hub.database, nodeA.database, nodeB.database] {
            #expect(try database.participants(ParticipantQuery(text: "")).items.map(\.participant.id) == [ids[0]])
            #expect(try database.assignments(of: ids[0]).map(\.activityName).sorted() == ["Choir", "Garden", "Market"])
            #expect(try database.mergeSurvivor(of: ids[2])?.id == ids[0])
        }
    }

    @Test func aMergeNamingTheLaterRecordAsSurvivorIsRefusedByTheHub() throws {
        let (first, second) = (survivor, gone)
        let merge = SyncOperation(operationId: UUID(), operation: .create, entity: ParticipantMerges.entity, entityId: first,
                                  fields: ["survivor_id": .string(second.lowercaseText), "removed_values": .string("{}"),
                                           "merged_at": .string(Date().storedText)],
                                  before: [:], baseVersion: 0, author: "system:test", createdAt: Date())
        let answer = try hub.database.applyPush(PushRequest(nodeId: UUID(), operations: [merge]))
        #expect(answer.results.first?.outcome == .rejected)
        #expect(try hub.database.participant(id: first).id == first)
    }
}
