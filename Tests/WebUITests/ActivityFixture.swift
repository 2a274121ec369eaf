import Foundation
import GRDB
@testable import Storage

/// Inserts an activity directly, for tests of what reads activities.
enum ActivityFixture {
    static func insert(named name: String, typeId: UUID, into database: AppDatabase) throws {
        try database.pool.write { db in
            try db.execute(sql: """
                INSERT INTO activities (id, name, activity_type_id, start_date, status, created_at, updated_at)
                VALUES (?, ?, ?, '2025-01-01', 'ACTIVE', ?, ?)
                """, arguments: [UUID().uuidString.lowercased(), name, typeId.uuidString.lowercased(), Date(), Date()])
        }
    }
}
