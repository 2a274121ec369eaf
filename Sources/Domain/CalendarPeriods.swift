import Foundation

/// Day arithmetic without a Calendar: days are counted from 1970-01-01 in the proleptic Gregorian calendar
/// (H. Hinnant's civil-from-days), so analytics can bucket thousands of days cheaply and the same on every machine.
extension CalendarDate {
    /// A day known to exist (callers compute it from another valid day).
    init(validYear year: Int, month: Int, day: Int) {
        (self.year, self.month, self.day) = (year, month, day)
    }

    /// Days since 1970-01-01.
    public var dayNumber: Int { Self.dayNumber(year: year, month: month, day: day) }

    public init(dayNumber: Int) {
        let (year, month, day) = Self.civil(dayNumber: dayNumber)
        self.init(validYear: year, month: month, day: day)
    }

    /// Days from 1970-01-01 to a day of the proleptic Gregorian calendar; the one place this arithmetic is written
    /// (timestamps read and written by Storage and the sync wire use it too).
    public static func dayNumber(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The year, month and day of a day number (days since 1970-01-01).
    public static func civil(dayNumber: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = dayNumber + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// The day `days` after this one (negative goes back).
    public func adding(days: Int) -> CalendarDate { CalendarDate(dayNumber: dayNumber + days) }

    /// The first day of the month `months` after this day's month.
    public func firstOfMonth(adding months: Int = 0) -> CalendarDate {
        let index = year * 12 + (month - 1) + months
        return CalendarDate(validYear: index / 12, month: index % 12 + 1, day: 1)
    }

    /// Monday is 0, Sunday 6 (1970-01-01 was a Thursday).
    var daysSinceMonday: Int { ((dayNumber % 7) + 7 + 3) % 7 }
}

/// The lengths of time the growth view counts by.
public enum GrowthPeriod: String, Sendable, CaseIterable, Codable {
    case week, month, quarter, year

    public var label: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }
    public var plural: String { rawValue + "s" }

    /// The next longer period, for a range too long to show by this one.
    public var longer: GrowthPeriod? {
        switch self {
        case .week: .month
        case .month: .quarter
        case .quarter: .year
        case .year: nil
        }
    }

    /// The first day of the period that holds `date` (weeks start on Monday).
    public func start(of date: CalendarDate) -> CalendarDate {
        switch self {
        case .week: date.adding(days: -date.daysSinceMonday)
        case .month: date.firstOfMonth()
        case .quarter: date.firstOfMonth(adding: -((date.month - 1) % 3))
        case .year: date.firstOfMonth(adding: -(date.month - 1))
        }
    }

    /// The first day of the period after the one starting on `start`.
    public func next(after start: CalendarDate) -> CalendarDate {
        switch self {
        case .week: start.adding(days: 7)
        case .month: start.firstOfMonth(adding: 1)
        case .quarter: start.firstOfMonth(adding: 3)
        case .year: start.firstOfMonth(adding: 12)
        }
    }

    /// "Week of 3 Mar 2025", "Mar 2025", "Q1 2025", "2025".
    public func name(startingOn start: CalendarDate) -> String {
        switch self {
        case .week: "Week of \(start.display)"
        case .month: start.monthDisplay
        case .quarter: "Q\((start.month - 1) / 3 + 1) \(start.year)"
        case .year: String(start.year)
        }
    }
}

/// Days from `from` to `to`, both included; an open end (nil) reaches as far as the records do.
public struct DateRange: Sendable, Equatable {
    public let from: CalendarDate?
    public let to: CalendarDate?

    public init(from: CalendarDate?, to: CalendarDate?) { (self.from, self.to) = (from, to) }

    public static let allTime = DateRange(from: nil, to: nil)

    public func contains(_ day: CalendarDate) -> Bool { (from.map { $0 <= day } ?? true) && (to.map { day <= $0 } ?? true) }

    /// Whether something running from `start` to `end` (nil: ongoing) shares at least one day with the range.
    public func overlaps(start: CalendarDate, end: CalendarDate?) -> Bool {
        (to.map { start <= $0 } ?? true) && (from.map { from in end.map { $0 >= from } ?? true } ?? true)
    }

    /// "1 Mar 2025 to 31 May 2025", "all time", "up to 31 May 2025".
    public var text: String {
        switch (from, to) {
        case let (from?, to?): "\(from.display) to \(to.display)"
        case let (from?, nil): "from \(from.display)"
        case let (nil, to?): "up to \(to.display)"
        case (nil, nil): "all time"
        }
    }
}

/// The ranges offered with one click; `custom` takes the typed dates.
public enum DateRangePreset: String, Sendable, CaseIterable, Codable {
    case last30Days = "last-30-days", thisQuarter = "this-quarter", last12Months = "last-12-months", allTime = "all-time", custom

    public var label: String {
        switch self {
        case .last30Days: "Last 30 days"
        case .thisQuarter: "This quarter"
        case .last12Months: "Last 12 months"
        case .allTime: "All time"
        case .custom: "Dates I choose"
        }
    }

    /// The range on `today`: the last 30 days end today; this quarter is the whole calendar quarter; the last 12 months
    /// are this calendar month and the 11 before it, so monthly growth shows 12 whole months. nil for `custom`.
    public func range(today: CalendarDate) -> DateRange? {
        switch self {
        case .last30Days: DateRange(from: today.adding(days: -29), to: today)
        case .thisQuarter:
            DateRange(from: GrowthPeriod.quarter.start(of: today), to: GrowthPeriod.quarter.start(of: today).firstOfMonth(adding: 3).adding(days: -1))
        case .last12Months: DateRange(from: today.firstOfMonth(adding: -11), to: today.firstOfMonth(adding: 1).adding(days: -1))
        case .allTime: .allTime
        case .custom: nil
        }
    }
}

extension CalendarDate: Codable {
    public init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let date = CalendarDate(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a YYYY-MM-DD date: \(text)"))
        }
        self = date
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
