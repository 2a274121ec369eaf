import Foundation

/// Numbers, percentages and dates written the way one language writes them, through Foundation's locale data (ICU):
/// Persian with its own digits, French with its spaces, Spanish with its dots. The calendar is Gregorian in every
/// language, Persian included: records' dates, periods and analytics' months are Gregorian dates, and a month label in
/// another calendar would not match the months the figures are counted by. The styles are values made once per
/// language; Foundation keeps the ICU formatter behind each.
public struct Formats: Sendable {
    private let integer: IntegerFormatStyle<Int>
    private let ungrouped: IntegerFormatStyle<Int>
    private let percentage: FloatingPointFormatStyle<Double>.Percent
    private let tenths: FloatingPointFormatStyle<Double>.Percent
    private let calendar: Calendar
    private let day: Date.FormatStyle
    private let monthOfYear: Date.FormatStyle
    private let moment: Date.FormatStyle

    init(language: String) {
        let locale = Locale(identifier: language)
        let utc = TimeZone(identifier: "UTC")!
        var calendar = Calendar(identifier: .gregorian)
        calendar.locale = locale
        calendar.timeZone = utc
        self.calendar = calendar
        integer = IntegerFormatStyle<Int>(locale: locale)
        ungrouped = integer.grouping(.never)
        percentage = FloatingPointFormatStyle<Double>.Percent(locale: locale).precision(.fractionLength(0...1))
        tenths = FloatingPointFormatStyle<Double>.Percent(locale: locale).precision(.fractionLength(1))
        day = Date.FormatStyle(date: .abbreviated, time: .omitted, locale: locale, calendar: calendar, timeZone: utc)
        monthOfYear = Date.FormatStyle(locale: locale, calendar: calendar, timeZone: utc).month(.abbreviated).year()
        moment = Date.FormatStyle(date: .abbreviated, time: .shortened, locale: locale, calendar: calendar, timeZone: .current)
    }

    public func number(_ value: Int) -> String { value.formatted(integer) }

    /// A number written without grouping, as years and the numbers on a chart's axis are ("2026", "۲۰۲۶").
    public func digits(_ value: Int) -> String { value.formatted(ungrouped) }

    /// A fraction (0.25) as a percentage ("25%", "۲۵٪").
    public func percent(_ fraction: Double) -> String { fraction.formatted(percentage) }

    /// A fraction as a percentage to one decimal ("25.0%"), for changes compared side by side.
    public func percentToTenths(_ fraction: Double) -> String { fraction.formatted(tenths) }

    /// A calendar day, given as its Gregorian year, month and day.
    public func date(year: Int, month: Int, day: Int) -> String {
        guard let date = calendar.date(from: DateComponents(year: year, month: month, day: day)) else { return "\(year)-\(month)-\(day)" }
        return date.formatted(self.day)
    }

    /// A month of a Gregorian year ("Nov 2026").
    public func month(year: Int, month: Int) -> String {
        guard let date = calendar.date(from: DateComponents(year: year, month: month, day: 1)) else { return "\(year)-\(month)" }
        return date.formatted(monthOfYear)
    }

    /// A moment, in this machine's time zone.
    public func moment(_ date: Date) -> String { date.formatted(moment) }
}
