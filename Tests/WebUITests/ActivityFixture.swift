import Foundation
import GRDB
@testable import Storage

/// Activities get their own write methods with the records issue; until then tests insert one directly.
enum ActivityFixture {
    static func insert(named name: String, typeId: UUID, into database: AppDatabase) throws {
        try database.pool.write { db in
            try db.execute(sql: """
                INSERT INTO activities (id, name, activity_type_id, start_date, status, created_at, updated_at)
                VALUES (?, ?, ?, ?, 'ACTIVE', ?, ?)
                """, arguments: [UUID().uuidString.lowercased(), name, typeId.uuidString.lowercased(), Date(), Date(), Date()])
        }
    }
}
