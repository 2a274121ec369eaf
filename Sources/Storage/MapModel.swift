import Domain
import Foundation
import GRDB

/// What the map draws, held in memory and brought up to date from the change log before each read, as the analytics
/// snapshot is. Reading 20,000 venues and their activities with SQL takes about 170 ms; after an edit the model rereads
/// the rows the change log names, and any filter set is answered from arrays indexed by number, without hashing ids.
final class MapModel: @unchecked Sendable {
    private struct Place {
        let id: String
        let name: String
        let address: String
        let area: Int32
        let latitude: Double
        let longitude: Double
        /// The name's bytes with ASCII letters lowered, then the id: the order of `ORDER BY name COLLATE NOCASE, id`.
        let sortKey: [UInt8]
    }

    private let lock = NSLock()
    private var version: Int64 = -1
    private var venueIndex = Interned(), activityIndex = Interned(), areaIndex = Interned()
    /// By venue index: the venue when it has coordinates; and the indexes of those venues in name order.
    private var places: [Place?] = []
    private var order: [Int32] = []
    /// By venue index: the activities currently held there (open venue periods), by start date then name.
    private var held: [[Int32]] = []
    /// By activity index; nil once deleted.
    private var activities: [MapActivity?] = []
    private var areaNames: [String] = []
    private var typeNames: [String: String] = [:]

    /// Venues for `query`, read from the model brought to the database's current version.
    func venues(_ db: Database, _ query: MapQuery) throws -> [MapVenue] {
        try lock.withLock {
            try refresh(db)
            return try select(db, query)
        }
    }

    /// Brings the model to the database's current version without answering anything (a warm-up).
    func prepare(_ db: Database) throws {
        try lock.withLock { try refresh(db) }
    }

    private func select(_ db: Database, _ query: MapQuery) throws -> [MapVenue] {
        let inArea = try query.areaId.map { area -> [Bool] in
            var inside = [Bool](repeating: false, count: areaIndex.count)
            for id in try String.fetchAll(db, sql: AppDatabase.areaTreeSQL, arguments: [area.databaseText]) {
                if let index = areaIndex.existing(id) { inside[Int(index)] = true }
            }
            return inside
        }
        let onList = try query.visitListId.map { list in
            Set(try String.fetchAll(db, sql: "SELECT venue_id FROM visit_stops WHERE visit_list_id = ?", arguments: [list.databaseText])
                .compactMap(venueIndex.existing))
        }
        let matches = Self.activityMatcher(query)
        var venues: [MapVenue] = []
        for index in order {
            guard let place = places[Int(index)] else { continue }
            if let inArea, !inArea[Int(place.area)] { continue }
            if let onList, !onList.contains(index) { continue }
            var shown: [MapActivity] = []
            for activity in held[Int(index)] {
                if let activity = activities[Int(activity)], matches(activity) { shown.append(activity) }
            }
            if query.filtersActivities, shown.isEmpty { continue }
            venues.append(MapVenue(id: place.id, name: place.name, address: place.address, areaName: areaNames[Int(place.area)],
                                   latitude: place.latitude, longitude: place.longitude, activities: shown))
        }
        return venues
    }

    private static func activityMatcher(_ query: MapQuery) -> (MapActivity) -> Bool {
        let type = query.typeId?.databaseText, status = query.status
        let to = query.to?.description, from = query.from?.description
        return { activity in
            if let type, activity.typeId != type { return false }
            if let status, activity.status != status { return false }
            if let to, activity.startDate > to { return false }
            if let from, let end = activity.endDate, end < from { return false }
            return true
        }
    }

    // MARK: - Keeping up with the change log

    private func refresh(_ db: Database) throws {
        let current = try AppDatabase.recordsVersion(db)
        guard current != version else { return }
        let changed = version < 0 ? [] : try Row.fetchAll(db, sql: "SELECT entity, entity_id FROM change_log WHERE seq > ?", arguments: [version])
        if version < 0 || changed.count > 5_000 {
            try loadAreaNames(db)
            try loadTypeNames(db)
            try loadPlaces(db, ids: nil)
            try loadActivities(db, ids: nil)
            try loadHeld(db)
        } else {
            var ids: [String: [String]] = [:]
            for row in changed { ids[row[0], default: []].append(row[1]) }
            let typesChanged = ids[CategoryKind.activityType.rawValue] != nil
            if ids["geographic_area"] != nil { try loadAreaNames(db) }
            if typesChanged { try loadTypeNames(db) }
            if let changed = ids["venue"] { try loadPlaces(db, ids: changed) }
            // Activities carry their type's name, so a renamed type rereads them all.
            if typesChanged { try loadActivities(db, ids: nil) } else if let changed = ids["activity"] { try loadActivities(db, ids: changed) }
            // A changed activity may move in its venues' lists (dates, name), so the lists are rebuilt.
            if ids["activity"] != nil || ids["activity_venue"] != nil { try loadHeld(db) }
        }
        version = current
    }

    private func loadAreaNames(_ db: Database) throws {
        for row in try Row.fetchAll(db, sql: "SELECT id, name FROM geographic_areas") {
            let index = Int(areaIndex.index(row[0]))
            if areaNames.count <= index { areaNames.append(contentsOf: repeatElement("", count: index + 1 - areaNames.count)) }
            areaNames[index] = row[1]
        }
    }

    private func loadTypeNames(_ db: Database) throws {
        typeNames = Dictionary(try Row.fetchAll(db, sql: "SELECT id, name FROM \(CategoryKind.activityType.table)")
            .map { ($0[0] as String, $0[1] as String) }) { $1 }
    }

    private func loadPlaces(_ db: Database, ids: [String]?) throws {
        let changed = ids.map { ids in ids.map { venueIndex.index($0) } }
        if let changed {
            grow(&places, to: venueIndex.count)
            for index in changed { places[Int(index)] = nil }
        } else {
            places = []
        }
        try rows(db, sql: "SELECT id, name, address, geographic_area_id, latitude, longitude FROM venues WHERE latitude IS NOT NULL AND longitude IS NOT NULL",
                 ids: ids) { row in
            let id: String = row[0], name: String = row[1]
            let index = Int(venueIndex.index(id))
            grow(&places, to: venueIndex.count)
            places[index] = Place(id: id, name: name, address: row[2], area: areaIndex.index(row[3]), latitude: row[4], longitude: row[5],
                                  sortKey: Self.sortKey(name: name, id: id))
        }
        grow(&places, to: venueIndex.count)
        grow(&areaNames, to: areaIndex.count, with: "")
        if held.count < venueIndex.count { held.append(contentsOf: repeatElement([], count: venueIndex.count - held.count)) }
        reorder(changed: changed)
    }

    private func loadActivities(_ db: Database, ids: [String]?) throws {
        if let ids {
            grow(&activities, to: activityIndex.count)
            for id in ids { if let index = activityIndex.existing(id) { activities[Int(index)] = nil } }
        } else {
            activities = []
        }
        try rows(db, sql: "SELECT id, name, activity_type_id, status, start_date, end_date FROM activities", ids: ids) { row in
            let id: String = row[0], typeId: String = row[2]
            let index = Int(activityIndex.index(id))
            grow(&activities, to: activityIndex.count)
            activities[index] = MapActivity(id: id, name: row[1], typeId: typeId, typeName: typeNames[typeId] ?? "",
                                            status: ActivityStatus(rawValue: row[3]) ?? .planned, startDate: row[4], endDate: row[5])
        }
    }

    /// Every open venue period, read whole: a deleted period leaves no row to say which venue it was at.
    private func loadHeld(_ db: Database) throws {
        var lists: [[Int32]] = []
        let rows = try Row.fetchCursor(db, sql: "SELECT venue_id, activity_id FROM activity_venue_history WHERE effective_to IS NULL")
        while let row = try rows.next() {
            // Every venue is numbered, with coordinates or not: one given coordinates later then finds its activities here.
            let venue = Int(venueIndex.index(row[0]))
            guard let activity = activityIndex.existing(row[1]) else { continue }
            if lists.count <= venue { lists.append(contentsOf: repeatElement([], count: venue + 1 - lists.count)) }
            lists[venue].append(activity)
        }
        if lists.count < venueIndex.count { lists.append(contentsOf: repeatElement([], count: venueIndex.count - lists.count)) }
        for venue in lists.indices where lists[venue].count > 1 {
            lists[venue] = Array(Set(lists[venue])).sorted(by: activityOrder)
        }
        held = lists
    }

    private func activityOrder(_ left: Int32, _ right: Int32) -> Bool {
        guard let a = activities[Int(left)], let b = activities[Int(right)] else { return left < right }
        return (a.startDate, a.name.lowercased(), a.id) < (b.startDate, b.name.lowercased(), b.id)
    }

    /// Puts the venues in name order, or, after a few changed, just those: sorting 20,000 names takes far longer.
    private func reorder(changed: [Int32]?) {
        guard let changed, changed.count < 200 else {
            order = places.indices.compactMap { index in places[index].map { ($0.sortKey, Int32(index)) } }
                .sorted { $0.0.lexicographicallyPrecedes($1.0) }.map(\.1)
            return
        }
        let moved = Set(changed)
        order.removeAll { moved.contains($0) }
        for index in moved {
            guard let key = places[Int(index)]?.sortKey else { continue }
            var low = 0, high = order.count
            while low < high {
                let middle = (low + high) / 2
                if places[Int(order[middle])]!.sortKey.lexicographicallyPrecedes(key) { low = middle + 1 } else { high = middle }
            }
            order.insert(index, at: low)
        }
    }

    /// Runs `body` on each row `sql` selects: every row, or those whose id is in `ids`.
    private func rows(_ db: Database, sql: String, ids: [String]?, _ body: (Row) throws -> Void) throws {
        let narrowed = ids == nil ? sql : sql + (sql.contains(" WHERE ") ? " AND" : " WHERE") + " id IN (\(IdentifierList.values))"
        let cursor = try Row.fetchCursor(db, sql: narrowed, arguments: ids.map { [IdentifierList.json($0)] } ?? [])
        while let row = try cursor.next() { try body(row) }
    }

    private func grow<Element>(_ array: inout [Element?], to count: Int) {
        if array.count < count { array.append(contentsOf: repeatElement(nil, count: count - array.count)) }
    }

    private func grow(_ array: inout [String], to count: Int, with filler: String) {
        if array.count < count { array.append(contentsOf: repeatElement(filler, count: count - array.count)) }
    }

    private static func sortKey(name: String, id: String) -> [UInt8] {
        name.utf8.map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 } + [0] + Array(id.utf8)
    }
}
