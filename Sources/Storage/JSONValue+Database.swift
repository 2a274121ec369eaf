import Domain
import Foundation
import GRDB

extension [String: JSONValue] {
    /// A field as form text: strings as they are, numbers written out, null and missing as empty.
    func text(_ key: String) -> String {
        switch self[key] {
        case .string(let value): value
        case .int(let value): String(value)
        case .double(let value): String(value)
        case .bool(let value): value ? "1" : "0"
        case .null, nil: ""
        }
    }
}

extension JSONValue {
    var isTrue: Bool {
        switch self {
        case .bool(let value): value
        case .int(let value): value != 0
        case .string(let value): value == "1" || value == "true"
        default: false
        }
    }

    /// How the value is stored: booleans as 0/1, as SQLite does.
    var databaseValue: DatabaseValue {
        switch self {
        case .null: .null
        case .bool(let value): (value ? 1 : 0).databaseValue
        case .int(let value): value.databaseValue
        case .double(let value): value.databaseValue
        case .string(let value): value.databaseValue
        }
    }

    /// Reads a stored value; blobs are not synced.
    init(_ value: DatabaseValue) {
        switch value.storage {
        case .null, .blob: self = .null
        case .int64(let value): self = .int(Int(value))
        case .double(let value): self = .double(value)
        case .string(let value): self = .string(value)
        }
    }

    /// Two values that store the same (true equals 1; 2.0 equals 2).
    func storesSame(as other: JSONValue) -> Bool {
        databaseValue == other.databaseValue || {
            switch (self, other) {
            case (.int(let a), .double(let b)), (.double(let b), .int(let a)): Double(a) == b
            default: false
            }
        }()
    }
}

extension Date {
    /// The text SQLite holds for this date, so a synced timestamp compares equal on every node.
    var storedText: String { String.fromDatabaseValue(databaseValue) ?? "" }
}
