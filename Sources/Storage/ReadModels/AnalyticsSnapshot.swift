import Domain
import Foundation
import GRDB
import Records

/// What the analytics count, held in memory as arrays of small integers indexed by each row's SQLite rowid, and brought
/// up to date from the change log before each report. Counting distinct participants over the assignments in SQL builds
/// temporary B-trees of text ids; over these arrays it is a pass over integers. Indexing by rowid rather than by the
/// records' text ids keeps a participant in 8 bytes, with no table from ids to positions (rowids are stable, see
/// `SearchIndex`). The change log's sequence is the snapshot's version: every write to a synced table, from any
/// process, moves it, so a report never counts stale rows.
final class AnalyticsSnapshot: @unchecked Sendable {
    /// A day as `YYYYMMDD`: ordered like the dates it stands for, and read without a date parser.
    typealias Day = Int32
    static let noDay: Day = .max
    /// The most changed rows patched one by one; more are read afresh.
    static let mostPatched = 20_000

    struct Participant {
        static let absent: Day = .min
        var created: Day = Participant.absent
        var home: Int32 = -1
        var alive: Bool { created != Self.absent }
    }
    struct Activity { var alive = false; var start: Day = 0; var end: Day = noDay; var type: Int32 = 0; var status: Int32 = 0; var venues: [Int32] = [] }
    struct Assignment {
        var activity: Int32 = 0, participant: Int32 = 0, role: Int32 = 0, assigned: Day = 0
        /// Rowids start at 1.
        var alive: Bool { participant != 0 }
    }

    private(set) var version: Int64 = -1
    /// Per area index: its parent's index, -1 at the top; per venue index: its area's index, -1 once gone.
    private(set) var areaParent: [Int32] = []
    private(set) var venueArea: [Int32] = []
    /// By rowid; an entry whose row is gone (or never was) is not alive.
    private(set) var participants: [Participant] = []
    private(set) var activities: [Activity] = []
    private(set) var assignments: [Assignment] = []

    private(set) var areas = Interned<String>(), venues = Interned<String>(), types = Interned<String>(), statuses = Interned<String>(),
                 roles = Interned<String>()

    /// The rows a first read of every table reads, which decides whether it is made while a report waits.
    static func rowsToRead(_ db: Database) throws -> Int {
        try ["participants", "activities", "assignments"].reduce(0) { $0 + (try RowCounts.count(db, table: $1)) }
    }

    /// The change log's sequence now: the version a refresh brings the snapshot to.
    static func currentVersion(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db, sql: "SELECT MAX(seq) FROM change_log") ?? 0
    }

    /// Reads every table.
    func load(_ db: Database) throws {
        let current = try Self.currentVersion(db)
        try loadPlaces(db)
        try loadParticipants(db, ids: nil)
        try loadActivities(db, ids: nil)
        try loadCurrentVenues(db)
        try loadAssignments(db, ids: nil)
        version = current
    }

    /// Brings a loaded snapshot to the database's current version from the rows the change log names since; false
    /// (nothing changed) when so many changed that reading every table afresh is the cheaper way.
    func refresh(_ db: Database) throws -> Bool {
        let current = try Self.currentVersion(db)
        guard current > version else { return true }
        let changed = try Row.fetchAll(db, sql: "SELECT entity, entity_id FROM change_log WHERE seq > ? LIMIT ?",
                                       arguments: [version, Self.mostPatched + 1])
        guard changed.count <= Self.mostPatched else { return false }
        var ids: [String: [String]] = [:]
        for row in changed { ids[row[0], default: []].append(row[1]) }
        if ids["geographic_area"] != nil || ids["venue"] != nil { try loadPlaces(db) }
        if let changed = ids["participant"] { try loadParticipants(db, ids: changed) }
        if let changed = ids["activity"] { try loadActivities(db, ids: changed) }
        if ids["activity"] != nil || ids["activity_venue"] != nil { try loadCurrentVenues(db) }
        if let changed = ids["assignment"] { try loadAssignments(db, ids: changed) }
        version = current
        return true
    }

    /// `YYYY-MM-DD…` → `YYYYMMDD`, from the text's first ten characters.
    static func day(_ text: String?) -> Day? {
        guard let text else { return nil }
        var value: Int32 = 0, count = 0
        for byte in text.utf8 {
            if count == 10 { break }
            count += 1
            if byte == UInt8(ascii: "-") { continue }
            guard byte >= 48, byte <= 57 else { return nil }
            value = value * 10 + Int32(byte - 48)
        }
        return count == 10 ? value : nil
    }

    static func day(_ date: CalendarDate) -> Day { Day(date.year * 10_000 + date.month * 100 + date.day) }

    static func date(_ day: Day) -> CalendarDate? {
        CalendarDate(String(format: "%04d-%02d-%02d", Int(day / 10_000), Int(day / 100 % 100), Int(day % 100)))
    }

    // MARK: - Loading

    private func loadPlaces(_ db: Database) throws {
        let areaRows = try Row.fetchAll(db, sql: "SELECT id, parent_id FROM geographic_areas")
        for row in areaRows { _ = areas.index(row[0]) }
        areaParent = Array(repeating: -1, count: areas.count)
        for row in areaRows { areaParent[Int(areas.index(row[0]))] = (row[1] as String?).map { areas.index($0) } ?? -1 }
        let venueRows = try Row.fetchAll(db, sql: "SELECT id, geographic_area_id FROM venues")
        for row in venueRows { _ = venues.index(row[0]) }
        venueArea = Array(repeating: -1, count: venues.count)
        for row in venueRows { venueArea[Int(venues.index(row[0]))] = areas.index(row[1]) }
    }

    private func loadParticipants(_ db: Database, ids: [String]?) throws {
        try forEachRow(db, "SELECT rowid, created_at, \(Domain.Participant.homeVenueColumn) FROM participants", table: "participants", ids: ids,
                       of: &participants) { row, _ in
            Participant(created: Self.day(row[1]) ?? 0, home: (row[2] as String?).map { venues.index($0) } ?? -1)
        }
        if venueArea.count < venues.count { venueArea += Array(repeating: -1, count: venues.count - venueArea.count) }
    }

    private func loadActivities(_ db: Database, ids: [String]?) throws {
        try forEachRow(db, "SELECT rowid, start_date, end_date, activity_type_id, status FROM activities", table: "activities", ids: ids,
                       of: &activities) { row, previous in
            // Its current venues come from their own table (loadCurrentVenues); an edit of the activity keeps them.
            Activity(alive: true, start: Self.day(row[1]) ?? 0, end: Self.day(row[2]) ?? Self.noDay, type: types.index(row[3]),
                     status: statuses.index(row[4]), venues: previous?.venues ?? [])
        }
    }

    private func loadCurrentVenues(_ db: Database) throws {
        for index in activities.indices where !activities[index].venues.isEmpty { activities[index].venues = [] }
        let rows = try Row.fetchCursor(db, sql: """
            SELECT a.rowid, h.venue_id FROM activity_venue_history h JOIN activities a ON a.id = h.activity_id WHERE h.effective_to IS NULL
            """)
        while let row = try rows.next() {
            let activity: Int = row[0]
            guard activity < activities.count else { continue }
            activities[activity].venues.append(venues.index(row[1]))
        }
        if venueArea.count < venues.count { venueArea += Array(repeating: -1, count: venues.count - venueArea.count) }
    }

    private func loadAssignments(_ db: Database, ids: [String]?) throws {
        try forEachRow(db, """
            SELECT s.rowid, a.rowid, p.rowid, s.role_id, s.assigned_at FROM assignments s
            JOIN activities a ON a.id = s.activity_id JOIN participants p ON p.id = s.participant_id
            """, table: "assignments", ids: ids, alias: "s", of: &assignments) { row, _ in
            Assignment(activity: row[1], participant: row[2], role: roles.index(row[3]), assigned: Self.day(row[4]) ?? 0)
        }
        // An assignment may name a participant or activity read later: keep the arrays as long as the rowids named.
        let participantEnd = assignments.reduce(0) { max($0, Int($1.participant) + 1) }
        let activityEnd = assignments.reduce(0) { max($0, Int($1.activity) + 1) }
        if participants.count < participantEnd { participants += Array(repeating: Participant(), count: participantEnd - participants.count) }
        if activities.count < activityEnd { activities += Array(repeating: Activity(), count: activityEnd - activities.count) }
    }

    /// Reads every row of a table (ids nil) or the named ones, and stores each at its rowid (the first column). When a
    /// named id has no row any more, its rowid is not known: every entry whose rowid the table no longer holds is
    /// marked gone.
    private func forEachRow<Element>(_ db: Database, _ sql: String, table: String, ids: [String]?, alias: String? = nil,
                                     of elements: inout [Element], _ make: (Row, Element?) -> Element) throws where Element: AnalyticsEntry {
        func store(_ row: Row) {
            let position: Int = row[0]
            let previous = position < elements.count ? elements[position] : nil
            if elements.count <= position { elements += Array(repeating: Element(), count: position + 1 - elements.count) }
            elements[position] = make(row, previous)
        }
        guard let ids else {
            elements = []
            elements.reserveCapacity(try Int.fetchOne(db, sql: "SELECT MAX(rowid) + 1 FROM \(table)") ?? 0)
            let rows = try Row.fetchCursor(db, sql: sql)
            while let row = try rows.next() { store(row) }
            return
        }
        var found = 0
        let idColumn = alias.map { "\($0).id" } ?? "id"
        for chunk in stride(from: 0, to: ids.count, by: 500).map({ Array(ids[$0..<min($0 + 500, ids.count)]) }) {
            let rows = try Row.fetchCursor(db, sql: sql + " WHERE \(idColumn) IN (\(databaseQuestionMarks(count: chunk.count)))",
                                           arguments: StatementArguments(chunk))
            while let row = try rows.next() {
                store(row)
                found += 1
            }
        }
        guard found < Set(ids).count else { return }
        var present = [Bool](repeating: false, count: elements.count)
        let rowids = try Int.fetchCursor(db, sql: "SELECT rowid FROM \(table)")
        while let rowid = try rowids.next() {
            if rowid < present.count { present[rowid] = true }
        }
        for index in elements.indices where !present[index] { elements[index] = Element() }
    }
}

protocol AnalyticsEntry { init() }
extension AnalyticsSnapshot.Participant: AnalyticsEntry {}
extension AnalyticsSnapshot.Activity: AnalyticsEntry {}
extension AnalyticsSnapshot.Assignment: AnalyticsEntry {}

/// Ids turned into small integers, in the order first seen; an index is never reused.
struct Interned<Id: Hashable> {
    private var indexes: [Id: Int32] = [:]
    private(set) var ids: [Id] = []

    var count: Int { ids.count }

    mutating func index(_ id: Id) -> Int32 {
        if let index = indexes[id] { return index }
        let index = Int32(ids.count)
        indexes[id] = index
        ids.append(id)
        return index
    }

    func existing(_ id: Id) -> Int32? { indexes[id] }

    /// Room for `count` ids in all.
    mutating func reserveCapacity(_ count: Int) {
        indexes.reserveCapacity(count)
        ids.reserveCapacity(count)
    }
}

/// The figures of one report's scope, counted over the snapshot. A participant is in an area when their home venue is;
/// an activity when one of its current venues is. Range ends are inclusive.
struct SnapshotCounts {
    let snapshot: AnalyticsSnapshot
    private let from: AnalyticsSnapshot.Day?
    private let to: AnalyticsSnapshot.Day?
    private let scopeArea: Int32?
    /// Per venue: in the scope's area (or any inside it); nil when the scope is everywhere.
    private let venueInScope: [Bool]?

    init(_ snapshot: AnalyticsSnapshot, _ scope: AnalyticsScope) {
        self.snapshot = snapshot
        from = scope.range.from.map(AnalyticsSnapshot.day)
        to = scope.range.to.map(AnalyticsSnapshot.day)
        let area = scope.areaId.flatMap { snapshot.areas.existing($0.databaseText) }
        scopeArea = scope.areaId == nil ? nil : (area ?? -2)
        if let scopeArea {
            let inside = snapshot.areaParent.indices.map { Self.isWithin(Int32($0), scopeArea, parents: snapshot.areaParent) }
            venueInScope = snapshot.venueArea.map { $0 >= 0 && Int($0) < inside.count && inside[Int($0)] }
        } else {
            venueInScope = nil
        }
    }

    private static func isWithin(_ area: Int32, _ ancestor: Int32, parents: [Int32]) -> Bool {
        var current = area, steps = 0
        while current >= 0, steps < 256 {
            if current == ancestor { return true }
            current = parents[Int(current)]
            steps += 1
        }
        return false
    }

    func endsByTo(_ day: AnalyticsSnapshot.Day) -> Bool { to.map { day <= $0 } ?? true }
    func within(_ day: AnalyticsSnapshot.Day) -> Bool { (from.map { day >= $0 } ?? true) && endsByTo(day) }
    func before(_ day: AnalyticsSnapshot.Day) -> Bool { from.map { day < $0 } ?? false }
    func overlaps(_ activity: AnalyticsSnapshot.Activity) -> Bool {
        // An empty range (its last day before its first) has no activity in it.
        activity.alive && endsByTo(activity.start) && (from.map { activity.end >= $0 && endsByTo($0) } ?? true)
    }

    func inScope(_ participant: AnalyticsSnapshot.Participant) -> Bool {
        guard let venueInScope else { return true }
        return participant.home >= 0 && Int(participant.home) < venueInScope.count && venueInScope[Int(participant.home)]
    }

    func inScope(_ activity: AnalyticsSnapshot.Activity) -> Bool {
        guard let venueInScope else { return true }
        return activity.venues.contains { Int($0) < venueInScope.count && venueInScope[Int($0)] }
    }

    func participant(_ index: Int32) -> AnalyticsSnapshot.Participant? {
        Int(index) < snapshot.participants.count ? snapshot.participants[Int(index)] : nil
    }

    /// Participants with an assignment to an activity active in the range, wherever they live.
    func takingPart() -> (anyRole: [Bool], byRole: [[Bool]]) {
        let active = snapshot.activities.map(overlaps)
        var anyRole = [Bool](repeating: false, count: snapshot.participants.count)
        var byRole = [[Bool]](repeating: [], count: snapshot.roles.count)
        for assignment in snapshot.assignments where assignment.alive && Int(assignment.activity) < active.count && active[Int(assignment.activity)] {
            let person = Int(assignment.participant), role = Int(assignment.role)
            guard person < anyRole.count else { continue }
            anyRole[person] = true
            if byRole[role].isEmpty { byRole[role] = [Bool](repeating: false, count: anyRole.count) }
            byRole[role][person] = true
        }
        return (anyRole, byRole)
    }

    /// The area each area is counted under in the breakdown: the child of the scope's area that holds it (a top-level
    /// area without a scope), the scope's area itself for its own venues, -1 outside the scope.
    func breakdownBuckets() -> [Int32] {
        let parents = snapshot.areaParent
        return parents.indices.map { index in
            var current = Int32(index), steps = 0
            while current >= 0, steps < 256 {
                if let scopeArea, current == scopeArea { return current }
                let parent = parents[Int(current)]
                if parent == (scopeArea ?? -1) { return current }
                current = parent
                steps += 1
            }
            return -1
        }
    }

    /// New records of a measure per day within the range, and how many came before it.
    func newPerDay(_ measure: GrowthMeasure) -> (before: Int, perDay: [AnalyticsSnapshot.Day: Int]) {
        var perDay = DayTally(), earlier = 0
        func count(_ day: AnalyticsSnapshot.Day) {
            if within(day) { perDay.add(day) } else if before(day) { earlier += 1 }
        }
        switch measure {
        case .participants:
            for participant in snapshot.participants where participant.alive && inScope(participant) { count(participant.created) }
        case .activities:
            for activity in snapshot.activities where activity.alive && inScope(activity) { count(activity.start) }
        case .assignments:
            for assignment in snapshot.assignments where assignment.alive {
                if venueInScope != nil {
                    guard Int(assignment.activity) < snapshot.activities.count else { continue }
                    let activity = snapshot.activities[Int(assignment.activity)]
                    guard activity.alive, inScope(activity) else { continue }
                }
                count(assignment.assigned)
            }
        }
        return (earlier, perDay.perDay)
    }
}

/// Counts per day, in an array with a slot for each day of 31-day months: hashing each day into a dictionary cost more
/// than the rest of a growth report's counting. Days outside the array's years go to a dictionary.
private struct DayTally {
    typealias Day = AnalyticsSnapshot.Day
    static let firstYear: Day = 1900, years: Day = 300
    private var slots = [Int32](repeating: 0, count: Int(years * 372))
    private var others: [Day: Int] = [:]

    mutating func add(_ day: Day) {
        let (year, month, date) = (day / 10_000, day / 100 % 100, day % 100)
        guard year >= Self.firstYear, year < Self.firstYear + Self.years, (1...12).contains(month), (1...31).contains(date) else {
            others[day, default: 0] += 1
            return
        }
        slots[Int((year - Self.firstYear) * 372 + (month - 1) * 31 + date - 1)] += 1
    }

    var perDay: [Day: Int] {
        var counts = others
        for (slot, count) in slots.enumerated() where count > 0 {
            let slot = Day(slot)
            counts[(Self.firstYear + slot / 372) * 10_000 + (slot % 372 / 31 + 1) * 100 + slot % 31 + 1, default: 0] += Int(count)
        }
        return counts
    }
}
