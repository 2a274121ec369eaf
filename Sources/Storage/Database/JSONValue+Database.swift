import Domain
import Foundation
import GRDB
import Records

extension JSONValue {
    public var isTrue: Bool {
        switch self {
        case .bool(let value): value
        case .int(let value): value != 0
        case .string(let value): value == "1" || value == "true"
        default: false
        }
    }

    /// How the value is stored: booleans as 0/1, as SQLite does.
    public var databaseValue: DatabaseValue {
        switch self {
        case .null: .null
        case .bool(let value): (value ? 1 : 0).databaseValue
        case .int(let value): value.databaseValue
        case .double(let value): value.databaseValue
        case .string(let value): value.databaseValue
        }
    }

    /// Reads a stored value; blobs are not synced.
    public init(_ value: DatabaseValue) {
        switch value.storage {
        case .null, .blob: self = .null
        case .int64(let value): self = .int(Int(value))
        case .double(let value): self = .double(value)
        case .string(let value): self = .string(value)
        }
    }

    /// A stored moment as the stored text `StoredInstant` reads: text in another shape GRDB accepts (a `T`, no
    /// seconds, a `Z` or an offset, more fraction digits, a number of seconds) is read by GRDB and written again in the
    /// stored shape, so every reader of a column sees the moment GRDB sees.
    init(instant value: DatabaseValue) {
        // Only the shape is checked here: the field's codec parses the text once, as it does any stored moment.
        if case .string(let text) = value.storage, StoredInstant.hasStoredShape(text) { self = .string(text); return }
        guard let date = Date.fromDatabaseValue(value) else { self = JSONValue(value); return }
        self = .string(StoredInstant.text(date))
    }
}

extension Row {
    /// A timestamp column as GRDB reads it, without its sscanf-based parser for the shape Fieldbook writes
    /// (`storedText`: `yyyy-MM-dd HH:mm:ss.SSS`, UTC), as list pages read two dates a row; any other shape is left to
    /// GRDB.
    func storedDate(_ column: String) -> Date {
        let value: DatabaseValue = self[column]
        if case .string(let text) = value.storage, let date = StoredInstant.parse(text) { return date }
        return Date.fromDatabaseValue(value) ?? Date(timeIntervalSince1970: 0)
    }
}
