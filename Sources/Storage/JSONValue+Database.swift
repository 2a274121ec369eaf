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
    /// The text SQLite holds for this date, so a synced timestamp compares equal on every node: GRDB's storage format
    /// (`yyyy-MM-dd HH:mm:ss.SSS`, UTC, milliseconds rounded half up as ICU rounds them), written without its DateFormatter, which
    /// cost several microseconds per write, on every write (issue 15).
    var storedText: String {
        let milliseconds = (timeIntervalSince1970 * 1000 + 0.5).rounded(.down)
        guard abs(milliseconds) < 2.5e14 else { return String.fromDatabaseValue(databaseValue) ?? "" }  // beyond year 9999
        let total = Int64(milliseconds)
        let (days, dayMilliseconds) = total.floorDivided(by: 86_400_000)
        let (year, month, day) = Self.civil(fromDaysSince1970: days)
        guard (1...9999).contains(year) else { return String.fromDatabaseValue(databaseValue) ?? "" }
        var text = [UInt8](repeating: 0, count: 23)
        func put(_ value: Int64, at start: Int, digits: Int) {
            var rest = value
            for index in stride(from: start + digits - 1, through: start, by: -1) {
                text[index] = UInt8(48 + rest % 10)
                rest /= 10
            }
        }
        put(year, at: 0, digits: 4)
        put(month, at: 5, digits: 2)
        put(day, at: 8, digits: 2)
        put(dayMilliseconds / 3_600_000, at: 11, digits: 2)
        put(dayMilliseconds / 60_000 % 60, at: 14, digits: 2)
        put(dayMilliseconds / 1000 % 60, at: 17, digits: 2)
        put(dayMilliseconds % 1000, at: 20, digits: 3)
        (text[4], text[7], text[10], text[13], text[16], text[19]) = (45, 45, 32, 58, 58, 46)  // - - space : : .
        return String(decoding: text, as: UTF8.self)
    }

    /// The proleptic Gregorian date of a day number (days since 1970-01-01).
    private static func civil(fromDaysSince1970 days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

private extension Int64 {
    /// Quotient and remainder rounded toward minus infinity (a date before 1970 still has a non-negative time of day).
    func floorDivided(by divisor: Int64) -> (Int64, Int64) {
        let quotient = self / divisor, remainder = self % divisor
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }
}
