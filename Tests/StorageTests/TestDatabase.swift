import Domain
import Foundation
@testable import Storage

/// A fresh database file in its own temporary folder, removed when the test ends.
final class TestDatabase {
    let directory: URL
    let database: AppDatabase

    /// `linked`: linked to a hub (never contacted here), so writes queue operations in the outbox as on a node.
    init(linked: Bool = true) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("fieldbook-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        database = try AppDatabase(path: directory.appendingPathComponent("fieldbook.sqlite").path, passwordCost: .test)
        if linked { try database.linkHub(.unreachableForTests) }
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// Rows in the outbox, for asserting that each write recorded exactly one change.
    func outboxCount() throws -> Int { try database.outboxEntries(limit: 100_000).count }

    /// Inserts an activity directly, optionally held at a venue (bypassing validation, for tests of what reads activities).
    @discardableResult
    func insertActivity(named name: String, typeId: UUID, status: String = "ACTIVE", endDate: String? = nil,
                        venue: UUID? = nil) throws -> UUID {
        let id = UUID()
        try database.pool.write { db in
            try db.execute(sql: """
                INSERT INTO activities (id, name, activity_type_id, start_date, end_date, status, created_at, updated_at)
                VALUES (?, ?, ?, '2025-01-01', ?, ?, ?, ?)
                """, arguments: [id.databaseText, name, typeId.databaseText, endDate, status, Date(), Date()])
            if let venue {
                try db.execute(sql: """
                    INSERT INTO activity_venue_history (id, activity_id, venue_id, effective_from) VALUES (?, ?, ?, '2025-01-01')
                    """, arguments: [UUID().databaseText, id.databaseText, venue.databaseText])
            }
        }
        return id
    }

    /// Inserts a participant directly, living at `homeVenue`.
    @discardableResult
    func insertParticipant(named name: String, homeVenue: UUID?) throws -> UUID {
        let id = UUID()
        try database.pool.write { db in
            try db.execute(sql: """
                INSERT INTO participants (id, name, email, home_venue_id, created_at, updated_at, search_text) VALUES (?, ?, ?, ?, ?, ?, ?)
                """, arguments: [id.databaseText, name, "\(name.lowercased())@example.org", homeVenue?.databaseText, Date(), Date(),
                                 SearchText.of(name, "\(name.lowercased())@example.org")])
        }
        return id
    }
}

extension HubLink {
    /// A link to a hub that is never contacted (the .invalid domain never resolves).
    static let unreachableForTests = HubLink(upstream: URL(string: "http://hub.invalid")!, email: "hub@example.org",
                                             refreshToken: "not-a-real-token", linkedAt: Date())
}

extension NewUserInput {
    /// A user's form input for tests: named after their email, with `password` typed twice.
    static func forTests(_ email: String, _ role: UserRole, password: String = "correct horse battery staple") -> NewUserInput {
        NewUserInput(name: "Person \(email)", email: email, role: role.rawValue, password: password, passwordConfirmation: password)
    }
}
