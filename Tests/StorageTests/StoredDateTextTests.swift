import Foundation
import GRDB
@testable import Storage
import Testing

/// Timestamps written without GRDB's DateFormatter must be the text GRDB writes, so stored dates compare equal.
@Suite struct StoredDateTextTests {
    @Test func aDatesStoredTextIsGRDBsStorageText() {
        var generator = SystemRandomNumberGenerator()
        var dates = [Date(), Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: -0.0005), Date(timeIntervalSince1970: 951_782_400),
                     Date(timeIntervalSince1970: 1_709_251_199.999), Date(timeIntervalSince1970: -2_208_988_800.5)]
        for _ in 0..<5_000 {
            dates.append(Date(timeIntervalSince1970: Double.random(in: -5_000_000_000...10_000_000_000, using: &generator)))
            dates.append(Date(timeIntervalSince1970: (Double.random(in: 0...4_000_000_000, using: &generator) * 1000).rounded() / 1000))
        }
        for date in dates {
            #expect(date.storedText == String.fromDatabaseValue(date.databaseValue), "\(date.timeIntervalSince1970)")
        }
    }
}
