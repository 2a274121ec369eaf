import Domain
import Foundation
import Testing

/// The sync protocol's timestamps read without a formatter must read as the ISO 8601 formatter reads them.
@Suite struct UTCTimestampTests {
    @Test func aTimestampReadsAsTheFormatterReadsIt() {
        let withFractions = ISO8601DateFormatter()
        withFractions.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let plain = ISO8601DateFormatter()
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<3_000 {
            // 1900 to 2200, whole milliseconds, as Fieldbook writes them.
            let date = Date(timeIntervalSince1970: (Double.random(in: -2_208_988_800...7_258_118_400, using: &generator) * 1000).rounded() / 1000)
            for (formatter, text) in [(withFractions, withFractions.string(from: date)), (plain, plain.string(from: date))] {
                let read = SyncDateFormat.date(from: text)
                let expected = formatter.date(from: text)
                #expect(read != nil && expected != nil && abs(read!.timeIntervalSince(expected!)) < 0.000_001, "\(text)")
                #expect(read.map(withFractions.string(from:)) == expected.map(withFractions.string(from:)), "\(text)")
            }
        }
    }

    @Test func edgesAndOtherShapesStillRead() {
        let cases = ["2024-02-29T23:59:59.999Z", "2000-01-01T00:00:00Z", "1970-01-01T00:00:00.000Z", "2026-11-24T09:30:00.5Z",
                     "2026-11-24T11:30:00+02:00", "2026-11-24T09:30:00.123456789Z"]
        for text in cases {
            let read = SyncDateFormat.date(from: text)
            #expect(read != nil, "\(text)")
        }
        #expect(SyncDateFormat.date(from: "2026-11-24T09:30:00.000Z") == SyncDateFormat.date(from: "2026-11-24T11:30:00.000+02:00"))
        // Before the Gregorian reform Foundation counts Julian days; such years are the formatter's to read.
        let withFractions = ISO8601DateFormatter()
        withFractions.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        for early in ["1500-03-01T12:00:00.000Z", "1582-10-04T23:59:59.999Z"] {
            #expect(SyncDateFormat.date(from: early) == withFractions.date(from: early), "\(early)")
        }
        // A day the month lacks is left to the formatter, which is lenient (2023-02-29 reads as 1 March) as it always was.
        for refused in ["2026-13-01T00:00:00Z", "2026-11-24 09:30:00Z", "not a date", ""] {
            #expect(SyncDateFormat.date(from: refused) == nil, "\(refused)")
        }
    }
}
