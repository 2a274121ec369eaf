import Domain
import Foundation
import Synchronization
@testable import Storage
import Testing

/// Collects what a database's change feed publishes.
final class FeedRecorder: Sendable {
    private let batches = Mutex<[CommittedChanges]>([])

    init(_ database: AppDatabase) {
        database.changeFeed.subscribe { [weak self] committed in self?.batches.withLock { $0.append(committed) } }
    }

    var received: [CommittedChanges] { batches.withLock { $0 } }
    var changes: [RecordChange] { received.flatMap(\.changes) }
}

@Suite struct ChangeFeedTests {
    let actor = Actor.system("feed-test")

    @Test(arguments: [true, false])
    func everyCommittedWritePublishesWhatChangedLinkedOrStandalone(linked: Bool) throws {
        let given = try TestDatabase(linked: linked)
        let feed = FeedRecorder(given.database)
        let area = try given.database.createArea(AreaInput(name: "Town", areaType: "CITY", parentId: ""), by: actor)
        let venue = try given.database.createVenue(VenueInput(name: "Hall", address: "1 Road", areaId: area.id.uuidString), by: actor)
        let person = try given.database.createParticipant(ParticipantInput(name: "Ann", email: "ann@example.org",
                                                                           homeVenueId: venue.id.uuidString), by: actor)
        try given.database.updateParticipant(id: person.id, ParticipantInput(name: "Ann B", email: "ann@example.org",
                                                                              homeVenueId: venue.id.uuidString), expectedVersion: 1, by: actor)
        try given.database.deleteParticipant(id: person.id, by: actor)

        let changes = feed.changes
        #expect(changes.map(\.kind) == ["geographic_area", "venue", "participant", "participant_address", "participant", "participant"])
        #expect(changes.map(\.operation) == [.create, .create, .create, .create, .update, .delete])
        #expect(changes.allSatisfy { $0.author == actor.recorded })
        #expect(changes[2].id == person.id && changes[4].id == person.id)
        #expect(feed.received.count == 5, "one batch per committed transaction")
        #expect(feed.received.allSatisfy { $0.origin == .local && $0.queuedForHub == linked })
    }

    @Test func anEditThatChangesNothingPublishesNothing() throws {
        let given = try TestDatabase()
        let area = try given.database.createArea(AreaInput(name: "Town", areaType: "CITY", parentId: ""), by: actor)
        let feed = FeedRecorder(given.database)
        let outbox = try given.outboxCount()
        try given.database.updateArea(id: area.id, AreaInput(name: "Town", areaType: "CITY", parentId: ""), expectedVersion: nil, by: actor)
        #expect(feed.received.isEmpty)
        #expect(try given.outboxCount() == outbox)
        #expect(try given.database.area(id: area.id).version == 1)
    }

    @Test func writesInOneTransactionCommitTogetherAndPublishOnce() throws {
        let given = try TestDatabase()
        let feed = FeedRecorder(given.database)
        let venue = try given.database.transaction(by: actor) { transaction in
            let area = try transaction.create(GeographicArea.self, AreaInput(name: "Town", areaType: "CITY", parentId: "").validated())
            let venue = try transaction.create(Venue.self, VenueInput(name: "Hall", address: "1 Road", areaId: area.id.uuidString).validated())
            try transaction.create(Participant.self, ParticipantInput(name: "Ann", email: "ann@example.org", homeVenueId: venue.id.uuidString)
                .validated())
            return venue
        }
        #expect(feed.received.count == 1)
        #expect(feed.changes.count == 4)
        #expect(try given.outboxCount() == 4)
        #expect(try given.database.venue(id: venue.id).name == "Hall")
    }

    @Test func aTransactionThatFailsWritesNothingQueuesNothingAndPublishesNothing() throws {
        let given = try TestDatabase()
        let feed = FeedRecorder(given.database)
        #expect(throws: ValidationError.self) {
            try given.database.transaction(by: actor) { transaction in
                try transaction.create(GeographicArea.self, AreaInput(name: "Town", areaType: "CITY", parentId: "").validated())
                // The second row refers to a venue that does not exist: the whole transaction is refused.
                try transaction.create(Participant.self, ParticipantInput(name: "Ann", email: "ann@example.org", homeVenueId: UUID().uuidString)
                    .validated())
            }
        }
        #expect(try given.database.areaTree().isEmpty)
        #expect(try given.outboxCount() == 0)
        #expect(feed.received.isEmpty)
    }

    @Test func changesPushedToAHubAndPulledByANodeArePublishedThere() throws {
        let hub = try TestDatabase(linked: false)
        let author = try TestDatabase()
        let reader = try TestDatabase()
        let hubFeed = FeedRecorder(hub.database)
        let readerFeed = FeedRecorder(reader.database)
        let area = try author.database.createArea(AreaInput(name: "Town", areaType: "CITY", parentId: ""), by: .system("author"))
        let queued = try author.database.pendingOperations(limit: 100)
        try SyncExchange.push(author.database, to: hub.database)
        #expect(hubFeed.received.map(\.origin) == [.pushed])
        // The same operations again (a node whose answer was lost) change nothing, so nothing more is published.
        _ = try hub.database.applyPush(PushRequest(nodeId: try author.database.nodeId(), operations: queued.map(\.syncOperation)))
        #expect(hubFeed.received.count == 1)
        #expect(hubFeed.changes == [RecordChange(kind: "geographic_area", id: area.id, operation: .create, author: "system:author",
                                                 at: hubFeed.changes.first?.at ?? Date())])
        try SyncExchange.pull(reader.database, from: hub.database)
        #expect(readerFeed.received.allSatisfy { $0.origin == .pulled && !$0.queuedForHub })
        #expect(readerFeed.changes.map(\.id).contains(area.id))
    }
}
