import Domain
import Foundation
import GRDB

/// How the participant list is searched, filtered, sorted and paged; every field comes from the query string.
public struct ParticipantQuery: Sendable, Equatable {
    /// Case-insensitive substring of the name or email (Property 3).
    public var text: String
    /// Participants whose home venue is in this area or an area inside it.
    public var areaId: UUID?
    public var home: HomeFilter
    public var sort: Sort
    public var descending: Bool
    public var page: PageRequest

    /// Whether participants have a home venue.
    public enum HomeFilter: String, Sendable, CaseIterable {
        case any, withHome = "with", withoutHome = "without"
    }

    /// The orders the list offers.
    public enum Sort: String, Sendable, CaseIterable {
        case name, email, created
    }

    public init(text: String = "", areaId: UUID? = nil, home: HomeFilter = .any, sort: Sort = .name, descending: Bool = false,
                page: PageRequest = PageRequest()) {
        self.text = text
        self.areaId = areaId
        self.home = home
        self.sort = sort
        self.descending = descending
        self.page = page
    }
}

/// A participant as listed: with their home venue's name.
public struct ParticipantListItem: Sendable, Equatable {
    public let participant: Participant
    public let homeVenueName: String?
}

/// One activity a participant takes part in, and in which role.
public struct ParticipantAssignment: Sendable, Equatable {
    public let activityId: UUID
    public let activityName: String
    public let roleName: String
}

/// Participants (Requirement 4): search, filters, detail with address history, and writes that keep that history.
extension AppDatabase {
    public func participants(_ query: ParticipantQuery) throws -> ListPage<ParticipantListItem> {
        try read { db in
            var conditions: [String] = []
            var arguments: StatementArguments = []
            let text = query.text.trimmingCharacters(in: .whitespaces)
            if !text.isEmpty {
                conditions.append("p.search_text LIKE ? ESCAPE '\\'")
                arguments += [SearchText.pattern(text)]
            }
            if let areaId = query.areaId {
                conditions.append("""
                    p.home_venue_id IN (SELECT id FROM venues WHERE geographic_area_id IN (WITH RECURSIVE tree(id) AS (SELECT ?
                    UNION ALL SELECT a.id FROM geographic_areas a JOIN tree t ON a.parent_id = t.id) SELECT id FROM tree))
                    """)
                arguments += [areaId.databaseText]
            }
            switch query.home {
            case .any: break
            case .withHome: conditions.append("p.home_venue_id IS NOT NULL")
            case .withoutHome: conditions.append("p.home_venue_id IS NULL")
            }
            let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
            let direction = query.descending ? "DESC" : "ASC"
            let order = switch query.sort {
            case .name: "p.name COLLATE NOCASE \(direction), p.id \(direction)"
            case .email: "p.email COLLATE NOCASE \(direction), p.id \(direction)"
            case .created: "p.created_at \(direction), p.id \(direction)"
            }
            let total = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM participants p \(filter)", arguments: arguments) ?? 0
            // The page's ids come from the sort index alone, so a deep OFFSET skips index entries, not joined rows.
            let rows = try Row.fetchAll(db, sql: """
                SELECT p.*, v.name AS venue_name FROM (SELECT p.id FROM participants p \(filter) ORDER BY \(order) LIMIT ? OFFSET ?) page
                JOIN participants p ON p.id = page.id LEFT JOIN venues v ON v.id = p.home_venue_id ORDER BY \(order)
                """, arguments: arguments + [query.page.perPage, query.page.offset])
            return ListPage(items: rows.map { ParticipantListItem(participant: Participant(row: $0), homeVenueName: $0["venue_name"]) },
                            total: total, request: query.page)
        }
    }

    public func participant(id: UUID) throws -> Participant {
        try read { db in try Self.fetchParticipant(db, id: id) }
    }

    /// Where the participant has lived, newest first (Property 37).
    public func addressHistory(of participantId: UUID) throws -> [VenuePeriod] {
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT h.*, v.name AS venue_name FROM participant_address_history h JOIN venues v ON v.id = h.venue_id
                WHERE h.participant_id = ? ORDER BY h.effective_from DESC, h.effective_to IS NULL DESC
                """, arguments: [participantId.databaseText]).map(VenuePeriod.init(row:))
        }
    }

    /// The activities a participant is assigned to, with the role.
    public func assignments(of participantId: UUID) throws -> [ParticipantAssignment] {
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT a.id, a.name, r.name AS role_name FROM assignments s JOIN activities a ON a.id = s.activity_id
                JOIN participant_roles r ON r.id = s.role_id WHERE s.participant_id = ? ORDER BY a.name COLLATE NOCASE, r.name
                """, arguments: [participantId.databaseText]).map {
                ParticipantAssignment(activityId: $0.uuid("id"), activityName: $0["name"], roleName: $0["role_name"])
            }
        }
    }

    @discardableResult
    public func createParticipant(_ input: ParticipantInput, by actor: Actor) throws -> Participant {
        let valid = try input.validated()
        return try write(by: actor) { db, changes in
            if let venue = valid.homeVenueId { try Self.ensureVenueExists(db, venue) }
            let now = Date()
            let participant = Participant(id: UUID(), name: valid.name, email: valid.email, phone: valid.phone, notes: valid.notes,
                                          homeVenueId: valid.homeVenueId, version: 1, createdAt: now, updatedAt: now)
            try db.execute(sql: """
                INSERT INTO participants (id, name, email, phone, notes, home_venue_id, version, created_at, updated_at, search_text)
                VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?, ?)
                """, arguments: [participant.id.databaseText, participant.name, participant.email, participant.phone, participant.notes,
                                 participant.homeVenueId?.databaseText, now, now, participant.searchText])
            try changes.recordCreate("participant", id: participant.id, fields: participant.syncedFields)
            if let venue = valid.homeVenueId {
                try Self.recordMove(db, changes, participant: participant.id, to: venue, on: valid.movedOn)
            }
            return participant
        }
    }

    /// Saves changes; a new home venue closes the current address-history period and opens one from `movedOn`.
    @discardableResult
    public func updateParticipant(id: UUID, _ input: ParticipantInput, expectedVersion: Int?, by actor: Actor) throws -> Participant {
        let valid = try input.validated()
        return try write(by: actor) { db, changes in
            var participant = try Self.fetchParticipant(db, id: id)
            if let expectedVersion, expectedVersion != participant.version { throw DomainError.staleVersion(entity: "participant") }
            if let venue = valid.homeVenueId { try Self.ensureVenueExists(db, venue) }
            let before = participant.syncedFields
            let moved = participant.homeVenueId != valid.homeVenueId
            (participant.name, participant.email, participant.phone) = (valid.name, valid.email, valid.phone)
            (participant.notes, participant.homeVenueId) = (valid.notes, valid.homeVenueId)
            guard participant.syncedFields != before else { return participant }
            let baseVersion = participant.version
            participant.version += 1
            participant.updatedAt = Date()
            try db.execute(sql: """
                UPDATE participants SET name = ?, email = ?, phone = ?, notes = ?, home_venue_id = ?, version = ?, updated_at = ?,
                search_text = ? WHERE id = ?
                """, arguments: [participant.name, participant.email, participant.phone, participant.notes,
                                 participant.homeVenueId?.databaseText, participant.version, participant.updatedAt,
                                 participant.searchText, id.databaseText])
            try changes.recordUpdate("participant", id: id, before: before, after: participant.syncedFields, baseVersion: baseVersion)
            if moved {
                try Self.closeCurrentAddress(db, changes, participant: id, on: valid.movedOn)
                if let venue = valid.homeVenueId { try Self.recordMove(db, changes, participant: id, to: venue, on: valid.movedOn) }
            }
            return participant
        }
    }

    /// Deletes a participant with their assignments and address history.
    public func deleteParticipant(id: UUID, by actor: Actor) throws {
        try write(by: actor) { db, changes in
            let participant = try Self.fetchParticipant(db, id: id)
            try db.execute(sql: "DELETE FROM participants WHERE id = ?", arguments: [id.databaseText])
            try changes.recordDelete("participant", id: id, baseVersion: participant.version)
        }
    }

    private static func recordMove(_ db: Database, _ changes: ChangeRecorder, participant: UUID, to venue: UUID,
                                   on date: CalendarDate) throws {
        let id = UUID()
        try db.execute(sql: """
            INSERT INTO participant_address_history (id, participant_id, venue_id, effective_from) VALUES (?, ?, ?, ?)
            """, arguments: [id.databaseText, participant.databaseText, venue.databaseText, date.description])
        try changes.recordStoredCreate("participant_address", id: id)
    }

    private static func closeCurrentAddress(_ db: Database, _ changes: ChangeRecorder, participant: UUID, on date: CalendarDate) throws {
        let open = try Row.fetchAll(db, sql: """
            SELECT id, version, effective_from FROM participant_address_history WHERE participant_id = ? AND effective_to IS NULL
            """, arguments: [participant.databaseText])
        for row in open {
            let from: String = row["effective_from"]
            let end = max(date.description, from)
            try db.execute(sql: "UPDATE participant_address_history SET effective_to = ?, version = version + 1 WHERE id = ?",
                           arguments: [end, row["id"] as String])
            try changes.recordUpdate("participant_address", id: row.uuid("id"), before: ["effective_to": .null], after: ["effective_to": .string(end)],
                                     baseVersion: row["version"])
        }
    }

    private static func fetchParticipant(_ db: Database, id: UUID) throws -> Participant {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM participants WHERE id = ?", arguments: [id.databaseText]) else {
            throw DomainError.notFound(entity: "participant")
        }
        return Participant(row: row)
    }

    static func ensureVenueExists(_ db: Database, _ venue: UUID, field: String = "home_venue_id") throws {
        guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM venues WHERE id = ?)", arguments: [venue.databaseText]) == true else {
            throw ValidationError.clash(field, "The chosen venue no longer exists; search for another")
        }
    }
}

extension Participant {
    var searchText: String { SearchText.of(name, email) }

    var syncedFields: [String: JSONValue] {
        ["name": .string(name), "email": .string(email), "phone": phone.map(JSONValue.string) ?? .null,
         "notes": notes.map(JSONValue.string) ?? .null, "home_venue_id": homeVenueId.map { .string($0.databaseText) } ?? .null]
    }

    init(row: Row) {
        let venue: String? = row["home_venue_id"]
        self.init(id: row.uuid("id"), name: row["name"], email: row["email"], phone: row["phone"], notes: row["notes"],
                  homeVenueId: venue.flatMap(UUID.init(uuidString:)), version: row["version"],
                  createdAt: row["created_at"], updatedAt: row["updated_at"])
    }
}

extension VenuePeriod {
    /// Reads a history row joined with its venue's name as `venue_name`.
    init(row: Row) {
        self.init(id: row.uuid("id"), venueId: row.uuid("venue_id"), venueName: row["venue_name"],
                  effectiveFrom: CalendarDate(row["effective_from"]) ?? .today(),
                  effectiveTo: (row["effective_to"] as String?).flatMap(CalendarDate.init))
    }
}
