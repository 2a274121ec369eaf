import Foundation

/// Writes timestamps in UTC without a formatter, in the three shapes Fieldbook uses: a formatter is slow per
/// timestamp, and Foundation's wakes ICU's calendar and time zone data, held resident from then on.
public enum TimestampText {
    public enum Shape: Sendable {
        /// GRDB's stored text, `2026-11-24 09:30:00.123`: what SQLite holds (`Date.storedText`).
        case stored
        /// The sync wire's, `2026-11-24T09:30:00.123Z` (ISO8601DateFormatter with fractional seconds).
        case wire
        /// The JSON API's, `2026-11-24T09:30:00Z` (JSONEncoder's `.iso8601`).
        case api
    }

    /// `date` as `shape` writes it, rounded as the formatter it stands in for rounds: milliseconds half up (Foundation
    /// adds half a millisecond before ICU formats), whole seconds down. nil outside the years 1600–9999: Foundation's
    /// calendar counts days before October 1582 as Julian, so those are left to the formatter.
    public static func text(_ date: Date, _ shape: Shape) -> String? {
        let scaled = shape == .api ? date.timeIntervalSince1970.rounded(.down) * 1000 : (date.timeIntervalSince1970 * 1000 + 0.5).rounded(.down)
        guard abs(scaled) < 2.5e14 else { return nil }  // beyond about year 9890
        let (days, dayMilliseconds) = floorDivided(Int64(scaled), by: 86_400_000)
        let (year, month, day) = CalendarDate.civil(dayNumber: Int(days))
        guard (1600...9999).contains(year) else { return nil }
        let length = shape == .stored ? 23 : shape == .wire ? 24 : 20
        return String(unsafeUninitializedCapacity: length) { text in
            func put(_ value: Int64, at start: Int, digits: Int) {
                var rest = value
                for index in stride(from: start + digits - 1, through: start, by: -1) {
                    text[index] = UInt8(48 + rest % 10)
                    rest /= 10
                }
            }
            put(Int64(year), at: 0, digits: 4)
            put(Int64(month), at: 5, digits: 2)
            put(Int64(day), at: 8, digits: 2)
            put(dayMilliseconds / 3_600_000, at: 11, digits: 2)
            put(dayMilliseconds / 60_000 % 60, at: 14, digits: 2)
            put(dayMilliseconds / 1000 % 60, at: 17, digits: 2)
            (text[4], text[7], text[13], text[16]) = (45, 45, 58, 58)  // - - : :
            text[10] = shape == .stored ? 32 : 84  // space or T
            if shape != .api {
                text[19] = 46  // .
                put(dayMilliseconds % 1000, at: 20, digits: 3)
            }
            if shape != .stored { text[length - 1] = 90 }  // Z
            return length
        }
    }

    /// Quotient and remainder rounded toward minus infinity (a date before 1970 still has a non-negative time of day).
    private static func floorDivided(_ value: Int64, by divisor: Int64) -> (Int64, Int64) {
        let quotient = value / divisor, remainder = value % divisor
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }
}
