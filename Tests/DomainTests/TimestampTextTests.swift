import Domain
import Foundation
import Testing

/// Timestamps written without a formatter must be the text the formatter they replace writes.
@Suite struct TimestampTextTests {
    private static let moments: [Date] = {
        var generator = SystemRandomNumberGenerator()
        var moments = [0, 0.9996, 0.4, 0.5, 59.9999, -0.0004, -0.5, 951_782_400, 1_700_000_000.9995, 1_700_000_000.0005,
                       1_709_251_199.999, -2_208_988_800.5, -11_676_096_000, 253_402_300_799.9].map(Date.init(timeIntervalSince1970:))
        moments.append(Date())
        for _ in 0..<3_000 {
            moments.append(Date(timeIntervalSince1970: Double.random(in: -11_000_000_000...250_000_000_000, using: &generator)))
            moments.append(Date(timeIntervalSince1970: (Double.random(in: 0...4_000_000_000, using: &generator) * 1000).rounded() / 1000))
        }
        return moments
    }()

    @Test func theWireTextIsISO8601DateFormattersWithFractions() {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        for moment in Self.moments {
            guard let text = TimestampText.text(moment, .wire) else { #expect(Self.isLeftToTheFormatter(moment)); continue }
            #expect(text == formatter.string(from: moment), "\(moment.timeIntervalSince1970)")
        }
    }

    @Test func theAPITextIsJSONEncodersISO8601() throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        for moment in Self.moments {
            guard let text = TimestampText.text(moment, .api) else { #expect(Self.isLeftToTheFormatter(moment)); continue }
            let encoded = String(decoding: try encoder.encode([moment]), as: UTF8.self).dropFirst(2).dropLast(2)
            #expect(text == String(encoded), "\(moment.timeIntervalSince1970)")
        }
    }

    /// Before 1600 or after about 9890 (2.5e14 ms).
    private static func isLeftToTheFormatter(_ moment: Date) -> Bool {
        moment.timeIntervalSince1970 < -11_676_096_000 || moment.timeIntervalSince1970 >= 2.5e11
    }

    @Test func yearsFoundationCountsAsJulianAreLeftToTheFormatter() {
        #expect(TimestampText.text(Date(timeIntervalSince1970: -12_219_292_800), .wire) == nil)  // 1582
        #expect(TimestampText.text(Date(timeIntervalSince1970: 300_000_000_000), .api) == nil)  // after 9999
    }
}
