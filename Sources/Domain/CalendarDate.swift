import Foundation

/// A day in the calendar, stored and exchanged as `YYYY-MM-DD` (what `<input type="date">` sends).
public struct CalendarDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// Parses `YYYY-MM-DD`, refusing impossible days such as 2025-02-30.
    public init?(_ text: String) {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
              (1...12).contains(month), (1...Self.daysIn(month: month, year: year)).contains(day), year >= 1 else { return nil }
        (self.year, self.month, self.day) = (year, month, day)
    }

    /// Today in the server's time zone.
    public static func today(_ now: Date = Date()) -> CalendarDate {
        let parts = Calendar.current.dateComponents([.year, .month, .day], from: now)
        return CalendarDate(String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!))!
    }

    public var description: String { String(format: "%04d-%02d-%02d", year, month, day) }

    /// "12 Mar 2025" (or "Mar 12, 2025", "2025-03-12": the reader's `DateStyle`), for pages and messages.
    public var display: String { DateStyle.current.text(year: year, month: month, day: day) }

    /// "Mar 2025" (or "2025-03"), for a month.
    public var monthDisplay: String { DateStyle.current.text(year: year, month: month) }

    public static func < (lhs: CalendarDate, rhs: CalendarDate) -> Bool { lhs.description < rhs.description }

    /// How many days a month of a year has (proleptic Gregorian).
    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
