import Domain
import Foundation
import GRDB

/// What `importDemoCommunity` created.
public struct DemoImportSummary: Sendable, Equatable {
    public let areas: Int, venues: Int, participants: Int, addressPeriods: Int, activities: Int, venuePeriods: Int, assignments: Int
}

/// Bulk import of a generated community through the single write path: every row gets its outbox entry.
extension AppDatabase {
    /// Refuses a database that already has areas, so demo data never mixes with real records.
    public func importDemoCommunity(size: DemoCommunity.Size, seed: UInt64, today: CalendarDate = .today(),
                                    by actor: Actor = .system("demo-data")) throws -> DemoImportSummary {
        let existing = try read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM geographic_areas") ?? 0 }
        guard existing == 0 else {
            throw DomainError.protected(message: "This database already has \(existing) areas; demo data only fills an empty one. Use a new --data folder.")
        }
        let types = try categories(.activityType).map(\.id)
        let roles = try categories(.participantRole).map(\.id)
        let community = DemoCommunity.generate(size: size, seed: seed, today: today, typeCount: types.count, roleCount: roles.count)
        try write(by: actor) { db, changes in try Self.insertPlaces(db, changes, community) }
        var addressPeriods = 0
        for batch in community.participants.chunked(5_000) {
            addressPeriods += try write(by: actor) { db, changes in try Self.insertParticipants(db, changes, batch, community) }
        }
        var venuePeriods = 0, assignments = 0
        for batch in community.activities.chunked(2_000) {
            let counts = try write(by: actor) { db, changes in
                try Self.insertActivities(db, changes, batch, community, types: types, roles: roles)
            }
            venuePeriods += counts.venues
            assignments += counts.assignments
        }
        return DemoImportSummary(areas: community.areas.count, venues: community.venues.count, participants: community.participants.count,
                                 addressPeriods: addressPeriods, activities: community.activities.count, venuePeriods: venuePeriods,
                                 assignments: assignments)
    }

    private static func insertPlaces(_ db: Database, _ changes: ChangeRecorder, _ community: DemoCommunity) throws {
        let now = Date()
        let insertArea = try db.cachedStatement(sql: """
            INSERT INTO geographic_areas (id, name, area_type, parent_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)
            """)
        for area in community.areas {
            let model = GeographicArea(id: area.id, name: area.name, areaType: area.type, parentId: area.parent.map { community.areas[$0].id },
                                       version: 1, createdAt: now, updatedAt: now)
            try insertArea.execute(arguments: [model.id.databaseText, model.name, model.areaType.rawValue, model.parentId?.databaseText, now, now])
            try changes.recordCreate("geographic_area", id: model.id, fields: model.syncedFields)
        }
        let insertVenue = try db.cachedStatement(sql: """
            INSERT INTO venues (id, name, address, geographic_area_id, latitude, longitude, venue_type, created_at, updated_at, search_text)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for venue in community.venues {
            let model = Venue(id: venue.id, name: venue.name, address: venue.address, areaId: community.areas[venue.area].id,
                              latitude: venue.latitude, longitude: venue.longitude, venueType: venue.type, version: 1, createdAt: now, updatedAt: now)
            try insertVenue.execute(arguments: [model.id.databaseText, model.name, model.address, model.areaId.databaseText, model.latitude,
                                                model.longitude, model.venueType?.rawValue, now, now, model.searchText])
            try changes.recordCreate("venue", id: model.id, fields: model.syncedFields)
        }
    }

    private static func insertParticipants(_ db: Database, _ changes: ChangeRecorder, _ batch: ArraySlice<DemoCommunity.Participant>,
                                           _ community: DemoCommunity) throws -> Int {
        let now = Date()
        let insert = try db.cachedStatement(sql: """
            INSERT INTO participants (id, name, email, phone, notes, home_venue_id, created_at, updated_at, search_text)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        let insertHistory = try db.cachedStatement(sql: """
            INSERT INTO participant_address_history (id, participant_id, venue_id, effective_from, effective_to) VALUES (?, ?, ?, ?, ?)
            """)
        var periods = 0
        for person in batch {
            let home = person.homes.last.map { community.venues[$0.venue].id }
            let model = Participant(id: person.id, name: person.name, email: person.email, phone: person.phone, notes: person.notes,
                                    homeVenueId: home, version: 1, createdAt: now, updatedAt: now)
            try insert.execute(arguments: [model.id.databaseText, model.name, model.email, model.phone, model.notes, home?.databaseText,
                                           now, now, model.searchText])
            try changes.recordCreate("participant", id: model.id, fields: model.syncedFields)
            for (index, period) in person.homes.enumerated() {
                let id = UUID()
                let end = index + 1 < person.homes.count ? person.homes[index + 1].from.description : nil
                let venue = community.venues[period.venue].id.databaseText
                try insertHistory.execute(arguments: [id.databaseText, model.id.databaseText, venue, period.from.description, end])
                try changes.recordStoredCreate("participant_address", id: id)
                periods += 1
            }
        }
        return periods
    }

    private static func insertActivities(_ db: Database, _ changes: ChangeRecorder, _ batch: ArraySlice<DemoCommunity.Activity>,
                                         _ community: DemoCommunity, types: [UUID], roles: [UUID]) throws -> (venues: Int, assignments: Int) {
        let now = Date()
        let insert = try db.cachedStatement(sql: """
            INSERT INTO activities (id, name, activity_type_id, start_date, end_date, status, created_at, updated_at, search_text)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        let insertVenue = try db.cachedStatement(sql: "INSERT INTO activity_venue_history (id, activity_id, venue_id, effective_from) VALUES (?, ?, ?, ?)")
        let insertAssignment = try db.cachedStatement(sql: "INSERT INTO assignments (id, activity_id, participant_id, role_id, assigned_at) VALUES (?, ?, ?, ?, ?)")
        var counts = (venues: 0, assignments: 0)
        for activity in batch {
            let model = Activity(id: activity.id, name: activity.name, description: nil, typeId: types[activity.typeIndex],
                                 startDate: activity.start, endDate: activity.end, status: activity.status, version: 1, createdAt: now, updatedAt: now)
            try insert.execute(arguments: [model.id.databaseText, model.name, model.typeId.databaseText, model.startDate.description,
                                           model.endDate?.description, model.status.rawValue, now, now, SearchText.of(model.name)])
            try changes.recordCreate("activity", id: model.id, fields: model.syncedFields)
            for venue in activity.venues {
                let id = UUID(), venueId = community.venues[venue].id.databaseText
                try insertVenue.execute(arguments: [id.databaseText, model.id.databaseText, venueId, model.startDate.description])
                try changes.recordStoredCreate("activity_venue", id: id)
                counts.venues += 1
            }
            for pair in activity.assignments {
                let id = UUID(), participant = community.participants[pair.participant].id.databaseText
                try insertAssignment.execute(arguments: [id.databaseText, model.id.databaseText, participant, roles[pair.role].databaseText, now])
                try changes.recordStoredCreate("assignment", id: id)
                counts.assignments += 1
            }
        }
        return counts
    }
}

extension Array {
    /// Consecutive slices of at most `size` elements.
    func chunked(_ size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}
