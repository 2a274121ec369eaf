import Foundation
import GRDB
@testable import Storage
import Testing

/// A search of one or two letters is a LIKE over every row: on a large table a page may show its total estimated from
/// a sample, said to be one; everywhere else (small tables, rare searches, the API) the total is counted exactly.
@Suite struct ShortSearchTotalTests {
    /// `rows` rows, three in four of them holding "an".
    func table(rows: Int) throws -> TestDatabase {
        let given = try TestDatabase(linked: false)
        try given.database.pool.write { db in
            try db.execute(sql: "CREATE TABLE searched (id TEXT PRIMARY KEY NOT NULL, search_text TEXT NOT NULL)")
            try db.execute(sql: """
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
                INSERT INTO searched (id, search_text) SELECT printf('%08d', i), CASE WHEN i % 4 = 0 THEN 'zzz' || i ELSE 'dan' || i END FROM n
                """, arguments: [rows])
        }
        return given
    }

    func page(_ given: TestDatabase, _ text: String, mayEstimate: Bool) throws -> ListPage<String> {
        try given.database.pool.read { db in
            var list = ListQuery("searched s")
            list.matching(text, alias: "s")
            return try list.page(db, order: "s.id", select: "s.id", request: PageRequest(page: 1, mayEstimateTotal: mayEstimate),
                                 anchors: PageAnchors()) { $0[0] }
        }
    }

    @Test func aCommonShortSearchOfALargeTableIsEstimatedOnAPageAndSaysSo() throws {
        let given = try table(rows: 60_000)
        let estimated = try page(given, "an", mayEstimate: true)
        #expect(estimated.totalIsEstimate && estimated.total == 45_000 && estimated.items.count == 50)
        let exact = try page(given, "an", mayEstimate: false)
        #expect(!exact.totalIsEstimate && exact.total == 45_000 && exact.items == estimated.items)
        let rare = try page(given, "z5", mayEstimate: true)
        let rareCount = try given.database.pool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM searched WHERE search_text LIKE '%z5%'") }
        #expect(!rare.totalIsEstimate && rare.total == rareCount && rareCount == 2_777)
    }

    /// The page says an estimate comes from a search of one or two letters: a longer search over a table no index
    /// answers (a declared kind's) reads every row too, but is counted.
    @Test func aLongerSearchOfATableWithoutAnIndexIsCountedExactly() throws {
        let given = try table(rows: 60_000)
        let counted = try page(given, "dan", mayEstimate: true)
        #expect(!counted.totalIsEstimate && counted.total == 45_000)
    }

    @Test func aSmallTableIsCountedExactly() throws {
        let given = try table(rows: 2_000)
        let counted = try page(given, "an", mayEstimate: true)
        #expect(!counted.totalIsEstimate && counted.total == 1_500)
    }
}
