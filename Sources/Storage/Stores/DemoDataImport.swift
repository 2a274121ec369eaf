import Domain
import Foundation
import Records
import GRDB

/// What `importDemoCommunity` created.
public struct DemoImportSummary: Sendable, Equatable {
    public let areas: Int, venues: Int, participants: Int, addressPeriods: Int, activities: Int, venuePeriods: Int, assignments: Int
}

/// Bulk import of a generated community as typed input: every record is validated like a form's and written by its
/// kind's writer, so every row gets its outbox entry and its change on the feed.
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
        // The search indexes are built once at the end rather than kept up row by row; one left dropped by a run that
        // stopped part way is built again when the database next opens (`DeferredIndexes`). The bulk writes keep their
        // statement journals in memory; the rebuild at the end does not (`write(statementJournalsInMemory:_:)`).
        try transaction(by: actor, statementJournalsInMemory: true) { records in
            try DeferredIndexes.dropUntilRestored(records.db, indexes: false)
            try records.importPlaces(community, today: today)
        }
        var addressPeriods = 0
        for batch in community.participants.chunked(5_000) {
            addressPeriods += try transaction(by: actor, statementJournalsInMemory: true) {
                try $0.importParticipants(batch, community, today: today)
            }
        }
        var venuePeriods = 0, assignments = 0
        for batch in community.activities.chunked(2_000) {
            let counts = try transaction(by: actor, statementJournalsInMemory: true) {
                try $0.importActivities(batch, community, types: types, roles: roles, today: today)
            }
            venuePeriods += counts.venues
            assignments += counts.assignments
        }
        try writeLocal(DeferredIndexes.restore)
        return DemoImportSummary(areas: community.areas.count, venues: community.venues.count, participants: community.participants.count,
                                 addressPeriods: addressPeriods, activities: community.activities.count, venuePeriods: venuePeriods,
                                 assignments: assignments)
    }
}

extension RecordTransaction {
    fileprivate func importPlaces(_ community: DemoCommunity, today: CalendarDate) throws {
        for area in community.areas {
            let input = AreaInput(name: area.name, areaType: area.type.rawValue, parentId: area.parent.map { community.areas[$0].id.databaseText } ?? "")
            try create(GeographicArea.self, input.validated(), id: area.id)
        }
        for venue in community.venues {
            let input = VenueInput(name: venue.name, address: venue.address, areaId: community.areas[venue.area].id.databaseText,
                                   latitude: String(venue.latitude), longitude: String(venue.longitude), venueType: venue.type.rawValue)
            try create(Venue.self, input.validated(), id: venue.id)
        }
    }

    /// Each participant lives at their last home; the homes before it become closed address periods. Returns the
    /// number of periods written.
    fileprivate func importParticipants(_ batch: ArraySlice<DemoCommunity.Participant>, _ community: DemoCommunity,
                                        today: CalendarDate) throws -> Int {
        var periods = 0
        for person in batch {
            let last = person.homes.last
            let input = ParticipantInput(name: person.name, email: person.email, phone: person.phone ?? "", notes: person.notes ?? "",
                                         homeVenueId: last.map { community.venues[$0.venue].id.databaseText } ?? "",
                                         movedOn: last?.from.description ?? "")
            try create(Participant.self, input.validated(today: today), id: person.id)
            for (home, next) in zip(person.homes, person.homes.dropFirst()) {
                try insert(PeriodRow(owner: .participant, ownerId: person.id, venueId: community.venues[home.venue].id,
                                     from: home.from, to: next.from))
            }
            periods += person.homes.count
        }
        return periods
    }

    fileprivate func importActivities(_ batch: ArraySlice<DemoCommunity.Activity>, _ community: DemoCommunity, types: [UUID],
                                      roles: [UUID], today: CalendarDate) throws -> (venues: Int, assignments: Int) {
        var counts = (venues: 0, assignments: 0)
        let now = Date()
        for activity in batch {
            let input = ActivityInput(name: activity.name, typeId: types[activity.typeIndex].databaseText, startDate: activity.start.description,
                                      duration: activity.end == nil ? "ongoing" : "finite", endDate: activity.end?.description ?? "",
                                      status: activity.status.rawValue, venueIds: activity.venues.map { community.venues[$0].id.databaseText })
            let valid = try input.validated(today: today)
            try create(Activity.self, valid, id: activity.id)
            counts.venues += valid.venueIds.count
            for pair in activity.assignments {
                try assign(participant: community.participants[pair.participant].id, role: roles[pair.role], toActivity: activity.id, at: now)
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
