import Domain
import Foundation
import Testing

/// Today is read from the C library's local time; it must be the day Foundation's Gregorian calendar gives in the
/// server's time zone, around midnight and the year's turns as anywhere else.
@Suite struct CalendarDateTodayTests {
    @Test func todayIsTheGregorianDayInTheServersTimeZone() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone.current
        var generator = SystemRandomNumberGenerator()
        var moments = [Date(), Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 1_767_225_599), Date(timeIntervalSince1970: 1_767_225_600)]
        for _ in 0..<2_000 { moments.append(Date(timeIntervalSince1970: Double.random(in: 0...4_000_000_000, using: &generator))) }
        for moment in moments {
            let parts = calendar.dateComponents([.year, .month, .day], from: moment)
            let expected = String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
            #expect(CalendarDate.today(moment).description == expected, "\(moment.timeIntervalSince1970)")
        }
    }
}
