import Foundation
@testable import Storage

/// A fresh database file in its own temporary folder, removed when the test ends.
final class TestDatabase {
    let directory: URL
    let database: AppDatabase

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("fieldbook-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        database = try AppDatabase(path: directory.appendingPathComponent("fieldbook.sqlite").path, passwordCost: .test)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// Rows in the outbox, for asserting that each write recorded exactly one change.
    func outboxCount() throws -> Int { try database.outboxEntries(limit: 100_000).count }

    /// Inserts an activity of the given type directly (activities get their write methods in a later issue).
    func insertActivity(named name: String, typeId: UUID) throws -> UUID {
        let id = UUID()
        try database.pool.write { db in
            try db.execute(sql: """
                INSERT INTO activities (id, name, activity_type_id, start_date, status, created_at, updated_at)
                VALUES (?, ?, ?, ?, 'ACTIVE', ?, ?)
                """, arguments: [id.databaseText, name, typeId.databaseText, Date(), Date(), Date()])
        }
        return id
    }
}
