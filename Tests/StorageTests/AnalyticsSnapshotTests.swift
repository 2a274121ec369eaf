import Domain
import Foundation
import GRDB
import PropertyBased
import Testing
@testable import Storage

/// The analytics snapshot is brought up to date from the change log, row by row: after any writes, a report must equal
/// the one a database opened afresh (whose snapshot is read whole) gives.
@Suite struct AnalyticsSnapshotTests {
    let actor = Actor.system("test")

    @Test func aReportAfterWritesEqualsOneCountedAfresh() async throws {
        await propertyCheck(count: 8, input: Gen.int(in: 0...1_000_000)) { seed in
            let given = try TestDatabase()
            let database = given.database
            _ = try database.importDemoCommunity(size: DemoCommunity.Size(venues: 10, participants: 40, activities: 8), seed: UInt64(seed))
            let areaId = try #require(try database.read { try String.fetchOne($0, sql: "SELECT id FROM geographic_areas WHERE parent_id IS NOT NULL ORDER BY id LIMIT 1 OFFSET ?", arguments: [seed % 5]) })
            let scopes = [AnalyticsScope(range: .allTime), AnalyticsScope(range: .allTime, areaId: UUID(uuidString: areaId)),
                          AnalyticsScope(range: DateRange(from: CalendarDate("2025-01-01"), to: CalendarDate("2025-12-31")))]
            for scope in scopes { _ = try database.engagement(scope) }

            try write(database, seed: seed)

            let fresh = try AppDatabase(path: database.path, passwordCost: .test)
            for scope in scopes {
                #expect(try database.engagement(scope) == fresh.engagement(scope), "engagement \(scope)")
                #expect(try database.growth(scope, period: .month) == fresh.growth(scope, period: .month), "growth \(scope)")
            }
        }
    }

    /// A large community's first read is made on a thread of its own: a report asked for meanwhile is refused as being
    /// prepared rather than kept waiting, and once read the figures are those of a report that waited for the read
    /// (the 2,000-participant demo).
    @Test func aReportDuringAFirstReadOffItsThreadIsPreparingThenCountsTheSame() throws {
        let given = try TestDatabase()
        let database = given.database
        _ = try database.importDemoCommunity(size: DemoCommunity.Size(venues: 150, participants: 2_000, activities: 400), seed: 1)
        let scopes = [AnalyticsScope(range: .allTime), AnalyticsScope(range: DateRange(from: CalendarDate("2025-01-01"), to: CalendarDate("2025-12-31")))]
        let waited = try scopes.map { try database.engagement($0) }
        let cache = AnalyticsCache(mostReadWaiting: 0, longestWait: 0)
        let started = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let load: @Sendable () throws -> AnalyticsSnapshot = {
            started.signal()
            release.wait()
            return try database.read { db in
                let snapshot = AnalyticsSnapshot()
                try snapshot.load(db)
                return snapshot
            }
        }
        func figures() throws -> [[Int]] {
            try database.read { db in
                try scopes.map { scope in
                    try cache.counting(db, scope, load: load) { counts in
                        let figures = EngagementFigures(counts)
                        return [figures.totalParticipants, figures.totalActivities, figures.activitiesInRange, figures.participation,
                                figures.newParticipants] + figures.participantsByRole.sorted { $0.key < $1.key }.map(\.value)
                    }
                }
            }
        }
        #expect(throws: AnalyticsPreparing.self) { try figures() }
        started.wait()
        release.signal()
        var counted: [[Int]]?
        for _ in 0..<1_000 where counted == nil {
            counted = try? figures()
            if counted == nil { Thread.sleep(forTimeInterval: 0.01) }
        }
        let expected = waited.map { report in
            [report.totalParticipants, report.totalActivities, report.activitiesInRange, report.participation, report.newParticipants]
                + report.participantsByRole.sorted { $0.key < $1.key }.filter { $0.count > 0 }.map(\.count)
        }
        #expect(counted == expected)
    }

    /// Deletes, creates, re-assigns and moves, each through the one write path.
    private func write(_ database: AppDatabase, seed: Int) throws {
        func ids(_ sql: String) throws -> [UUID] {
            try database.read { try String.fetchAll($0, sql: sql) }.compactMap(UUID.init(uuidString:))
        }
        let participants = try ids("SELECT id FROM participants ORDER BY id")
        for id in participants.dropFirst(seed % 7).prefix(3) { try database.deleteParticipant(id: id, by: actor) }
        if let activity = try ids("SELECT id FROM activities ORDER BY id").dropFirst(seed % 3).first {
            try database.deleteActivity(id: activity, by: actor)
        }
        for id in try ids("SELECT id FROM assignments ORDER BY id").prefix(2) { try database.unassign(id, by: actor) }
        let venues = try ids("SELECT id FROM venues ORDER BY id")
        let areas = try ids("SELECT id FROM geographic_areas ORDER BY id")
        let newcomer = try database.createParticipant(ParticipantInput(name: "New Comer", email: "new.comer@example.org",
                                                                       homeVenueId: venues[seed % venues.count].uuidString), by: actor)
        if let activity = try ids("SELECT id FROM activities ORDER BY id").last,
           let role = try ids("SELECT id FROM participant_roles ORDER BY id").first {
            _ = try database.assign(participant: newcomer.id.uuidString, role: role.uuidString, toActivity: activity, by: actor)
        }
        let moved = try database.venue(id: venues[(seed / 7) % venues.count])
        _ = try database.updateVenue(id: moved.id, VenueInput(name: moved.name, address: moved.address, areaId: areas[seed % areas.count].uuidString),
                                     expectedVersion: nil, by: actor)
    }
}
