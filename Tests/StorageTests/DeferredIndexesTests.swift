import Domain
import Foundation
import GRDB
import Testing
@testable import Storage

/// A first sync drops the synced tables' secondary and search indexes on its first page and builds them on its last
/// (`DeferredIndexes`): whatever happens in between, the node ends with the schema a fresh database has.
@Suite struct DeferredIndexesTests {
    let hub: TestDatabase
    let node: TestDatabase
    let fresh: TestDatabase
    let actor = Actor.system("test")

    init() throws {
        hub = try TestDatabase(linked: false)
        node = try TestDatabase()
        fresh = try TestDatabase()
        for index in 0..<30 {
            try hub.database.createParticipant(ParticipantInput(name: "Person \(index) Okafor", email: "p\(index)@example.org"), by: actor)
        }
    }

    /// Every index and trigger, with its definition.
    private func schema(_ database: AppDatabase) throws -> [String: String] {
        try database.read { db in
            Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT name, sql FROM sqlite_master WHERE type IN ('index', 'trigger') AND sql IS NOT NULL")
                .map { ($0["name"] as String, $0["sql"] as String) })
        }
    }

    private func applyFirstPage() throws {
        let page = try hub.database.changes(after: 0, limit: 10)
        #expect(page.hasMore)
        try node.database.applyPulledPage(page)
    }

    @Test func aFirstSyncInPagesDropsTheIndexesThenEndsWithEveryOneAndItsSearch() throws {
        try applyFirstPage()
        let during = try schema(node.database)
        #expect(during["participants_name_id"] == nil && during["participants_fts_insert"] == nil)
        #expect(during["sqlite_autoindex_participants_1"] == nil, "unique indexes have no sql and stay")
        #expect(try node.database.read { try RowCounts.count($0, table: "participants") } == 10)

        try SyncExchange.pull(node.database, from: hub.database, page: 7)

        #expect(try schema(node.database) == schema(fresh.database))
        #expect(try node.database.participantMatches("okafor").total == 30)
        #expect(try node.database.participantMatches("son 29").total == 1)
        #expect(try node.database.read { try String.fetchAll($0, sql: "SELECT key FROM settings WHERE key LIKE 'schema.%'") } == [])
    }

    @Test func aFirstSyncCutOffPartWayHasItsIndexesBackWhenTheDatabaseIsOpenedAgain() throws {
        try applyFirstPage()
        #expect(try schema(node.database) != schema(fresh.database))

        let reopened = try AppDatabase(path: node.database.path, passwordCost: .test)

        #expect(try schema(reopened) == schema(fresh.database))
        #expect(try reopened.participantMatches("okafor").total == 10)
        // The rest of the sync keeps the indexes up row by row.
        try SyncExchange.pull(reopened, from: hub.database, page: 7)
        #expect(try schema(reopened) == schema(fresh.database))
        #expect(try reopened.participantMatches("okafor").total == 30)
    }

    @Test func unlinkingPartWayThroughAFirstSyncBringsTheIndexesBack() throws {
        try applyFirstPage()
        try node.database.unlinkHub()
        #expect(try schema(node.database) == schema(fresh.database))
        #expect(try node.database.participantMatches("okafor").total == 10)
    }

    @Test func aParticipantMadeHereDuringTheFirstSyncIsFoundAfterIt() throws {
        try applyFirstPage()
        try node.database.createParticipant(ParticipantInput(name: "Local Mwangi", email: "local@example.org"), by: actor)
        try SyncExchange.pull(node.database, from: hub.database, page: 7)
        #expect(try node.database.participantMatches("mwangi").total == 1)
        #expect(try node.database.participantMatches("okafor").total == 30)
    }

    @Test func laterPullsKeepTheIndexesUpRowByRow() throws {
        try SyncExchange.pull(node.database, from: hub.database, page: 50)
        for index in 30..<45 {
            try hub.database.createParticipant(ParticipantInput(name: "Later \(index)", email: "l\(index)@example.org"), by: actor)
        }
        let page = try hub.database.changes(after: node.database.pullCursor(), limit: 5)
        #expect(page.hasMore)
        try node.database.applyPulledPage(page)
        #expect(try schema(node.database) == schema(fresh.database))
    }

    /// A writer that reads the secondary indexes as it goes (demo data) defers the search indexes alone.
    @Test func deferringTheSearchAloneKeepsTheSecondaryIndexes() throws {
        try node.database.writeLocal { try DeferredIndexes.dropUntilRestored($0, indexes: false) }
        let during = try schema(node.database)
        #expect(during["participants_fts_insert"] == nil && during["venues_fts_update"] == nil)
        #expect(during["participants_name_id"] != nil && during["participant_address_history_participant"] != nil)
        try node.database.createParticipant(ParticipantInput(name: "Ada Okafor", email: "ada@example.org"), by: actor)
        try node.database.writeLocal(DeferredIndexes.restore)
        #expect(try schema(node.database) == schema(fresh.database))
        #expect(try node.database.participantMatches("okafor").total == 1)
    }
}
