import Foundation

/// A day in the calendar, stored and exchanged as `YYYY-MM-DD` (what `<input type="date">` sends).
public struct CalendarDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// Parses `YYYY-MM-DD` (spaces around it allowed), refusing impossible days such as 2025-02-30. Reads the bytes:
    /// a list page reads two dates a row, and Foundation's trimming and splitting showed in that page's time.
    public init?(_ text: String) {
        let isDigit = { (byte: UInt8?) in byte.map { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } ?? false }
        // Spaces around the date (a spreadsheet's cell) are trimmed as any Unicode space; a stored date has none.
        var text = isDigit(text.utf8.first) && isDigit(text.utf8.last) ? text : text.trimmingCharacters(in: .whitespaces)
        let parsed: (Int, Int, Int)? = text.withUTF8 { all in
            guard all.count == 10, all[4] == UInt8(ascii: "-"), all[7] == UInt8(ascii: "-"),
                  let year = ASCIIDigits.value(all, from: 0, count: 4), let month = ASCIIDigits.value(all, from: 5, count: 2),
                  let day = ASCIIDigits.value(all, from: 8, count: 2) else { return nil }
            return (year, month, day)
        }
        guard let (year, month, day) = parsed, (1...12).contains(month), (1...Self.daysIn(month: month, year: year)).contains(day),
              year >= 1 else { return nil }
        (self.year, self.month, self.day) = (year, month, day)
    }

    /// Today in the server's time zone (TZ, else /etc/localtime), in the Gregorian calendar. Read from the C library's
    /// local time, the zone Foundation's `TimeZone.current` reads too: `Calendar.current` woke ICU's calendar and zone
    /// data, held resident from then on, for this one date.
    public static func today(_ now: Date = Date()) -> CalendarDate {
        var seconds = time_t(now.timeIntervalSince1970.rounded(.down))
        var local = tm()
        guard localtime_r(&seconds, &local) != nil else { return CalendarDate(dayNumber: Int((now.timeIntervalSince1970 / 86_400).rounded(.down))) }
        return CalendarDate(validYear: Int(local.tm_year) + 1900, month: Int(local.tm_mon) + 1, day: Int(local.tm_mday))
    }

    public var description: String {
        // A day counted past 9999-12-31 (`adding(days:)`) has more digits than `init` reads; written as before.
        guard (0...9999).contains(year) else { return String(format: "%04d-%02d-%02d", year, month, day) }
        return String(unsafeUninitializedCapacity: 10) { text in
            func digits(_ value: Int, endingAt end: Int, count: Int) {
                var rest = value
                for index in stride(from: end - 1, through: end - count, by: -1) {
                    text[index] = UInt8(ascii: "0") + UInt8(rest % 10)
                    rest /= 10
                }
            }
            digits(year, endingAt: 4, count: 4)
            text[4] = UInt8(ascii: "-")
            digits(month, endingAt: 7, count: 2)
            text[7] = UInt8(ascii: "-")
            digits(day, endingAt: 10, count: 2)
            return 10
        }
    }

    /// "12 Mar 2025" (or "Mar 12, 2025", "2025-03-12": the reader's `DateStyle`), for pages and messages.
    public var display: String { DateStyle.current.text(year: year, month: month, day: day) }

    /// "Mar 2025" (or "2025-03"), for a month.
    public var monthDisplay: String { DateStyle.current.text(year: year, month: month) }

    public static func < (lhs: CalendarDate, rhs: CalendarDate) -> Bool { (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day) }

    /// How many days a month of a year has (proleptic Gregorian).
    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
