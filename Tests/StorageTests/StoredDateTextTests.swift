import Foundation
import Domain
import GRDB
@testable import Storage
import Testing

/// Timestamps written without GRDB's DateFormatter must be the text GRDB writes, so stored dates compare equal.
@Suite struct StoredDateTextTests {
    @Test func aDatesStoredTextIsGRDBsStorageText() {
        var generator = SystemRandomNumberGenerator()
        var dates = [Date(), Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: -0.0005), Date(timeIntervalSince1970: 951_782_400),
                     Date(timeIntervalSince1970: 1_709_251_199.999), Date(timeIntervalSince1970: -2_208_988_800.5),
                     Date(timeIntervalSince1970: -12_219_292_800), Date(timeIntervalSince1970: -30_000_000_000)]  // 1582, 1019
        for _ in 0..<5_000 {
            dates.append(Date(timeIntervalSince1970: Double.random(in: -5_000_000_000...10_000_000_000, using: &generator)))
            dates.append(Date(timeIntervalSince1970: (Double.random(in: 0...4_000_000_000, using: &generator) * 1000).rounded() / 1000))
        }
        for date in dates {
            #expect(date.storedText == String.fromDatabaseValue(date.databaseValue), "\(date.timeIntervalSince1970)")
        }
    }
}

/// Stored timestamps read without GRDB's parser must be the dates GRDB reads.
@Suite struct StoredDateParseTests {
    @Test func aStoredTimestampReadsAsGRDBReadsIt() {
        var generator = SystemRandomNumberGenerator()
        // 2000-12-15 18:18:08.093 once read a bit away from GRDB's Date (the sum was rounded in another order).
        var mismatches = ["2000-12-15 18:18:08.093", "1999-01-01 00:00:00.001"].filter { text in
            let row: Row = ["at": text]
            return row.storedDate("at") != Date.fromDatabaseValue(text.databaseValue)
        }
        for _ in 0..<10_000 {
            let date = Date(timeIntervalSince1970: Double.random(in: -2_208_988_800...7_258_118_400, using: &generator))
            for text in [date.storedText, String(date.storedText.prefix(19))] {
                let row: Row = ["at": text]
                if row.storedDate("at") != Date.fromDatabaseValue(text.databaseValue) { mismatches.append(text) }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }

    @Test func otherShapesAreLeftToGRDB() {
        for text in ["2026-11-24T09:30:00.123Z", "2026-11-24", "2024-02-29 12:00:00.000", "2026-11-24 09:30:00.12",
                     "1500-03-01 12:00:00.000", "1582-10-04 23:59:59.999"] {
            let row: Row = ["at": text]
            #expect(row.storedDate("at") == Date.fromDatabaseValue(text.databaseValue), "\(text)")
        }
    }
}

/// A declared record reads a stored moment as GRDB reads it, whatever shape GRDB accepts it in: a restored archive may
/// hold a `T`, a `Z`, an offset or more fraction digits, and days 29–31 take the slower path.
@Suite struct DeclaredMomentTests {
    @Test func aParticipantsTimesReadAsGRDBReadsThem() throws {
        let given = try TestDatabase(linked: false)
        let participant = try given.database.createParticipant(ParticipantInput(name: "Ada", email: "ada@example.org"), by: .system("test"))
        let shapes = ["2026-11-29 10:00:00.000", "2026-11-30 23:59:59.999", "2026-02-28 10:00", "2026-11-29T10:00:00Z",
                      "2026-11-29T10:00:00.123456Z", "2026-11-29 10:00:00-05:00", "2026-03-31T08:15:30+02:00", "2026-11-12 07:30:00.5"]
        for text in shapes {
            try given.database.pool.write { db in
                try db.execute(sql: "UPDATE participants SET created_at = ? WHERE id = ?", arguments: [text, participant.id.databaseText])
            }
            let read = try given.database.participant(id: participant.id).createdAt
            let expected = try #require(Date.fromDatabaseValue(text.databaseValue), "GRDB reads \(text)")
            #expect(abs(read.timeIntervalSince(expected)) < 0.001, "\(text): \(read) is not GRDB's \(expected)")
        }
    }
}
