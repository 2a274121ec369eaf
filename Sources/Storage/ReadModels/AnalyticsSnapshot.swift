import Domain
import Foundation
import GRDB
import Records

/// What the analytics count, held in memory as arrays of small integers and brought up to date from the change log
/// before each report. Counting distinct participants over 150,000 assignments in SQL takes hundreds of milliseconds
/// (text ids, temporary B-trees); over these arrays it takes a few. The change log's sequence is the snapshot's version:
/// every write to a synced table, from any process, moves it, so a report never counts stale rows.
final class AnalyticsSnapshot: @unchecked Sendable {
    /// A day as `YYYYMMDD`: ordered like the dates it stands for, and read without a date parser.
    typealias Day = Int32
    static let noDay: Day = .max

    struct Participant { var alive = false; var created: Day = 0; var home: Int32 = -1 }
    struct Activity { var alive = false; var start: Day = 0; var end: Day = noDay; var type: Int32 = 0; var status: Int32 = 0; var venues: [Int32] = [] }
    struct Assignment { var alive = false; var activity: Int32 = 0; var participant: Int32 = 0; var role: Int32 = 0; var assigned: Day = 0 }

    private(set) var version: Int64 = -1
    /// Per area index: its parent's index, -1 at the top; per venue index: its area's index, -1 once gone.
    private(set) var areaParent: [Int32] = []
    private(set) var venueArea: [Int32] = []
    private(set) var participants: [Participant] = []
    private(set) var activities: [Activity] = []
    private(set) var assignments: [Assignment] = []

    private(set) var areas = Interned<String>(), venues = Interned<String>(), types = Interned<String>(), statuses = Interned<String>(),
                 roles = Interned<String>()
    private var participantIndex = Interned<String>(), activityIndex = Interned<String>(), assignmentIndex = Interned<String>()

    /// Brings the snapshot to the database's current version: the rows the change log names since the last time, or
    /// everything on first use (or after a change too large to patch row by row).
    func refresh(_ db: Database) throws {
        let current = try Int64.fetchOne(db, sql: "SELECT MAX(seq) FROM change_log") ?? 0
        guard current != version else { return }
        let changed = version < 0 ? [] : try Row.fetchAll(db, sql: "SELECT entity, entity_id FROM change_log WHERE seq > ?", arguments: [version])
        if version < 0 || changed.count > 20_000 {
            try loadPlaces(db)
            try loadParticipants(db, ids: nil)
            try loadActivities(db, ids: nil)
            try loadCurrentVenues(db)
            try loadAssignments(db, ids: nil)
        } else {
            var ids: [String: [String]] = [:]
            for row in changed { ids[row[0], default: []].append(row[1]) }
            if ids["geographic_area"] != nil || ids["venue"] != nil { try loadPlaces(db) }
            if let changed = ids["participant"] { try loadParticipants(db, ids: changed) }
            if let changed = ids["activity"] { try loadActivities(db, ids: changed) }
            if ids["activity"] != nil || ids["activity_venue"] != nil { try loadCurrentVenues(db) }
            if let changed = ids["assignment"] { try loadAssignments(db, ids: changed) }
        }
        version = current
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
        try forEachRow(db, "SELECT id, created_at, \(Domain.Participant.homeVenueColumn) FROM participants", ids: ids, of: &participants, index: &participantIndex) { row, _ in
            Participant(alive: true, created: Self.day(row[1]) ?? 0, home: (row[2] as String?).map { venues.index($0) } ?? -1)
        }
        if venueArea.count < venues.count { venueArea += Array(repeating: -1, count: venues.count - venueArea.count) }
    }

    private func loadActivities(_ db: Database, ids: [String]?) throws {
        try forEachRow(db, "SELECT id, start_date, end_date, activity_type_id, status FROM activities", ids: ids, of: &activities,
                       index: &activityIndex) { row, previous in
            // Its current venues come from their own table (loadCurrentVenues); an edit of the activity keeps them.
            Activity(alive: true, start: Self.day(row[1]) ?? 0, end: Self.day(row[2]) ?? Self.noDay, type: types.index(row[3]),
                     status: statuses.index(row[4]), venues: previous?.venues ?? [])
        }
    }

    private func loadCurrentVenues(_ db: Database) throws {
        for index in activities.indices { activities[index].venues = [] }
        let rows = try Row.fetchCursor(db, sql: "SELECT activity_id, venue_id FROM activity_venue_history WHERE effective_to IS NULL")
        while let row = try rows.next() {
            guard let activity = activityIndex.existing(row[0]) else { continue }
            activities[Int(activity)].venues.append(venues.index(row[1]))
        }
        if venueArea.count < venues.count { venueArea += Array(repeating: -1, count: venues.count - venueArea.count) }
    }

    private func loadAssignments(_ db: Database, ids: [String]?) throws {
        try forEachRow(db, "SELECT id, activity_id, participant_id, role_id, assigned_at FROM assignments", ids: ids, of: &assignments,
                       index: &assignmentIndex) { row, _ in
            Assignment(alive: true, activity: activityIndex.index(row[1]), participant: participantIndex.index(row[2]),
                       role: roles.index(row[3]), assigned: Self.day(row[4]) ?? 0)
        }
        // An assignment may name a participant or activity read later (or never, if the row is refused): keep the arrays
        // as long as the indexes, with empty entries.
        if participants.count < participantIndex.count { participants += Array(repeating: Participant(), count: participantIndex.count - participants.count) }
        if activities.count < activityIndex.count { activities += Array(repeating: Activity(), count: activityIndex.count - activities.count) }
    }

    /// Reads every row of a table (ids nil) or the named ones, and stores each at its id's index; a named id with no row
    /// any more is marked gone.
    private func forEachRow<Element>(_ db: Database, _ sql: String, ids: [String]?, of elements: inout [Element], index: inout Interned<String>,
                                     _ make: (Row, Element?) -> Element) throws where Element: AnalyticsEntry {
        var seen = Set<Int32>()
        func store(_ row: Row) {
            let position = index.index(row[0])
            let previous = Int(position) < elements.count ? elements[Int(position)] : nil
            if elements.count <= Int(position) { elements += Array(repeating: Element(), count: Int(position) + 1 - elements.count) }
            elements[Int(position)] = make(row, previous)
            seen.insert(position)
        }
        guard let ids else {
            elements = []
            let rows = try Row.fetchCursor(db, sql: sql)
            while let row = try rows.next() { store(row) }
            return
        }
        for chunk in stride(from: 0, to: ids.count, by: 500).map({ Array(ids[$0..<min($0 + 500, ids.count)]) }) {
            let rows = try Row.fetchCursor(db, sql: sql + " WHERE id IN (\(databaseQuestionMarks(count: chunk.count)))",
                                           arguments: StatementArguments(chunk))
            while let row = try rows.next() { store(row) }
        }
        for id in ids {
            if let position = index.existing(id), !seen.contains(position), Int(position) < elements.count { elements[Int(position)] = Element() }
        }
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
        var perDay: [AnalyticsSnapshot.Day: Int] = [:], earlier = 0
        func count(_ day: AnalyticsSnapshot.Day) {
            if within(day) { perDay[day, default: 0] += 1 } else if before(day) { earlier += 1 }
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
        return (earlier, perDay)
    }
}
