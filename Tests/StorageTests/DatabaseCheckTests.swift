import Foundation
import GRDB
@testable import Storage
import Testing

/// `fieldbook check`'s findings, and which database errors mean a full disk.
@Suite struct DatabaseCheckTests {
    @Test func anIntactDatabaseHasNoProblemsAndABrokenReferenceIsNamed() throws {
        let given = try TestDatabase(linked: false)
        #expect(try DatabaseCheck.run(path: given.database.path).isIntact)
        try given.database.pool.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA foreign_keys = OFF")
            try db.execute(sql: """
                INSERT INTO venues (id, name, address, geographic_area_id, created_at, updated_at)
                VALUES ('00000000-0000-0000-0000-000000000001', 'Orphan hall', '1 Nowhere', '00000000-0000-0000-0000-00000000dead', 0, 0)
                """)
            try db.execute(sql: "PRAGMA foreign_keys = ON")
        }
        let check = try DatabaseCheck.run(path: given.database.path)
        #expect(check.problems == ["A row of venues (row 1) refers to a record of geographic_areas that does not exist."])
    }

    @Test func aMissingFileIsSaidSoAndNotCreated() {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("absent-\(UUID()).sqlite").path
        #expect(throws: DatabaseCheckFailure.self) { try DatabaseCheck.run(path: path) }
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func sqliteFullAndNoSpaceMeanAFullDisk() {
        #expect(DiskSpace.isFull(DatabaseError(resultCode: .SQLITE_FULL)))
        #expect(DiskSpace.isFull(POSIXError(.ENOSPC)))
        #expect(!DiskSpace.isFull(DatabaseError(resultCode: .SQLITE_CONSTRAINT)))
    }
}
