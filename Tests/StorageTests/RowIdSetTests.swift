import Foundation
import GRDB
import PropertyBased
@testable import Storage
import Testing

/// `RowIdSet`'s two SQL functions, on a real database connection: a set built from any rowids holds exactly them.
@Suite struct RowIdSetTests {
    /// Builds a set in SQLite from `rowIds` (in the given order, repeats kept) and asks it about each of `probes`.
    private func answers(_ rowIds: [Int64], probes: [Int64]) throws -> (set: Data?, held: [Int64]) {
        let given = try TestDatabase(linked: false)
        return try given.database.pool.write { db in
            try db.execute(sql: "CREATE TEMP TABLE given (position INTEGER PRIMARY KEY, row_id INTEGER NOT NULL)")
            for rowId in rowIds { try db.execute(sql: "INSERT INTO given (row_id) VALUES (?)", arguments: [rowId]) }
            let set = try Data.fetchOne(db, sql: "SELECT \(RowIdSet.build)(row_id) FROM (SELECT row_id FROM given ORDER BY position)")
            let held = try probes.filter { probe in
                try Bool.fetchOne(db, sql: "SELECT \(RowIdSet.contains)(?, ?)", arguments: [set, probe]) ?? false
            }
            return (set, held)
        }
    }

    @Test func aSetHoldsExactlyTheRowIdsItWasBuiltFrom() async throws {
        // Rowids around a base that may be negative, in any order, some twice; probes on both sides of every edge.
        await propertyCheck(count: 60, input: Gen.int(in: -70...70).array(of: 1...40), Gen.int(in: -1_000...1_000)) { offsets, base in
            let rowIds = offsets.map { Int64(base + $0 * ($0 % 3 == 0 ? 7 : 1)) }
            let probes = Array(Int64(base - 500)...Int64(base + 500))
            let (set, held) = try answers(rowIds, probes: probes)
            #expect(set != nil)
            #expect(held == probes.filter(Set(rowIds).contains))
        }
    }

    @Test func noRowsGiveNoSetAndANullSetHoldsNothing() throws {
        let (set, held) = try answers([], probes: [0, 1, -1])
        #expect(set == nil)
        #expect(held.isEmpty)
    }

    /// A span of rowids wider than a set may cover gives NULL, so the caller reads the matches another way.
    @Test func aSpanTooWideGivesNoSet() throws {
        #expect(try answers([1, RowIdSet.widestSpan], probes: [1]).held == [1])
        #expect(try answers([1, RowIdSet.widestSpan + 1], probes: [1]).set == nil)
        #expect(try answers([Int64.min, Int64.max], probes: [Int64.min]).set == nil)
    }

    /// A probe far from the set's rowids, on either side and at Int64's ends, is answered without reading past the set.
    @Test func probesFarOutsideTheSetAreNotHeld() throws {
        let (_, held) = try answers([Int64.max - 2, Int64.max], probes: [Int64.min, -1, 0, Int64.max - 3, Int64.max - 2, Int64.max - 1, Int64.max])
        #expect(held == [Int64.max - 2, Int64.max])
    }

    /// DIRECTONLY: a view in the database file cannot call them (a file from elsewhere must not reach native code).
    @Test func aViewCannotCallThem() throws {
        let given = try TestDatabase(linked: false)
        try given.database.pool.write { db in
            for (function, call) in [(RowIdSet.contains, "\(RowIdSet.contains)(NULL, 1)"), (RowIdSet.build, "\(RowIdSet.build)(1)")] {
                try db.execute(sql: "CREATE VIEW calls_\(function) AS SELECT \(call) AS answer")
                let refusal = #expect(throws: DatabaseError.self) { try Row.fetchOne(db, sql: "SELECT answer FROM calls_\(function)") }
                #expect(refusal?.message?.contains("unsafe use of \(function)") == true, "\(String(describing: refusal))")
            }
        }
    }
}
