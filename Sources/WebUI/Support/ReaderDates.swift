import Domain
import Translations

/// Days and months as the reader reads them. In English they keep the order the browser's region writes
/// (`DateStyle`: "28 Nov 2026" or "Nov 28, 2026"), as on every English page; in another language they are written as
/// that language writes them (`Formats`: its month names and digits).
extension Translator {
    private var writesEnglishDates: Bool { language.split(separator: "-").first?.lowercased() == "en" }

    func day(_ date: CalendarDate) -> String {
        writesEnglishDates ? date.display : formats.date(year: date.year, month: date.month, day: date.day)
    }

    func month(_ date: CalendarDate) -> String {
        writesEnglishDates ? date.monthDisplay : formats.month(year: date.year, month: date.month)
    }

    /// "12 Mar 2025 – 30 Jun 2025" or "since 12 Mar 2025, ongoing": an activity's days.
    func activityDays(start: CalendarDate, end: CalendarDate?) -> Message {
        guard let end else { return Message("since {start}, ongoing", ["start": .text(day(start))]) }
        return .verbatim("\(day(start)) – \(day(end))")
    }

    /// "1 Mar 2025 to 31 May 2025", "from 1 Mar 2025", "up to 31 May 2025", "all time".
    func range(_ range: DateRange) -> Message {
        switch (range.from, range.to) {
        case let (from?, to?): Message("{from} to {to}", context: "a range of days", ["from": .text(day(from)), "to": .text(day(to))])
        case let (from?, nil): Message("from {from}", context: "a range of days", ["from": .text(day(from))])
        case let (nil, to?): Message("up to {to}", context: "a range of days", ["to": .text(day(to))])
        case (nil, nil): Message("all time", context: "a range of days")
        }
    }
}
