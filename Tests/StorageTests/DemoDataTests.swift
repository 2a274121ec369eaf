import Domain
import Foundation
import GRDB
@testable import Storage
import Testing

@Suite struct DemoDataTests {
    let size = DemoCommunity.Size(venues: 40, participants: 300, activities: 80)
    let today = CalendarDate("2026-06-15")!

    @Test func aDemoCommunityIsConsistentAndFullyRecorded() throws {
        let given = try TestDatabase()
        let summary = try given.database.importDemoCommunity(size: size, seed: 7, today: today)
        #expect(summary.venues == 40 && summary.participants == 300 && summary.activities == 80)
        let tree = try given.database.areaTree()
        #expect(tree.count == summary.areas)
        #expect((tree.map(\.depth).max() ?? 0) >= 4, "World > continent > country > region > city > neighbourhood")
        let rows = summary.areas + summary.venues + summary.participants + summary.addressPeriods + summary.activities
            + summary.venuePeriods + summary.assignments
        #expect(try given.outboxCount() == rows, "every created row has exactly one outbox entry")
        func count(_ sql: String, _ arguments: StatementArguments = []) throws -> Int {
            try given.database.pool.read { db in try Int.fetchOne(db, sql: sql, arguments: arguments) ?? 0 }
        }
        #expect(try given.database.pool.read { db in try Row.fetchAll(db, sql: "PRAGMA foreign_key_check") }.isEmpty)
        #expect(try count("""
            SELECT COUNT(*) FROM participants p WHERE home_venue_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM participant_address_history h
            WHERE h.participant_id = p.id AND h.venue_id = p.home_venue_id AND h.effective_to IS NULL)
            """) == 0, "each home venue has its open address period")
        #expect(try count("SELECT COUNT(*) FROM activities WHERE end_date IS NOT NULL AND end_date <= start_date") == 0)
        #expect(try count("SELECT COUNT(*) FROM activities WHERE status = 'PLANNED' AND start_date <= ?", [today.description]) == 0)
        #expect(try count("SELECT COUNT(DISTINCT status) FROM activities") == 4)
        #expect(try count("SELECT COUNT(*) FROM activities WHERE end_date IS NULL") > 0)
        #expect(try given.database.participants(ParticipantQuery(text: "émile")).total
                == (try given.database.participants(ParticipantQuery(text: "EMILE")).total))
    }

    /// The import builds the search indexes once at its end (`DeferredIndexes`): it leaves the schema a fresh database
    /// has, and a search finds every record whose text holds the query.
    @Test func aDemoCommunityEndsWithEveryIndexAndItsSearch() throws {
        let given = try TestDatabase(), fresh = try TestDatabase()
        try given.database.importDemoCommunity(size: size, seed: 7, today: today)
        func schema(_ database: AppDatabase) throws -> [String: String] {
            try database.read { db in
                Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT name, sql FROM sqlite_master WHERE sql IS NOT NULL")
                    .map { ($0["name"] as String, $0["sql"] as String) })
            }
        }
        #expect(try schema(given.database) == schema(fresh.database))
        let holding = try given.database.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM participants WHERE search_text LIKE '%son%'") ?? 0
        }
        #expect(holding > 0)
        #expect(try given.database.participantMatches("son").total == holding)
        #expect(try given.database.read { try String.fetchAll($0, sql: "SELECT key FROM settings WHERE key LIKE 'schema.%'") } == [])
    }

    /// The bulk writes keep their statement journals in memory, the index builds at the end do not: with temporary
    /// storage in memory SQLite's sorter never spills to files, so a large build would sort in the heap.
    @Test func theSearchIndexesAreRebuiltWithTemporaryStorageInFiles() throws {
        let given = try TestDatabase()
        final class Statements { var sql: [String] = [] }
        let seen = Statements()
        var inMemory = try given.database.pool.writeWithoutTransaction { db in
            db.trace { event in if case .statement(let statement) = event { seen.sql.append(statement.sql) } }
            return try Int.fetchOne(db, sql: "PRAGMA temp_store") == 2
        }
        try given.database.importDemoCommunity(size: size, seed: 7, today: today)
        var rebuilds = 0
        for sql in seen.sql {
            if sql.hasPrefix("PRAGMA temp_store") { inMemory = sql.hasSuffix("MEMORY") }
            if sql.contains("'rebuild'") || sql.hasPrefix("CREATE TRIGGER") {
                rebuilds += 1
                #expect(!inMemory, "\(sql)")
            }
        }
        #expect(rebuilds > 0)
        #expect(seen.sql.contains("PRAGMA temp_store = MEMORY"), "the bulk writes keep their journals in memory")
    }

    @Test func theSameSeedGivesTheSameCommunity() {
        let first = DemoCommunity.generate(size: size, seed: 42, today: today, typeCount: 8, roleCount: 6)
        let second = DemoCommunity.generate(size: size, seed: 42, today: today, typeCount: 8, roleCount: 6)
        let other = DemoCommunity.generate(size: size, seed: 43, today: today, typeCount: 8, roleCount: 6)
        #expect(first.participants.map(\.name) == second.participants.map(\.name))
        #expect(first.activities.map(\.id) == second.activities.map(\.id))
        #expect(first.participants.map(\.name) != other.participants.map(\.name))
    }

    @Test func anExistingCommunityIsNeverMixedWithDemoData() throws {
        let given = try TestDatabase()
        try given.database.createArea(AreaInput(name: "Home", areaType: "CITY", parentId: ""), by: .system("test"))
        #expect(throws: DomainError.self) { try given.database.importDemoCommunity(size: size, seed: 1) }
        #expect(try given.database.venues(VenueQuery()).total == 0)
    }
}
