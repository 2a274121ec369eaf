import Foundation

/// Numbers, percentages and dates written the way one language writes them, through Foundation's locale data (ICU):
/// Persian with its own digits, French with its spaces, Spanish with its dots. The calendar is Gregorian in every
/// language, Persian included: records' dates, periods and analytics' months are Gregorian dates, and a month label in
/// another calendar would not match the months the figures are counted by. The styles are values made once per
/// language; Foundation keeps the ICU formatter behind each.
public struct Formats: Sendable {
    private let integer: IntegerFormatStyle<Int>
    private let percentage: FloatingPointFormatStyle<Double>.Percent
    private let day: Date.FormatStyle
    private let moment: Date.FormatStyle

    init(language: String) {
        let locale = Locale(identifier: language)
        var calendar = Calendar(identifier: .gregorian)
        calendar.locale = locale
        integer = IntegerFormatStyle<Int>(locale: locale)
        percentage = FloatingPointFormatStyle<Double>.Percent(locale: locale).precision(.fractionLength(0...1))
        let utc = TimeZone(identifier: "UTC")!
        day = Date.FormatStyle(date: .abbreviated, time: .omitted, locale: locale, calendar: calendar, timeZone: utc)
        moment = Date.FormatStyle(date: .abbreviated, time: .shortened, locale: locale, calendar: calendar, timeZone: .current)
    }

    public func number(_ value: Int) -> String { value.formatted(integer) }

    /// A number without grouping separators ("4000", "۴۰۰۰").
    public func digits(_ value: Int) -> String { value.formatted(integer.grouping(.never)) }

    /// A fraction (0.25) as a percentage ("25%", "۲۵٪").
    public func percent(_ fraction: Double) -> String { fraction.formatted(percentage) }

    /// A calendar day, given as its Gregorian year, month and day.
    public func date(year: Int, month: Int, day: Int) -> String {
        let components = DateComponents(timeZone: TimeZone(identifier: "UTC"), year: year, month: month, day: day)
        guard let date = Calendar(identifier: .gregorian).date(from: components) else { return "\(year)-\(month)-\(day)" }
        return date.formatted(self.day)
    }

    /// A moment, in this machine's time zone.
    public func moment(_ date: Date) -> String { date.formatted(moment) }
}
