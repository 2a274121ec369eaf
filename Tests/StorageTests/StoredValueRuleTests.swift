import Domain
import Foundation
import GRDB
import Records
import Storage
import Testing

/// `JSONValue.asStored` and `storesSame` say, without a database, what SQLite does with a value: both kinds of hub
/// decide pushes by them. SQLite itself is the reference here, for the values below: every integer among them is one a
/// double holds exactly, the only integers for which `Double(integer) == double` is SQLite's equality.
@Suite struct StoredValueRuleTests {
    static let values: [JSONValue] = [
        .null, .bool(true), .bool(false), .int(0), .int(1), .int(2), .int(-1), .int(1 << 40),
        .double(0), .double(1), .double(2), .double(2.5), .double(-1), .double(Double(1 << 40)),
        .string(""), .string("1"), .string("2"), .string("true"), .string("a"),
    ]

    @Test func aValueIsStoredAsSQLiteHandsItBack() throws {
        let queue = try DatabaseQueue()
        for value in Self.values {
            let handedBack = try queue.read { try DatabaseValue.fetchOne($0, sql: "SELECT ?", arguments: [value.databaseValue]) }
            #expect(value.asStored == JSONValue(handedBack ?? .null), "\(value)")
        }
    }

    @Test func twoValuesStoreTheSameWhenSQLiteFindsThemEqual() throws {
        let queue = try DatabaseQueue()
        for first in Self.values {
            for second in Self.values {
                let equal = try queue.read {
                    try Bool.fetchOne($0, sql: "SELECT ? IS ?", arguments: [first.databaseValue, second.databaseValue])
                }
                #expect(first.storesSame(as: second) == equal, "\(first) and \(second)")
            }
        }
    }
}
