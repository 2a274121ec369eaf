import Domain
import Foundation
import GRDB

extension [String: JSONValue] {
    /// A field as form text: strings as they are, numbers written out, null and missing as empty.
    public func text(_ key: String) -> String {
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

    /// The value as SQLite would hand it back once stored (true becomes 1), so every kind of hub answers alike.
    public var asStored: JSONValue { JSONValue(databaseValue) }

    /// Two values that store the same (true equals 1; 2.0 equals 2).
    public func storesSame(as other: JSONValue) -> Bool {
        databaseValue == other.databaseValue || {
            switch (self, other) {
            case (.int(let a), .double(let b)), (.double(let b), .int(let a)): Double(a) == b
            default: false
            }
        }()
    }
}

extension Date {
    /// The text SQLite holds for this date, so a synced timestamp compares equal on every node: GRDB's storage format
    /// (`yyyy-MM-dd HH:mm:ss.SSS`, UTC, milliseconds rounded half up as Foundation's DateFormatter rounds them before
    /// ICU), written without that DateFormatter, which cost several microseconds per write, on every write, and woke
    /// ICU's calendar and time zone data in every server (issue 15).
    public var storedText: String {
        TimestampText.text(self, .stored) ?? String.fromDatabaseValue(databaseValue) ?? ""
    }
}

extension Row {
    /// A timestamp column as GRDB reads it, without its sscanf-based parser for the shape Fieldbook writes
    /// (`storedText`: `yyyy-MM-dd HH:mm:ss.SSS`, UTC); any other shape is left to GRDB. A list of 50 records read
    /// 100 dates, and parsing them was a visible part of the page's time (issue 15).
    func storedDate(_ column: String) -> Date {
        let value: DatabaseValue = self[column]
        if case .string(let text) = value.storage, let date = StoredDate.parse(text) { return date }
        return Date.fromDatabaseValue(value) ?? Date(timeIntervalSince1970: 0)
    }
}

/// Reads `yyyy-MM-dd HH:mm:ss.SSS` (or without the milliseconds), UTC, from the year 1600 (earlier days Foundation's
/// calendar counts in the Julian calendar) and for days 1–28 (later ones may not exist): anything else is left to GRDB.
enum StoredDate {
    static func parse(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { bytes -> Date? in
            guard bytes.count == 23 || bytes.count == 19, bytes[4] == 45, bytes[7] == 45, bytes[10] == 32, bytes[13] == 58,
                  bytes[16] == 58, bytes.count == 19 || bytes[19] == 46 else { return nil }
            func number(_ start: Int, _ count: Int) -> Int? { ASCIIDigits.value(bytes, from: start, count: count) }
            guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2), let hour = number(11, 2),
                  let minute = number(14, 2), let second = number(17, 2), year >= 1600, (1...12).contains(month), (1...28).contains(day),
                  hour < 24, minute < 60, second < 60, let milliseconds = bytes.count == 23 ? number(20, 3) : 0 else { return nil }
            let daysSince2001 = CalendarDate.dayNumber(year: year, month: month, day: day) - 11_323
            // Summed in Foundation's calendar's order (the time of day with its fraction first, then added to the day's
            // start), so the Double is GRDB's to the last bit.
            let secondsInDay = Double(hour * 3_600 + minute * 60 + second) + Double(milliseconds * 1_000_000) / 1_000_000_000
            return Date(timeIntervalSinceReferenceDate: Double(daysSince2001 * 86_400) + secondsInDay)
        }
    }
}
