import Domain
import Foundation
import Testing

/// Dates on pages follow the order of the reader's language, as their browser's date inputs do.
@Suite struct DateStyleTests {
    @Test func theMostPreferredLanguageChoosesTheOrder() {
        #expect(DateStyle.preferred(byAcceptLanguage: "en-US,en;q=0.9") == .monthFirst)
        #expect(DateStyle.preferred(byAcceptLanguage: "en-GB,en;q=0.9,en-US;q=0.8") == .dayFirst)
        #expect(DateStyle.preferred(byAcceptLanguage: "de-DE;q=0.5, en-US;q=0.9") == .monthFirst)
        #expect(DateStyle.preferred(byAcceptLanguage: "ja,en-US;q=0.8") == .yearFirst)
        #expect(DateStyle.preferred(byAcceptLanguage: "fr-CA") == .yearFirst)
        #expect(DateStyle.preferred(byAcceptLanguage: "en-US;q=0, fr") == .dayFirst)
        #expect(DateStyle.preferred(byAcceptLanguage: "*") == .dayFirst)
        #expect(DateStyle.preferred(byAcceptLanguage: nil) == .dayFirst)
        #expect(DateStyle.preferred(byAcceptLanguage: ";;,q=x") == .dayFirst)
    }

    @Test func aDayAndAMomentAreWrittenInEachOrder() throws {
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = try #require(TimeZone(identifier: "UTC"))
        let moment = Date(timeIntervalSince1970: 1_795_448_040)  // 2026-11-23 15:34 UTC
        #expect(DateStyle.dayFirst.text(year: 2026, month: 11, day: 3) == "3 Nov 2026")
        #expect(DateStyle.monthFirst.text(year: 2026, month: 11, day: 3) == "Nov 3, 2026")
        #expect(DateStyle.yearFirst.text(year: 2026, month: 11, day: 3) == "2026-11-03")
        #expect(DateStyle.dayFirst.text(moment, calendar: utc) == "23 Nov 2026, 15:34")
        #expect(DateStyle.monthFirst.text(moment, calendar: utc) == "Nov 23, 2026, 3:34 PM")
        #expect(DateStyle.yearFirst.text(moment, calendar: utc) == "2026-11-23 15:34")
    }

    @Test func aCalendarDateIsShownInTheStyleOfTheRequestUnderWay() throws {
        let date = try #require(CalendarDate("2025-03-12"))
        #expect(date.display == "12 Mar 2025")
        DateStyle.$current.withValue(.monthFirst) { #expect(date.display == "Mar 12, 2025" && date.monthDisplay == "Mar 2025") }
        DateStyle.$current.withValue(.yearFirst) { #expect(date.display == "2025-03-12" && date.monthDisplay == "2025-03") }
    }
}

/// `CalendarDate` reads and writes `YYYY-MM-DD` byte by byte. It accepts what the Foundation-based reader before it
/// accepted, except a sign before a part ("+025-01-01" was year 25).
@Suite struct CalendarDateTextTests {
    @Test func everyDayOfSeveralYearsReadsBackAsWritten() throws {
        var day = try #require(Calendar(identifier: .gregorian).date(from: DateComponents(year: 1999, month: 12, day: 25)))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        var previous: CalendarDate?
        for _ in 0..<(366 * 3) {
            let parts = calendar.dateComponents([.year, .month, .day], from: day)
            let text = String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
            let date = try #require(CalendarDate(text))
            #expect(date.description == text && (date.year, date.month, date.day) == (parts.year!, parts.month!, parts.day!))
            if let previous { #expect(previous < date && !(date < previous)) }
            previous = date
            day = calendar.date(byAdding: .day, value: 1, to: day)!
        }
    }

    @Test func impossibleOrMalformedDaysAreRefused() {
        #expect(CalendarDate(" 2024-02-29\t")?.description == "2024-02-29")
        #expect(CalendarDate("\u{A0}2024-02-29\u{2003}")?.description == "2024-02-29")
        for text in ["2025-02-29", "2100-02-29", "2025-13-01", "2025-00-10", "2025-04-31", "0000-01-01", "2025-1-01", "25-01-01",
                     "2025/01/01", "2025-01-0a", "", "2025-01-011", "2025 01-01", "+025-01-01", "2025-01-\u{0661}1"] {
            #expect(CalendarDate(text) == nil, "\(text)")
        }
        #expect(CalendarDate("0001-01-01")?.description == "0001-01-01")
        #expect(CalendarDate("9999-12-31")?.description == "9999-12-31")
        #expect(CalendarDate("9999-12-31")?.adding(days: 1).description == "10000-01-01")
    }
}
