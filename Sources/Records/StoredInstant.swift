import Domain
import Foundation

/// A moment as SQLite holds it: GRDB's storage text, `yyyy-MM-dd HH:mm:ss.SSS` in UTC, so a synced timestamp compares
/// equal on every node and in every store.
public enum StoredInstant {
    /// The stored text, written without a DateFormatter (`TimestampText`), except outside the years it covers.
    public static func text(_ date: Date) -> String {
        TimestampText.text(date, .stored) ?? formatter.string(from: date)
    }

    /// The moment a stored value names: stored text (or an ISO 8601 variant of it), or seconds since 1970 as GRDB
    /// reads a number; nil for anything else.
    public static func date(_ value: JSONValue) -> Date? {
        switch value {
        case .string(let text): parse(text) ?? calendarDate(text)
        case .int(let seconds): Date(timeIntervalSince1970: Double(seconds))
        case .double(let seconds): Date(timeIntervalSince1970: seconds)
        case .bool, .null: nil
        }
    }

    /// Reads `yyyy-MM-dd HH:mm:ss.SSS` (or without the milliseconds), UTC, from the year 1600 (earlier days Foundation's
    /// calendar counts in the Julian calendar) and for days 1–28 (later ones may not exist); nil for anything else.
    public static func parse(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { bytes -> Date? in
            guard hasStoredShape(bytes) else { return nil }
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

    /// Whether the text is laid out as stored text, `yyyy-MM-dd HH:mm:ss[.SSS]` (its digits unchecked): a moment in any
    /// other shape is one a store must first read its own way.
    public static func hasStoredShape(_ text: String) -> Bool {
        var text = text
        return text.withUTF8(hasStoredShape)
    }

    private static func hasStoredShape(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        (bytes.count == 23 || bytes.count == 19) && bytes[4] == 45 && bytes[7] == 45 && bytes[10] == 32 && bytes[13] == 58
            && bytes[16] == 58 && (bytes.count == 19 || bytes[19] == 46)
    }

    /// The other days `parse` leaves alone, read as GRDB reads them: the parts `yyyy-MM-dd[ T]HH:mm[:ss[.SSS]]` given to
    /// a UTC Gregorian calendar.
    private static func calendarDate(_ text: String) -> Date? {
        let parts = text.split(whereSeparator: { "-: T.".contains($0) }).map { Int($0) }
        guard parts.count >= 3, parts.allSatisfy({ $0 != nil }) else { return nil }
        let numbers = parts.map { $0! }
        let fraction = text.split(separator: ".").dropFirst().first.map { "0." + $0 }.flatMap(Double.init) ?? 0
        let components = DateComponents(year: numbers[0], month: numbers[1], day: numbers[2], hour: numbers.count > 3 ? numbers[3] : 0,
                                        minute: numbers.count > 4 ? numbers[4] : 0, second: numbers.count > 5 ? numbers[5] : 0,
                                        nanosecond: Int(fraction * 1.0e9))
        return calendar.date(from: components).map { Date(timeIntervalSinceReferenceDate: $0.timeIntervalSinceReferenceDate) }
    }

    private static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.locale = Locale(identifier: "en_US_POSIX")
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        return calendar
    }()

    private static let formatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss.SSS"
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        return formatter
    }()
}

extension Date {
    /// The text every store holds for this moment (`StoredInstant`).
    public var storedText: String { StoredInstant.text(self) }
}
