import Domain
import Foundation
import GRDB
import Hub
import PropertyBased
import Testing
@testable import Storage

/// The sync protocol's storage sides: a hub database and node databases exchanging operations and changes.
@Suite struct SyncStoreTests {
    let hub: TestDatabase
    let nodeA: TestDatabase
    let nodeB: TestDatabase
    let actor = Actor.system("test")

    init() throws {
        hub = try TestDatabase(linked: false)
        nodeA = try TestDatabase()
        nodeB = try TestDatabase()
    }

    /// Given a participant made on the hub and pulled by both nodes.
    private func sharedParticipant() throws -> Participant {
        let participant = try hub.database.createParticipant(ParticipantInput(name: "Ann Okafor", email: "ann@example.org"), by: actor)
        try SyncExchange.pull(nodeA.database, from: hub.database)
        try SyncExchange.pull(nodeB.database, from: hub.database)
        return participant
    }

    private func edit(_ node: TestDatabase, _ id: UUID, name: String? = nil, phone: String? = nil) throws {
        let current = try node.database.participant(id: id)
        try node.database.updateParticipant(id: id, ParticipantInput(name: name ?? current.name, email: current.email,
                                                                     phone: phone ?? current.phone ?? ""),
                                            expectedVersion: nil, by: actor)
    }

    private func converge() throws {
        for _ in 0..<2 {
            try SyncExchange.sync(nodeA.database, with: hub.database)
            try SyncExchange.sync(nodeB.database, with: hub.database)
        }
    }

    private func expectAllEqual() throws {
        let hubState = try SyncExchange.snapshot(hub.database)
        for node in [nodeA, nodeB] {
            let nodeState = try SyncExchange.snapshot(node.database)
            for (table, rows) in hubState where nodeState[table] != rows {
                Issue.record("\(table) differs: hub \(rows) node \(nodeState[table] ?? [:])")
            }
        }
    }

    @Test func firstPullBringsAFullCopy() throws {
        let area = try hub.database.createArea(AreaInput(name: "Kibera", areaType: "NEIGHBOURHOOD", parentId: ""), by: actor)
        let venue = try hub.database.createVenue(VenueInput(name: "Hall", address: "1 Road", areaId: area.id.uuidString), by: actor)
        try hub.database.createParticipant(ParticipantInput(name: "Ann", email: "ann@example.org", homeVenueId: venue.id.uuidString), by: actor)
        try hub.database.createCategory(.activityType, CategoryInput(name: "Choir"), by: actor)

        let pulled = try SyncExchange.pull(nodeA.database, from: hub.database, page: 2)

        #expect(pulled >= 5)
        try #expect(SyncExchange.snapshot(nodeA.database) == SyncExchange.snapshot(hub.database))
        #expect(try nodeA.database.pendingOperationCount() == 0)
    }

    @Test func everyKindOfRecordPushedFromANodeIsAcceptedAndArrivesWhole() throws {
        let size = DemoCommunity.Size(venues: 8, participants: 60, activities: 20)
        try nodeA.database.importDemoCommunity(size: size, seed: 3)
        try nodeA.database.createCategory(.participantRole, CategoryInput(name: "Scribe"), by: actor)
        try nodeA.database.createUser(NewUserInput(name: "Gil", email: "gil@example.org", role: "editor",
                                                   password: "long enough password", passwordConfirmation: "long enough password"),
                                      by: actor)

        let tally = try SyncExchange.push(nodeA.database, to: hub.database)
        try SyncExchange.pull(nodeB.database, from: hub.database)

        #expect(tally.rejected == 0 && tally.conflicts == 0)
        #expect(try nodeA.database.failedOperationCount() == 0)
        try #expect(SyncExchange.snapshot(hub.database) == SyncExchange.snapshot(nodeA.database))
        try #expect(SyncExchange.snapshot(nodeB.database) == SyncExchange.snapshot(hub.database))
    }

    @Test func editsOfDifferentFieldsOfOneRecordBothSurvive() throws {
        let participant = try sharedParticipant()
        try edit(nodeA, participant.id, phone: "+254 700 000 001")
        try edit(nodeB, participant.id, name: "Ann O.")

        let first = try SyncExchange.push(nodeA.database, to: hub.database)
        let second = try SyncExchange.push(nodeB.database, to: hub.database)
        try converge()

        #expect(first.applied == 1 && second.merged == 1 && second.conflicts == 0)
        let merged = try hub.database.participant(id: participant.id)
        #expect(merged.name == "Ann O." && merged.phone == "+254 700 000 001")
        try expectAllEqual()
        #expect(try nodeA.database.conflicts().isEmpty && nodeB.database.conflicts().isEmpty)
    }

    @Test func sameFieldEditedApartTheFirstToReachTheHubWinsAndTheLoserKeepsTheirValue() throws {
        let participant = try sharedParticipant()
        try edit(nodeA, participant.id, name: "Ann from A")
        try edit(nodeB, participant.id, name: "Ann from B")

        try SyncExchange.push(nodeA.database, to: hub.database)
        let late = try SyncExchange.push(nodeB.database, to: hub.database)
        try converge()

        #expect(late.conflicts == 1)
        #expect(try hub.database.participant(id: participant.id).name == "Ann from A")
        try expectAllEqual()
        #expect(try nodeA.database.conflicts().isEmpty)
        let conflict = try #require(try nodeB.database.conflicts().first)
        #expect(conflict.kind == .edit && conflict.recordLabel == "Ann from A")
        #expect(conflict.fields == [LosingField(name: "name", mine: .string("Ann from B"), theirs: .string("Ann from A"))])

        try nodeB.database.reapplyConflict(id: conflict.id, by: actor)
        try converge()
        #expect(try hub.database.participant(id: participant.id).name == "Ann from B")
        try expectAllEqual()
        #expect(try nodeB.database.conflicts().isEmpty)
    }

    // Issue 16: two nodes moving the same person offline each opened an address period; after sync every database has
    // exactly one open period, at the home venue that won, and no two periods overlap.
    @Test func twoOfflineMovesOfOnePersonLeaveOneOpenPeriodEverywhere() throws {
        let participant = try sharedParticipant()
        let area = try hub.database.createArea(AreaInput(name: "Kibera", areaType: "NEIGHBOURHOOD", parentId: ""), by: actor)
        let venues = try ["Hall", "Chapel", "School"].map {
            try hub.database.createVenue(VenueInput(name: $0, address: "1 Road", areaId: area.id.uuidString), by: actor)
        }
        try hub.database.updateParticipant(id: participant.id, ParticipantInput(name: participant.name, email: participant.email,
                                                                                homeVenueId: venues[2].id.uuidString, movedOn: "2025-01-01"),
                                           expectedVersion: nil, by: actor)
        try converge()
        for (node, venue) in [(nodeA, venues[0]), (nodeB, venues[1])] {
            try node.database.updateParticipant(id: participant.id, ParticipantInput(name: participant.name, email: participant.email,
                                                                                    homeVenueId: venue.id.uuidString),
                                                expectedVersion: nil, by: actor)
        }
        try converge()
        for database in [hub.database, nodeA.database, nodeB.database] {
            let home = try database.participant(id: participant.id).homeVenueId
            let history = try database.addressHistory(of: participant.id)
            #expect(history.filter { $0.effectiveTo == nil }.map(\.venueId) == [home].compactMap { $0 }, "\(history)")
            let earliestFirst = history.sorted { $0.effectiveFrom < $1.effectiveFrom }
            for (older, newer) in zip(earliestFirst, earliestFirst.dropFirst()) {
                #expect(older.effectiveTo.map { $0 <= newer.effectiveFrom } == true, "\(history)")
            }
        }
        try expectAllEqual()
    }

    @Test func reApplyingALostHomeVenueMoveAlsoRecordsTheMove() throws {
        let participant = try sharedParticipant()
        let area = try hub.database.createArea(AreaInput(name: "Kibera", areaType: "NEIGHBOURHOOD", parentId: ""), by: actor)
        let first = try hub.database.createVenue(VenueInput(name: "Hall", address: "1 Road", areaId: area.id.uuidString), by: actor)
        let second = try hub.database.createVenue(VenueInput(name: "Chapel", address: "2 Road", areaId: area.id.uuidString), by: actor)
        try SyncExchange.pull(nodeA.database, from: hub.database)
        try SyncExchange.pull(nodeB.database, from: hub.database)
        func move(_ node: TestDatabase, to venue: Venue) throws {
            try node.database.updateParticipant(id: participant.id, ParticipantInput(name: participant.name, email: participant.email,
                                                                                    homeVenueId: venue.id.uuidString),
                                                expectedVersion: nil, by: actor)
        }
        try move(nodeA, to: first)
        try move(nodeB, to: second)
        try SyncExchange.push(nodeA.database, to: hub.database)
        try SyncExchange.push(nodeB.database, to: hub.database)
        let conflict = try #require(try nodeB.database.conflicts().first { $0.entity == "participant" })

        try nodeB.database.reapplyConflict(id: conflict.id, by: actor)
        try converge()

        #expect(try hub.database.participant(id: participant.id).homeVenueId == second.id)
        let history = try hub.database.addressHistory(of: participant.id)
        // The re-applied move (made the same day as the lost one) is the one open period, and no two periods overlap.
        #expect(history.filter { $0.effectiveTo == nil }.map(\.venueId) == [second.id])
        let earliestFirst = history.sorted { $0.effectiveFrom < $1.effectiveFrom }
        for (older, newer) in zip(earliestFirst, earliestFirst.dropFirst()) {
            #expect(older.effectiveTo.map { $0 <= newer.effectiveFrom } == true, "\(history)")
        }
        try expectAllEqual()
    }

    @Test func aDeleteAgainstAnEarlierEditLosesAndIsShown() throws {
        let participant = try sharedParticipant()
        try edit(nodeA, participant.id, phone: "+254 700 000 002")
        try nodeB.database.deleteParticipant(id: participant.id, by: actor)

        try SyncExchange.push(nodeA.database, to: hub.database)
        let late = try SyncExchange.push(nodeB.database, to: hub.database)
        try converge()

        #expect(late.conflicts == 1)
        #expect(try nodeB.database.participant(id: participant.id).phone == "+254 700 000 002")
        #expect(try nodeB.database.conflicts().first?.kind == .delete)
        try expectAllEqual()
    }

    @Test func anEditAgainstAnEarlierDeleteLosesAndIsShown() throws {
        let participant = try sharedParticipant()
        try nodeB.database.deleteParticipant(id: participant.id, by: actor)
        try edit(nodeA, participant.id, phone: "+254 700 000 003")

        try SyncExchange.push(nodeB.database, to: hub.database)
        let late = try SyncExchange.push(nodeA.database, to: hub.database)
        try converge()

        #expect(late.conflicts == 1)
        #expect(throws: DomainError.notFound(entity: "participant")) { try nodeA.database.participant(id: participant.id) }
        let conflict = try #require(try nodeA.database.conflicts().first)
        #expect(conflict.kind == .deleted && conflict.recordLabel == nil)
        #expect(conflict.fields.contains(LosingField(name: "phone", mine: .string("+254 700 000 003"), theirs: .null)))
        try expectAllEqual()
    }

    @Test func anOperationPushedTwiceHasOneEffect() throws {
        try nodeA.database.createParticipant(ParticipantInput(name: "Bo", email: "bo@example.org"), by: actor)
        try nodeA.database.createCategory(.participantRole, CategoryInput(name: "Usher"), by: actor)
        let entries = try nodeA.database.pendingOperations(limit: 10)
        let request = PushRequest(nodeId: try nodeA.database.nodeId(), operations: entries.map(\.syncOperation))

        let first = try hub.database.applyPush(request)
        let again = try hub.database.applyPush(request)

        #expect(first.results == again.results)
        #expect(first.results.allSatisfy { $0.outcome == .applied })
        #expect(try hub.database.categories(.participantRole).filter { $0.name == "Usher" }.count == 1)
        #expect(try hub.database.changes(after: 0, limit: 100).changes.count == 2)
    }

    @Test func aRejectedOperationIsSetAsideWithItsReasonAndTheRestFlows() throws {
        try hub.database.createCategory(.activityType, CategoryInput(name: "Choir"), by: actor)
        let mine = try nodeA.database.createCategory(.activityType, CategoryInput(name: "Choir"), by: actor)
        try nodeA.database.createParticipant(ParticipantInput(name: "Cy", email: "cy@example.org"), by: actor)

        let tally = try SyncExchange.push(nodeA.database, to: hub.database)

        #expect(tally.rejected == 1 && tally.applied == 1)
        let failed = try nodeA.database.failedOperations()
        #expect(failed.map(\.change.entityId) == [mine.id])
        #expect(failed.first?.lastError?.contains("already has the same name") == true)
        #expect(try nodeA.database.pendingOperationCount() == 0 && nodeA.database.failedOperationCount() == 1)
        // The node shows the hub's state: its own Choir is gone until the operation is retried and accepted.
        #expect(throws: DomainError.notFound(entity: "activity type")) { try nodeA.database.category(.activityType, id: mine.id) }

        try nodeA.database.retryFailedOperation(failed[0].operationId)
        #expect(try nodeA.database.pendingOperationCount() == 1)
        try SyncExchange.push(nodeA.database, to: hub.database)
        try nodeA.database.discardFailedOperation(failed[0].operationId)
        #expect(try nodeA.database.failedOperationCount() == 0)
    }

    @Test func aPushedTextHoldingANULIsRejectedSoNoRecordShrinksWhenReadBack() throws {
        let operation = SyncOperation(operationId: UUID(), operation: .create, entity: "geographic_area", entityId: UUID(),
                                      fields: ["name": .string("\u{0}Kisumu"), "area_type": .string("CITY"), "parent_id": .null],
                                      before: [:], baseVersion: 0, author: "test", createdAt: Date())

        let result = try #require(try hub.database.applyPush(PushRequest(nodeId: UUID(), operations: [operation])).results.first)

        #expect(result.outcome == .rejected)
        #expect(result.reason?.contains("NUL") == true)
        #expect(try hub.database.changes(after: 0, limit: 10).changes.isEmpty)
    }

    @Test func localEditsWaitingToBePushedSurviveAPullAndMergeAfterThePush() throws {
        let participant = try sharedParticipant()
        try edit(nodeA, participant.id, name: "Ann (A)")
        try edit(nodeB, participant.id, phone: "+254 700 000 004")
        try SyncExchange.sync(nodeB.database, with: hub.database)

        try SyncExchange.pull(nodeA.database, from: hub.database)
        #expect(try nodeA.database.participant(id: participant.id).name == "Ann (A)")

        try converge()
        let result = try nodeA.database.participant(id: participant.id)
        #expect(result.name == "Ann (A)" && result.phone == "+254 700 000 004")
        try expectAllEqual()
    }

    @Test func aPullCutOffMidwayResumesAfterTheLastSavedPage() throws {
        for index in 0..<30 {
            try hub.database.createParticipant(ParticipantInput(name: "P\(index)", email: "p\(index)@example.org"), by: actor)
        }
        let firstPage = try hub.database.changes(after: 0, limit: 10)
        try nodeA.database.applyPulledPage(firstPage)

        let reopened = try AppDatabase(path: nodeA.database.path, passwordCost: .test)
        #expect(try reopened.pullCursor() == firstPage.nextCursor)
        let rest = try SyncExchange.pull(reopened, from: hub.database, page: 7)

        #expect(rest == 20)
        try #expect(SyncExchange.snapshot(reopened) == SyncExchange.snapshot(hub.database))
    }

    /// Pages fetched one after another can list a record twice when it changed on the hub in between; a batch of
    /// such pages is applied with one statement per kind, and the record must end with its latest state.
    @Test func aBatchListingARecordTwiceKeepsItsLatestState() throws {
        let participant = try hub.database.createParticipant(ParticipantInput(name: "Ann", email: "ann@example.org"), by: actor)
        let first = try hub.database.changes(after: 0, limit: 100)
        try hub.database.updateParticipant(id: participant.id, ParticipantInput(name: "Ann Okafor", email: "ann@example.org"),
                                           expectedVersion: nil, by: actor)
        let second = try hub.database.changes(after: first.nextCursor, limit: 100)
        let batch = ChangePage(changes: first.changes + second.changes, nextCursor: second.nextCursor, hasMore: false, remaining: 0)
        #expect(batch.changes.filter { $0.state.entityId == participant.id }.count == 2)

        try nodeA.database.applyPulledPage(batch)

        let pulled = try nodeA.database.participant(id: participant.id)
        #expect(pulled.name == "Ann Okafor" && pulled.version == 2)
        var search = ParticipantQuery()
        search.text = "okafor"
        // Found by its latest name: the search text was derived from the state written.
        try #expect(nodeA.database.participants(search).items.map(\.participant.id) == [participant.id])
        try #expect(SyncExchange.snapshot(nodeA.database) == SyncExchange.snapshot(hub.database))
    }

    /// A batch in which one record is deleted and another takes its unique name: deletions are applied before the
    /// kept records are written together.
    @Test func aBatchWhereADeletionFreesANameForAnotherRecordApplies() throws {
        let choir = try hub.database.createCategory(.activityType, CategoryInput(name: "Choir"), by: actor)
        try SyncExchange.pull(nodeA.database, from: hub.database)
        let cursor = try nodeA.database.pullCursor()
        try hub.database.deleteCategory(.activityType, id: choir.id, by: actor)
        let newChoir = try hub.database.createCategory(.activityType, CategoryInput(name: "Choir"), by: actor)
        // The new record first, as a batch of pages can list it before the deletion it needs.
        let page = try hub.database.changes(after: cursor, limit: 100)
        let batch = ChangePage(changes: page.changes.reversed(), nextCursor: page.nextCursor, hasMore: false, remaining: 0)

        try nodeA.database.applyPulledPage(batch)

        try #expect(nodeA.database.categories(.activityType).filter { $0.name == "Choir" }.map(\.id) == [newChoir.id])
        try #expect(SyncExchange.snapshot(nodeA.database) == SyncExchange.snapshot(hub.database))
    }

    @Test func aRoleChangedOnTheHubAppliesOnTheNodeAfterThePull() throws {
        let user = try hub.database.createUser(NewUserInput(name: "Dee", email: "dee@example.org", role: "editor",
                                                            password: "long enough password", passwordConfirmation: "long enough password"),
                                               by: actor)
        try SyncExchange.pull(nodeA.database, from: hub.database)
        #expect(try nodeA.database.user(id: user.id).role == .editor)

        try hub.database.updateUser(id: user.id, UserChangeInput(name: "Dee", role: "read-only", isDisabled: false), by: actor)
        try SyncExchange.pull(nodeA.database, from: hub.database)

        #expect(try nodeA.database.user(id: user.id).role == .readOnly)
    }

    // Issue 36: a node re-linked after a password change on the hub re-sends its stale copy of the password hash. That
    // copy is never a conflict, and no re-applied value brings an old password back.
    @Test func aStaleCopyOfAPasswordReSentOnLinkingIsNeitherAConflictNorApplied() throws {
        let user = try hub.database.createUser(NewUserInput(name: "Gil", email: "gil@example.org", role: "administrator",
                                                            password: "old password 123", passwordConfirmation: "old password 123"),
                                               by: actor)
        try SyncExchange.pull(nodeA.database, from: hub.database)
        try hub.database.resetPassword(id: user.id, password: "new password 456", confirmation: "new password 456", by: actor)

        try nodeA.database.unlinkHub()
        try nodeA.database.linkHub(.unreachableForTests)
        let tally = try SyncExchange.push(nodeA.database, to: hub.database)
        try SyncExchange.pull(nodeA.database, from: hub.database)

        #expect(tally.conflicts == 0 && tally.rejected == 0)
        #expect(try nodeA.database.conflicts().isEmpty)
        for database in [hub.database, nodeA.database] {
            #expect(try database.verifyCredentials(email: "gil@example.org", password: "new password 456")?.id == user.id)
            #expect(try database.verifyCredentials(email: "gil@example.org", password: "old password 123") == nil)
        }
    }

    @Test func aPasswordChangedOnANodeIsSetOnTheHubWithoutAConflictWhenTheHubChangedItToo() throws {
        let user = try hub.database.createUser(NewUserInput(name: "Hana", email: "hana@example.org", role: "editor",
                                                            password: "first password 1", passwordConfirmation: "first password 1"),
                                               by: actor)
        try SyncExchange.pull(nodeA.database, from: hub.database)
        try hub.database.resetPassword(id: user.id, password: "hub password 333", confirmation: "hub password 333", by: actor)
        try nodeA.database.resetPassword(id: user.id, password: "node password 22", confirmation: "node password 22", by: actor)

        let tally = try SyncExchange.push(nodeA.database, to: hub.database)
        try SyncExchange.pull(nodeA.database, from: hub.database)

        #expect(tally.conflicts == 0)
        #expect(try nodeA.database.conflicts().isEmpty)
        #expect(try hub.database.verifyCredentials(email: "hana@example.org", password: "node password 22") != nil)
        #expect(try nodeA.database.verifyCredentials(email: "hana@example.org", password: "node password 22") != nil)
    }

    // Issue 36: an account, or a role, reaches a hub only when one of its administrators granted it.
    @Test func aNodesPushOfAnAccountIsTakenOnlyFromAnAdministratorOfTheHub() throws {
        func account(_ name: String, _ role: String, on database: AppDatabase, by author: Actor) throws -> User {
            try database.createUser(NewUserInput(name: name, email: "\(name.lowercased())@example.org", role: role,
                                                 password: "long enough password", passwordConfirmation: "long enough password"),
                                    by: author)
        }
        let administrator = try account("Ike", "administrator", on: hub.database, by: actor)
        let editor = try account("Jo", "editor", on: hub.database, by: actor)
        try SyncExchange.pull(nodeA.database, from: hub.database)
        let node = Pusher.node(signedInAs: administrator.id)

        let made = try [account("Kai", "administrator", on: nodeA.database, by: .system("setup")),
                        account("Lee", "administrator", on: nodeA.database, by: .user(UUID())),
                        account("Mo", "administrator", on: nodeA.database, by: .user(editor.id))]
        let refused = try SyncExchange.push(nodeA.database, to: hub.database, from: node)
        let granted = try account("Ned", "editor", on: nodeA.database, by: .user(administrator.id))
        let taken = try SyncExchange.push(nodeA.database, to: hub.database, from: node)

        #expect(refused.rejected == 3 && taken.applied == 1)
        for user in made { #expect(throws: DomainError.self) { try hub.database.user(id: user.id) } }
        #expect(try hub.database.user(id: granted.id).role == .editor)
        #expect(try nodeA.database.failedOperations().first?.lastError?.contains("Only an administrator of the hub") == true)
    }

    @Test func aNodesCopySentOnLinkingIsTakenWithTheRightsOfTheAccountThatLinkedIt() throws {
        let administrator = try hub.database.createUser(NewUserInput(name: "Ola", email: "ola@example.org", role: "administrator",
                                                                     password: "long enough password", passwordConfirmation: "long enough password"),
                                                        by: actor)
        let editor = try hub.database.createUser(NewUserInput(name: "Pat", email: "pat@example.org", role: "editor",
                                                              password: "long enough password", passwordConfirmation: "long enough password"),
                                                 by: actor)
        let standalone = try TestDatabase(linked: false)
        let local = try standalone.database.createUser(NewUserInput(name: "Quin", email: "quin@example.org", role: "administrator",
                                                                    password: "long enough password", passwordConfirmation: "long enough password"),
                                                       by: .system("setup"))
        try standalone.database.linkHub(.unreachableForTests)

        #expect(try SyncExchange.push(standalone.database, to: hub.database, from: .node(signedInAs: editor.id)).rejected == 1)
        try standalone.database.retryFailedOperation(try #require(try standalone.database.failedOperations().first).operationId)
        #expect(try SyncExchange.push(standalone.database, to: hub.database, from: .node(signedInAs: administrator.id)).applied == 1)
        #expect(try hub.database.user(id: local.id).email == "quin@example.org")
    }

    @Test func anOperationByAnAuthorWhoseHubRoleIsReadOnlyIsRejected() throws {
        let user = try hub.database.createUser(NewUserInput(name: "Eve", email: "eve@example.org", role: "read-only",
                                                            password: "long enough password", passwordConfirmation: "long enough password"),
                                               by: actor)
        try nodeA.database.createParticipant(ParticipantInput(name: "Fay", email: "fay@example.org"), by: .user(user.id))

        let tally = try SyncExchange.push(nodeA.database, to: hub.database)

        #expect(tally.rejected == 1)
        #expect(try nodeA.database.failedOperations().first?.lastError?.contains("Read-only") == true)
    }

    // Feature: fieldbook, Property 13: Offline Operation Queuing
    @Test func property13_offlineOperationQueuing() async throws {
        await propertyCheck(count: 20, input: Gen.int(in: 0...2).array(of: 1...25)) { steps in
            let node = try TestDatabase()
            var ids: [UUID] = []
            var effective = 0
            for (index, step) in steps.enumerated() {
                switch step {
                case 0:
                    ids.append(try node.database.createParticipant(ParticipantInput(name: "N\(index)", email: "n\(index)@example.org"),
                                                                   by: .system("test")).id)
                    effective += 1
                case 1 where !ids.isEmpty:
                    let id = ids[index % ids.count]
                    let current = try node.database.participant(id: id)
                    try node.database.updateParticipant(id: id, ParticipantInput(name: current.name + "+", email: current.email),
                                                        expectedVersion: nil, by: .system("test"))
                    effective += 1
                case 2 where !ids.isEmpty:
                    try node.database.deleteParticipant(id: ids.remove(at: index % ids.count), by: .system("test"))
                    effective += 1
                default: break
                }
            }
            let queued = try node.database.outboxEntries(limit: 10_000)
            #expect(queued.count == effective)
            #expect(queued.map(\.seq) == queued.map(\.seq).sorted())
        }
    }

    // Feature: fieldbook, Property 16: Sync Queue Processing
    @Test func property16_syncQueueProcessing() async throws {
        await propertyCheck(count: 15, input: Gen.int(in: 0...2).array(of: 1...30), Gen.int(in: 1...7)) { steps, batch in
            let hub = try TestDatabase(linked: false)
            let node = try TestDatabase()
            var ids: [UUID] = []
            for (index, step) in steps.enumerated() {
                if step == 0 || ids.isEmpty {
                    ids.append(try node.database.createParticipant(ParticipantInput(name: "Q\(index)", email: "q\(index)@example.org"),
                                                                   by: .system("test")).id)
                } else if step == 1 {
                    let id = ids[index % ids.count]
                    try node.database.updateParticipant(id: id, ParticipantInput(name: "Q\(index) renamed", email: "q@example.org"),
                                                        expectedVersion: nil, by: .system("test"))
                } else {
                    try node.database.deleteParticipant(id: ids.remove(at: index % ids.count), by: .system("test"))
                }
            }
            try SyncExchange.push(node.database, to: hub.database, batch: batch)
            #expect(try node.database.pendingOperationCount() == 0)
            #expect(try node.database.outboxEntries(limit: 10_000).isEmpty)
            let onHub = try hub.database.participants(ParticipantQuery(page: PageRequest(page: 1, perPage: 100))).items.map(\.participant.id)
            #expect(Set(onHub) == Set(ids))
        }
    }

    // Feature: fieldbook, Property 18: Queue Count Accuracy
    @Test func property18_queueCountAccuracy() async throws {
        await propertyCheck(count: 15, input: Gen.int(in: 0...4).array(of: 1...40)) { steps in
            let hub = try TestDatabase(linked: false)
            let node = try TestDatabase()
            try hub.database.createCategory(.activityType, CategoryInput(name: "Taken"), by: .system("test"))
            for (index, step) in steps.enumerated() {
                switch step {
                case 0: try node.database.createParticipant(ParticipantInput(name: "R\(index)", email: "r\(index)@example.org"), by: .system("test"))
                case 1: try? node.database.createCategory(.activityType, CategoryInput(name: "Taken"), by: .system("test"))
                case 2: try SyncExchange.push(node.database, to: hub.database, batch: 3)
                case 3: if let failed = try node.database.failedOperations().first { try node.database.retryFailedOperation(failed.operationId) }
                default: if let failed = try node.database.failedOperations().first { try node.database.discardFailedOperation(failed.operationId) }
                }
                let counted = try node.database.read { db in
                    (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM outbox WHERE state = 'pending'") ?? -1,
                     try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM outbox WHERE state = 'failed'") ?? -1)
                }
                #expect(try node.database.pendingOperationCount() == counted.0)
                #expect(try node.database.failedOperationCount() == counted.1)
            }
        }
    }
}
