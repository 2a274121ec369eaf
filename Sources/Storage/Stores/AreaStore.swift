import Domain
import Foundation
import GRDB
import Records

/// An area with its depth in the hierarchy, as listed in tree order.
public struct AreaTreeEntry: Sendable, Equatable {
    public let area: GeographicArea
    public let depth: Int
}

/// What stops an area from being deleted: its child areas and venues (first few of each, and the totals).
public struct AreaReferences: Sendable, Equatable {
    public let children: [(id: UUID, name: String)]
    public let venues: [(id: UUID, name: String)]
    public let childTotal: Int
    public let venueTotal: Int

    public var isEmpty: Bool { childTotal == 0 && venueTotal == 0 }

    public static func == (lhs: AreaReferences, rhs: AreaReferences) -> Bool {
        lhs.childTotal == rhs.childTotal && lhs.venueTotal == rhs.venueTotal
            && lhs.children.map(\.id) == rhs.children.map(\.id) && lhs.venues.map(\.id) == rhs.venues.map(\.id)
    }
}

/// Geographic areas (Requirement 6B): the hierarchy, its statistics, and writes that keep it a tree.
extension AppDatabase {
    /// Every area in tree order (each parent before its children, siblings by name), with its depth. Kept until the
    /// records change: list pages offer it as a filter on every request.
    public func areaTree() throws -> [AreaTreeEntry] {
        try read { db in
            let version = try Self.recordsVersion(db)
            if let kept = areaTrees.value(for: 0, at: version) { return kept }
            let tree = try Self.readAreaTree(db)
            areaTrees.store(tree, for: 0, at: version, cost: 1)
            return tree
        }
    }

    private static func readAreaTree(_ db: Database) throws -> [AreaTreeEntry] {
        try Row.fetchAll(db, sql: """
            WITH RECURSIVE tree(id, depth, sort_path) AS (
                SELECT id, 0, lower(name) || char(31) || id FROM geographic_areas WHERE parent_id IS NULL
                UNION ALL
                SELECT a.id, t.depth + 1, t.sort_path || char(30) || lower(a.name) || char(31) || a.id
                FROM geographic_areas a JOIN tree t ON a.parent_id = t.id
            )
            SELECT a.*, tree.depth FROM tree JOIN geographic_areas a ON a.id = tree.id ORDER BY tree.sort_path
            """).map { AreaTreeEntry(area: GeographicArea(row: $0), depth: $0["depth"]) }
    }

    /// Ids of the area and every area below it (what cannot become its parent).
    public func areaTree(below id: UUID) throws -> Set<UUID> {
        try read { db in try Self.descendantIds(db, of: id) }
    }

    public func area(id: UUID) throws -> GeographicArea {
        try read { db in try GeographicArea.find(db, id: id) }
    }

    /// The area's ancestors, top level first.
    public func ancestors(of id: UUID) throws -> [GeographicArea] {
        try read { db in
            try Row.fetchAll(db, sql: """
                WITH RECURSIVE up(id, level) AS (
                    SELECT parent_id, 1 FROM geographic_areas WHERE id = ? AND parent_id IS NOT NULL
                    UNION ALL
                    SELECT a.parent_id, up.level + 1 FROM geographic_areas a JOIN up ON a.id = up.id WHERE a.parent_id IS NOT NULL
                )
                SELECT a.* FROM up JOIN geographic_areas a ON a.id = up.id ORDER BY up.level DESC
                """, arguments: [id.databaseText]).map(GeographicArea.init(row:))
        }
    }

    public func childAreas(of id: UUID) throws -> [GeographicArea] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM geographic_areas WHERE parent_id = ? ORDER BY name COLLATE NOCASE",
                             arguments: [id.databaseText]).map(GeographicArea.init(row:))
        }
    }

    /// Activities, participants, active and ongoing activities in the area and all areas below it.
    public func areaStatistics(id: UUID) throws -> AreaStatistics {
        try read { db in
            let row = try Row.fetchOne(db, sql: """
                WITH RECURSIVE tree(id) AS (
                    SELECT ? UNION ALL SELECT a.id FROM geographic_areas a JOIN tree t ON a.parent_id = t.id
                ),
                area_venues AS (SELECT id FROM venues WHERE geographic_area_id IN (SELECT id FROM tree)),
                area_activities AS (
                    SELECT DISTINCT activity_id AS id FROM activity_venue_history
                    WHERE effective_to IS NULL AND venue_id IN (SELECT id FROM area_venues)
                )
                SELECT
                    (SELECT COUNT(*) FROM area_activities) AS total_activities,
                    (SELECT COUNT(*) FROM participants WHERE \(Participant.homeVenueColumn) IN (SELECT id FROM area_venues)) AS total_participants,
                    (SELECT COUNT(*) FROM activities WHERE id IN (SELECT id FROM area_activities) AND status = 'ACTIVE') AS active,
                    (SELECT COUNT(*) FROM activities WHERE id IN (SELECT id FROM area_activities)
                        AND end_date IS NULL AND status NOT IN ('COMPLETED', 'CANCELLED')) AS ongoing
                """, arguments: [id.databaseText])
            return AreaStatistics(totalActivities: row?["total_activities"] ?? 0, totalParticipants: row?["total_participants"] ?? 0,
                                  activeActivities: row?["active"] ?? 0, ongoingActivities: row?["ongoing"] ?? 0)
        }
    }

    /// The child areas and venues that keep an area from being deleted.
    public func areaReferences(id: UUID, limit: Int = 10) throws -> AreaReferences {
        try read { db in try Self.references(db, areaId: id, limit: limit) }
    }

    @discardableResult public func createArea(_ input: AreaInput, by actor: Actor) throws -> GeographicArea { try create(input.validated(), by: actor) }
    /// Changes an area; a parent that is the area itself or one of its descendants is refused (Property 31).
    @discardableResult public func updateArea(id: UUID, _ input: AreaInput, expectedVersion: Int?, by actor: Actor) throws -> GeographicArea {
        try update(id: id, input.validated(), expectedVersion: expectedVersion, by: actor)
    }
    /// Deletes an area that has no child areas and no venues (Property 32).
    public func deleteArea(id: UUID, by actor: Actor) throws { try remove(GeographicArea.self, id: id, by: actor) }

    /// Ids of an area and every area below it.
    static func descendantIds(_ db: Database, of id: UUID) throws -> Set<UUID> {
        let ids = try String.fetchAll(db, sql: areaTreeSQL, arguments: [id.databaseText])
        return Set(ids.compactMap(UUID.init(uuidString:)))
    }

    static func references(_ db: Database, areaId: UUID, limit: Int) throws -> AreaReferences {
        let id = areaId.databaseText
        let children = try Row.fetchAll(db, sql: "SELECT id, name FROM geographic_areas WHERE parent_id = ? ORDER BY name LIMIT ?",
                                        arguments: [id, limit]).map { (id: $0.uuid("id"), name: $0["name"] as String) }
        let venues = try Row.fetchAll(db, sql: "SELECT id, name FROM venues WHERE geographic_area_id = ? ORDER BY name LIMIT ?",
                                      arguments: [id, limit]).map { (id: $0.uuid("id"), name: $0["name"] as String) }
        return AreaReferences(
            children: children, venues: venues,
            childTotal: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM geographic_areas WHERE parent_id = ?", arguments: [id]) ?? 0,
            venueTotal: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM venues WHERE geographic_area_id = ?", arguments: [id]) ?? 0)
    }
}

extension AreaReferences {
    /// Why the area cannot be deleted and what to do first.
    public static func refusal(name: String, _ references: AreaReferences) -> String {
        var parts: [String] = []
        if references.childTotal > 0 { parts.append(references.childTotal == 1 ? "1 area inside it" : "\(references.childTotal) areas inside it") }
        if references.venueTotal > 0 { parts.append(references.venueTotal == 1 ? "1 venue in it" : "\(references.venueTotal) venues in it") }
        return "“\(name)” cannot be deleted because it has \(parts.joined(separator: " and ")). Move or delete those first."
    }
}

/// The area's writes, which keep the areas a tree: a parent that is the area itself or one inside it is refused
/// (Property 31); an area with child areas or venues is not deleted (Property 32).
extension GeographicArea: WritableRecord {
    public static func validated(_ input: AreaInput, as kind: RecordKind) throws -> AreaInput.Valid { try input.validated() }

    func checkWrite(over stored: GeographicArea?, _ valid: AreaInput.Valid, in transaction: RecordTransaction) throws {
        guard let stored, let parentId, try AppDatabase.descendantIds(transaction.db, of: id).contains(parentId) else { return }
        throw ValidationError.clash("parent_id", parentId == id
            ? "An area cannot be its own parent; choose another parent area"
            : "That area is inside “\(stored.name)”, so it cannot be its parent; choose an area outside it")
    }

    func refusal(_ blockers: [Blocker], in transaction: RecordTransaction) throws -> DomainError? {
        let references = try AppDatabase.references(transaction.db, areaId: id, limit: 10)
        return .stillReferenced(message: AreaReferences.refusal(name: name, references),
                                references: (references.children + references.venues).map(\.name))
    }
}
