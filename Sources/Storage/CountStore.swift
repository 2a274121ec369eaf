import GRDB

/// How many records of one kind exist, for the home page.
public struct RecordCount: Sendable {
    public let label: String
    public let count: Int
    /// The list page, where one exists.
    public let path: String?
}

extension AppDatabase {
    public func recordCounts() throws -> [RecordCount] {
        let tables: [(String, String, String?)] = [
            ("Activities", "activities", "/activities"), ("Participants", "participants", "/participants"), ("Venues", "venues", "/venues"),
            ("Geographic areas", "geographic_areas", "/areas"), ("Activity types", "activity_types", "/activity-types"),
            ("Roles", "participant_roles", "/roles"),
        ]
        return try read { db in
            try tables.map { label, table, path in
                RecordCount(label: label, count: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)") ?? 0, path: path)
            }
        }
    }
}
