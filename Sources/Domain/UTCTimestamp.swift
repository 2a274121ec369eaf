import Foundation

/// Reads the one timestamp shape Fieldbook writes, `2026-11-24T09:30:00.123Z`, without a formatter: parsing each
/// operation's `created_at` through ISO8601DateFormatter weighed on a hub taking a push.
/// Anything else (an offset, a leap second, a day a month does not have, a year before 1600, which Foundation counts
/// in the Julian calendar) is left to the formatter: nil here.
enum UTCTimestamp {
    static func date(from text: String) -> Date? {
        var utf8 = text.utf8
        return utf8.withContiguousStorageIfAvailable(parse) ?? {
            var copy = text
            copy.makeContiguousUTF8()
            utf8 = copy.utf8
            return utf8.withContiguousStorageIfAvailable(parse) ?? nil
        }()
    }

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        guard bytes.count >= 20, bytes.last == UInt8(ascii: "Z"), bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
              bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
              let year = number(bytes, 0, 4), let month = number(bytes, 5, 2), let day = number(bytes, 8, 2),
              let hour = number(bytes, 11, 2), let minute = number(bytes, 14, 2), let second = number(bytes, 17, 2), year >= 1600,
              (1...12).contains(month), day >= 1, day <= CalendarDate.daysIn(month: month, year: year), hour < 24, minute < 60, second < 60
        else { return nil }
        var fraction = 0.0
        if bytes.count > 20 {
            // ".d…dZ": one to nine digits.
            guard bytes[19] == UInt8(ascii: "."), (22...30).contains(bytes.count), let digits = number(bytes, 20, bytes.count - 21) else {
                return nil
            }
            fraction = Double(digits) / pow(10, Double(bytes.count - 21))
        }
        let days = CalendarDate.dayNumber(year: year, month: month, day: day)
        return Date(timeIntervalSince1970: Double(days * 86_400 + hour * 3_600 + minute * 60 + second) + fraction)
    }

    private static func number(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ count: Int) -> Int? {
        ASCIIDigits.value(bytes, from: start, count: count)
    }
}
