import Domain
import Foundation
import GRDB

/// What the map draws, held in memory and brought up to date from the change log before each read, as the analytics
/// snapshot is: reading every venue and its activities with SQL is too slow for each map request; after an edit the
/// model rereads the rows the change log names, and any filter set is answered from arrays indexed by number, without
/// hashing ids.
///
/// Ids are held as UUIDs and activity types as numbers; ids become text only in what a query answers, since an id held
/// as text is an allocation of its own, and the model stays resident in every idle server.
final class MapModel: @unchecked Sendable {
    private struct Place {
        let id: UUID
        let name: String
        let address: String
        let area: Int32
        let latitude: Double
        let longitude: Double
    }

    private struct Activity {
        let id: UUID
        let name: String
        let type: Int32
        let status: ActivityStatus
        let startDate: String
        let endDate: String?
    }

    private let lock = NSLock()
    private var version: Int64 = -1
    private var venueIndex = Interned<UUID>(), activityIndex = Interned<UUID>(), areaIndex = Interned<UUID>(), typeIndex = Interned<UUID>()
    /// By venue index: the venue when it has coordinates; and the indexes of those venues in name order.
    private var places: [Place?] = []
    private var order: [Int32] = []
    /// The activities currently held at each venue (open venue periods), by start date then name: venue `v`'s are
    /// `held[heldStart[v] ..< heldStart[v + 1]]`. One array for every venue, not one per venue.
    private var heldStart: [Int32] = [0]
    private var held: [Int32] = []
    /// By activity index; nil once deleted.
    private var activities: [Activity?] = []
    /// By area index; and by activity type number, the type's name and its id as stored.
    private var areaNames: [String] = []
    private var typeNames: [String] = [], typeIds: [String] = []

    /// Venues for `query`, read from the model brought to the database's current version.
    func venues(_ db: Database, _ query: MapQuery) throws -> [MapVenue] {
        try lock.withLock {
            try refresh(db)
            return try select(db, query)
        }
    }

    private func select(_ db: Database, _ query: MapQuery) throws -> [MapVenue] {
        let inArea = try query.areaId.map { area -> [Bool] in
            var inside = [Bool](repeating: false, count: areaIndex.count)
            for id in try Self.ids(db, AppDatabase.areaTreeSQL, area) {
                if let index = areaIndex.existing(id) { inside[Int(index)] = true }
            }
            return inside
        }
        let onList = try query.visitListId.map { list in
            let stops = "SELECT venue_id FROM visit_stops WHERE visit_list_id = ?" + (query.leavesOutPeoplesHomes ? " AND participant_id IS NULL" : "")
            return Set(try Self.ids(db, stops, list).compactMap(venueIndex.existing))
        }
        let matches = activityMatcher(query)
        var venues: [MapVenue] = []
        for index in order {
            guard let place = places[Int(index)] else { continue }
            if let inArea, !inArea[Int(place.area)] { continue }
            if let onList, !onList.contains(index) { continue }
            var shown: [MapActivity] = []
            for activity in heldActivities(at: index) {
                if let activity = activities[Int(activity)], matches(activity) { shown.append(answer(activity)) }
            }
            if query.filtersActivities, shown.isEmpty { continue }
            venues.append(MapVenue(id: place.id.lowercaseText, name: place.name, address: place.address, areaName: areaNames[Int(place.area)],
                                   latitude: place.latitude, longitude: place.longitude, activities: shown))
        }
        return venues
    }

    /// The ids in the first column of what `sql` selects for `id`.
    private static func ids(_ db: Database, _ sql: String, _ id: UUID) throws -> [UUID] {
        try Row.fetchAll(db, sql: sql, arguments: [id.databaseText]).map { $0.uuid(at: 0) }
    }

    private func heldActivities(at venue: Int32) -> ArraySlice<Int32> {
        let venue = Int(venue)
        // A venue numbered since the lists were last read holds nothing yet.
        guard venue + 1 < heldStart.count else { return [] }
        return held[Int(heldStart[venue])..<Int(heldStart[venue + 1])]
    }

    private func answer(_ activity: Activity) -> MapActivity {
        MapActivity(id: activity.id.lowercaseText, name: activity.name, typeId: typeIds[Int(activity.type)],
                    typeName: typeNames[Int(activity.type)], status: activity.status, startDate: activity.startDate, endDate: activity.endDate)
    }

    private func activityMatcher(_ query: MapQuery) -> (Activity) -> Bool {
        // A type the model has never seen holds no activity: -1 is no type's number.
        let type = query.typeId.map { typeIndex.existing($0) ?? -1 }, status = query.status
        let to = query.to?.description, from = query.from?.description
        return { activity in
            if let type, activity.type != type { return false }
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
            try Self.throughASmallPageCache(db) {
                try loadAreaNames(db)
                try loadTypeNames(db)
                try loadPlaces(db, ids: nil)
                try loadActivities(db, ids: nil)
                try loadHeld(db)
            }
        } else {
            var ids: [String: [String]] = [:]
            for row in changed { ids[row[0], default: []].append(row[1]) }
            if ids["geographic_area"] != nil { try loadAreaNames(db) }
            // Activities hold their type's number, so a renamed type changes only its name here.
            if ids[CategoryKind.activityType.rawValue] != nil { try loadTypeNames(db) }
            if let changed = ids["venue"] { try loadPlaces(db, ids: changed) }
            if let changed = ids["activity"] { try loadActivities(db, ids: changed) }
            // A changed activity may move in its venues' lists (dates, name), so the lists are rebuilt.
            if ids["activity"] != nil || ids["activity_venue"] != nil { try loadHeld(db) }
        }
        version = current
    }

    /// Reads whole tables through a small page cache: they are read once, and the reader connection's usual cache
    /// (`AppDatabase.readerCacheKiB`) would keep up to 8 MB of their pages, between the model's own allocations.
    private static func throughASmallPageCache(_ db: Database, _ read: () throws -> Void) throws {
        try db.execute(sql: "PRAGMA cache_size = -256")
        defer { try? db.execute(sql: "PRAGMA cache_size = -\(AppDatabase.readerCacheKiB)") }
        try read()
    }

    private func loadAreaNames(_ db: Database) throws {
        for row in try Row.fetchAll(db, sql: "SELECT id, name FROM geographic_areas") {
            let index = Int(areaIndex.index(row.uuid(at: 0)))
            grow(&areaNames, to: areaIndex.count, with: "")
            areaNames[index] = row[1]
        }
    }

    private func loadTypeNames(_ db: Database) throws {
        // A deleted type's activities show no type name, as before the model kept names by number.
        typeNames = typeNames.map { _ in "" }
        for row in try Row.fetchAll(db, sql: "SELECT id, name FROM \(CategoryKind.activityType.table)") {
            typeNames[Int(typeNumber(row.uuid(at: 0)))] = row[1]
        }
    }

    /// The type's number, given on first sight along with its id as text.
    private func typeNumber(_ id: UUID) -> Int32 {
        let number = typeIndex.index(id)
        if typeIds.count < typeIndex.count {
            typeIds.append(id.lowercaseText)
            typeNames.append("")
        }
        return number
    }

    private func loadPlaces(_ db: Database, ids: [String]?) throws {
        let changed = ids.map { ids in ids.compactMap(UUID.init(canonicalText:)).map { venueIndex.index($0) } }
        if let changed {
            grow(&places, to: venueIndex.count)
            for index in changed { places[Int(index)] = nil }
        } else {
            places = []
            try reserve(&places, &venueIndex, forRowsOf: "venues", db)
        }
        try rows(db, sql: "SELECT id, name, address, geographic_area_id, latitude, longitude FROM venues WHERE latitude IS NOT NULL AND longitude IS NOT NULL",
                 ids: ids) { row in
            let id = row.uuid(at: 0)
            let index = Int(venueIndex.index(id))
            grow(&places, to: venueIndex.count)
            places[index] = Place(id: id, name: row[1], address: row[2], area: areaIndex.index(row.uuid(at: 3)), latitude: row[4], longitude: row[5])
        }
        grow(&places, to: venueIndex.count)
        grow(&areaNames, to: areaIndex.count, with: "")
        reorder(changed: changed)
    }

    private func loadActivities(_ db: Database, ids: [String]?) throws {
        if let ids {
            grow(&activities, to: activityIndex.count)
            for id in ids.compactMap(UUID.init(canonicalText:)) { if let index = activityIndex.existing(id) { activities[Int(index)] = nil } }
        } else {
            activities = []
            try reserve(&activities, &activityIndex, forRowsOf: "activities", db)
        }
        try rows(db, sql: "SELECT id, name, activity_type_id, status, start_date, end_date FROM activities", ids: ids) { row in
            let id = row.uuid(at: 0)
            let index = Int(activityIndex.index(id))
            grow(&activities, to: activityIndex.count)
            activities[index] = Activity(id: id, name: row[1], type: typeNumber(row.uuid(at: 2)),
                                         status: ActivityStatus(rawValue: row[3]) ?? .planned, startDate: row[4], endDate: row[5])
        }
    }

    /// Every open venue period, read whole: a deleted period leaves no row to say which venue it was at.
    private func loadHeld(_ db: Database) throws {
        var periods: [(venue: Int32, activity: Int32)] = []
        let rows = try Row.fetchCursor(db, sql: "SELECT venue_id, activity_id FROM activity_venue_history WHERE effective_to IS NULL")
        while let row = try rows.next() {
            // Every venue is numbered, with coordinates or not: one given coordinates later then finds its activities here.
            let venue = venueIndex.index(row.uuid(at: 0))
            guard let activity = activityIndex.existing(row.uuid(at: 1)) else { continue }
            periods.append((venue, activity))
        }
        periods.sort { $0.venue != $1.venue ? $0.venue < $1.venue : activityOrder($0.activity, $1.activity) }
        var starts = [Int32](repeating: 0, count: venueIndex.count + 1), list: [Int32] = []
        list.reserveCapacity(periods.count)
        for (position, period) in periods.enumerated() {
            // Two open periods of one activity at one venue list it once; sorted, they are neighbours.
            if position > 0, periods[position - 1] == period { continue }
            list.append(period.activity)
            starts[Int(period.venue) + 1] += 1
        }
        for venue in 0..<venueIndex.count { starts[venue + 1] += starts[venue] }
        heldStart = starts
        held = list
    }

    private func activityOrder(_ left: Int32, _ right: Int32) -> Bool {
        guard let a = activities[Int(left)], let b = activities[Int(right)] else { return left < right }
        if a.startDate != b.startDate { return a.startDate < b.startDate }
        let names = (a.name.lowercased(), b.name.lowercased())
        return names.0 != names.1 ? names.0 < names.1 : Self.idPrecedes(a.id, b.id)
    }

    /// Puts the venues in name order, or, after a few changed, just those: sorting 20,000 names takes far longer.
    private func reorder(changed: [Int32]?) {
        guard let changed, changed.count < 200 else {
            order = places.indices.filter { places[$0] != nil }.map(Int32.init).sorted(by: namePrecedes)
            return
        }
        let moved = Set(changed)
        order.removeAll { moved.contains($0) }
        for index in moved where places[Int(index)] != nil {
            var low = 0, high = order.count
            while low < high {
                let middle = (low + high) / 2
                if namePrecedes(order[middle], index) { low = middle + 1 } else { high = middle }
            }
            order.insert(index, at: low)
        }
    }

    /// The order of `ORDER BY name COLLATE NOCASE, id`: names compared byte by byte with ASCII letters lowered (a name
    /// before any longer one it begins), then ids.
    private func namePrecedes(_ left: Int32, _ right: Int32) -> Bool {
        let a = places[Int(left)]!, b = places[Int(right)]!
        var first = a.name.utf8.makeIterator(), second = b.name.utf8.makeIterator()
        while true {
            switch (first.next().map(Self.lowered), second.next().map(Self.lowered)) {
            case (nil, nil): return Self.idPrecedes(a.id, b.id)
            case (nil, _): return true
            case (_, nil): return false
            case let (x?, y?) where x != y: return x < y
            default: continue
            }
        }
    }

    private static func lowered(_ byte: UInt8) -> UInt8 { byte >= 65 && byte <= 90 ? byte + 32 : byte }

    /// The order of the ids' lower-case text, which is the order of their bytes.
    private static func idPrecedes(_ a: UUID, _ b: UUID) -> Bool {
        withUnsafeBytes(of: a.uuid) { first in withUnsafeBytes(of: b.uuid) { second in first.lexicographicallyPrecedes(second) } }
    }

    /// Runs `body` on each row `sql` selects: every row, or those whose id is in `ids`.
    private func rows(_ db: Database, sql: String, ids: [String]?, _ body: (Row) throws -> Void) throws {
        let narrowed = ids == nil ? sql : sql + (sql.contains(" WHERE ") ? " AND" : " WHERE") + " id IN (\(IdentifierList.values))"
        let cursor = try Row.fetchCursor(db, sql: narrowed, arguments: ids.map { [IdentifierList.json($0)] } ?? [])
        while let row = try cursor.next() { try body(row) }
    }

    /// Makes room for every row of `table` at once: grown a row at a time, the arrays and the index ended up to twice
    /// the size they needed, and the copies left behind held on to the heap.
    private func reserve<Element>(_ array: inout [Element?], _ index: inout Interned<UUID>, forRowsOf table: String, _ db: Database) throws {
        let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)") ?? 0
        array.reserveCapacity(count)
        index.reserveCapacity(count)
    }

    private func grow<Element>(_ array: inout [Element?], to count: Int) {
        if array.count < count { array.append(contentsOf: repeatElement(nil, count: count - array.count)) }
    }

    private func grow(_ array: inout [String], to count: Int, with filler: String) {
        if array.count < count { array.append(contentsOf: repeatElement(filler, count: count - array.count)) }
    }
}
