import Domain
import Foundation
import GRDB
import PropertyBased
@testable import Storage
import Testing

/// Analytics against counts done by hand: a random community is written straight into the tables, and every figure of
/// the reports is compared with a brute-force count over the same records in Swift.
@Suite struct AnalyticsPropertyTests {
    // Feature: fieldbook, Property 9: Metric Calculation Accuracy
    @Test func property9_metricCalculationAccuracy() async throws {
        await propertyCheck(count: 30, input: Gen.int(in: 0...1_000_000)) { seed in
            var random = SeededGenerator(seed: UInt64(seed))
            let community = try RandomCommunity.written(&random)
            let range = community.range(&random)
            let report = try community.database.engagement(AnalyticsScope(range: range))
            community.expectEngagement(report, range: range, area: nil)
        }
    }

    // Feature: fieldbook, Property 9: Metric Calculation Accuracy (growth: per period, cumulative, percentage change)
    @Test func property9_growthSeriesAccuracy() async throws {
        await propertyCheck(count: 30, input: Gen.int(in: 0...1_000_000), Gen.int(in: 0...3)) { seed, periodIndex in
            var random = SeededGenerator(seed: UInt64(seed))
            let community = try RandomCommunity.written(&random)
            let picked = community.range(&random)
            let from = picked.from ?? RandomCommunity.day(&random)
            let range = DateRange(from: from, to: max(from, picked.to ?? from.adding(days: Int.random(in: 0...400, using: &random))))
            let period = GrowthPeriod.allCases[periodIndex]
            let area = Bool.random(using: &random) ? community.areas.randomElement(using: &random)?.id : nil
            let report = try community.database.growth(AnalyticsScope(range: range, areaId: area), period: period)
            community.expectGrowth(report, range: range, area: area, period: period)
        }
    }

    // Feature: fieldbook, Property 39: Geographic Area Filter Application
    @Test func property39_geographicAreaFilterApplication() async throws {
        await propertyCheck(count: 30, input: Gen.int(in: 0...1_000_000)) { seed in
            var random = SeededGenerator(seed: UInt64(seed))
            let community = try RandomCommunity.written(&random)
            let area = try #require(community.areas.randomElement(using: &random))
            let range = community.range(&random)
            let report = try community.database.engagement(AnalyticsScope(range: range, areaId: area.id))
            community.expectEngagement(report, range: range, area: area.id)
        }
    }

    // Feature: fieldbook, Property 40: Geographic Breakdown Chart Display (the breakdown's figures; the page's table is
    // checked against them in AnalyticsPageTests)
    @Test func property40_geographicBreakdownChartDisplay() async throws {
        await propertyCheck(count: 30, input: Gen.int(in: 0...1_000_000)) { seed in
            var random = SeededGenerator(seed: UInt64(seed))
            let community = try RandomCommunity.written(&random)
            let area = Bool.random(using: &random) ? community.areas.randomElement(using: &random)?.id : nil
            let range = community.range(&random)
            let report = try community.database.engagement(AnalyticsScope(range: range, areaId: area))
            community.expectBreakdown(report.breakdown, range: range, area: area)
        }
    }

    @Test func rangeBoundariesAreInclusive() throws {
        let given = try TestDatabase(linked: false)
        let community = RandomCommunity(database: given.database, holding: given)
        let area = try community.insertArea(parent: nil)
        let venue = try community.insertVenue(in: area)
        let day = CalendarDate("2025-03-31")!
        try community.insertParticipant(home: venue, created: "2025-03-31 23:59:59.999")
        try community.insertParticipant(home: venue, created: "2025-03-01 00:00:00.000")
        try community.insertParticipant(home: venue, created: "2025-04-01 00:00:00.000")
        try community.insertActivity(start: day, end: nil, venues: [venue])
        try community.insertActivity(start: CalendarDate("2025-02-01")!, end: CalendarDate("2025-03-01")!, venues: [venue])
        let march = DateRange(from: CalendarDate("2025-03-01")!, to: day)
        let report = try given.database.engagement(AnalyticsScope(range: march))
        #expect(report.newParticipants == 2)
        #expect(report.totalParticipants == 2)
        #expect(report.newActivities == 1)
        #expect(report.activitiesInRange == 2, "an activity ending on the first day and one starting on the last both overlap")
        #expect(report.openEndedActivitiesInRange == 1)
    }

    @Test func percentageChangeWordsFollowTheFormula() {
        #expect(PeriodChange(from: 4, to: 5).percent == 25)
        #expect(PeriodChange(from: 4, to: 5).text == "+25.0% (up)")
        #expect(PeriodChange(from: 3, to: 2).text == "\u{2212}33.3% (down)")
        #expect(PeriodChange(from: 7, to: 7).text == "no change")
        #expect(PeriodChange(from: 0, to: 0).direction == .none)
        #expect(PeriodChange(from: 0, to: 3).direction == .notComparable)
        #expect(PeriodChange(from: nil, to: 3).direction == .first)
    }
}

/// A random community written into a fresh database, and the same records kept in Swift for counting by hand.
final class RandomCommunity {
    struct Area { let id: UUID; let parent: UUID? }
    struct Venue { let id: UUID; let area: UUID }
    struct Participant { let id: UUID; let home: UUID?; let created: String }
    struct Activity { let id: UUID; let type: UUID; let status: ActivityStatus; let start: CalendarDate; let end: CalendarDate?; let venues: [UUID] }
    struct Assignment { let participant: UUID; let activity: UUID; let role: UUID; let made: String }

    let database: AppDatabase
    private let holding: TestDatabase
    var areas: [Area] = [], venues: [Venue] = [], participants: [Participant] = [], activities: [Activity] = []
    var assignments: [Assignment] = []
    let types: [UUID], roles: [UUID]

    init(database: AppDatabase, holding: TestDatabase) {
        self.database = database
        self.holding = holding
        types = (try? database.categories(.activityType).map(\.id)) ?? []
        roles = (try? database.categories(.participantRole).map(\.id)) ?? []
    }

    static func day(_ random: inout SeededGenerator) -> CalendarDate {
        CalendarDate("2024-01-01")!.adding(days: Int.random(in: 0...900, using: &random))
    }

    /// A range with either end sometimes open, and often on a day a record starts, ends or was made, where an
    /// off-by-one in a bound would show.
    func range(_ random: inout SeededGenerator) -> DateRange {
        let edges = activities.flatMap { [$0.start] + ($0.end.map { [$0] } ?? []) } + participants.map { Self.dayOf($0.created) }
        var from = Self.day(&random), to = from.adding(days: Int.random(in: 0...300, using: &random))
        if Bool.random(using: &random), let edge = edges.randomElement(using: &random) { from = edge }
        if Bool.random(using: &random), let edge = edges.randomElement(using: &random) { to = edge }
        if to < from { (from, to) = (to, from) }
        return DateRange(from: Int.random(in: 0..<5, using: &random) == 0 ? nil : from, to: Int.random(in: 0..<5, using: &random) == 0 ? nil : to)
    }

    static func written(_ random: inout SeededGenerator) throws -> RandomCommunity {
        let given = try TestDatabase(linked: false)
        let community = RandomCommunity(database: given.database, holding: given)
        for _ in 0..<Int.random(in: 1...9, using: &random) {
            let parent = Int.random(in: 0..<3, using: &random) == 0 ? nil : community.areas.randomElement(using: &random)?.id
            try community.insertArea(parent: parent)
        }
        for _ in 0..<Int.random(in: 1...12, using: &random) { try community.insertVenue(in: community.areas.randomElement(using: &random)!.id) }
        for _ in 0..<Int.random(in: 0...40, using: &random) {
            let home = Int.random(in: 0..<6, using: &random) == 0 ? nil : community.venues.randomElement(using: &random)!.id
            try community.insertParticipant(home: home, created: timestamp(&random))
        }
        for _ in 0..<Int.random(in: 0...25, using: &random) {
            let start = day(&random)
            let end = Bool.random(using: &random) ? nil : start.adding(days: Int.random(in: 1...200, using: &random))
            let venues = Array(Set((0..<Int.random(in: 0...3, using: &random)).map { _ in community.venues.randomElement(using: &random)!.id }))
            try community.insertActivity(start: start, end: end, venues: venues, status: ActivityStatus.allCases.randomElement(using: &random)!,
                                         type: community.types.randomElement(using: &random)!,
                                         formerVenue: Bool.random(using: &random) ? community.venues.randomElement(using: &random)!.id : nil)
        }
        if !community.participants.isEmpty && !community.activities.isEmpty {
            for _ in 0..<Int.random(in: 0...60, using: &random) {
                try community.insertAssignment(participant: community.participants.randomElement(using: &random)!.id,
                                               activity: community.activities.randomElement(using: &random)!.id,
                                               role: community.roles.randomElement(using: &random)!, made: timestamp(&random))
            }
        }
        return community
    }

    /// A stored time, sometimes at the very start or end of its day.
    static func timestamp(_ random: inout SeededGenerator) -> String {
        let time = [" 00:00:00.000", " 23:59:59.999", String(format: " %02d:%02d:%02d.%03d", Int.random(in: 0...23, using: &random),
                                                                 Int.random(in: 0...59, using: &random), Int.random(in: 0...59, using: &random),
                                                                 Int.random(in: 0...999, using: &random))].randomElement(using: &random)!
        return day(&random).description + time
    }

    // MARK: - Writing

    @discardableResult
    func insertArea(parent: UUID?) throws -> UUID {
        let id = UUID()
        try database.pool.write { db in
            try db.execute(sql: """
                INSERT INTO geographic_areas (id, name, area_type, parent_id, created_at, updated_at) VALUES (?, ?, 'CITY', ?, ?, ?)
                """, arguments: [id.databaseText, "Area \(areas.count)", parent?.databaseText, Date(), Date()])
        }
        areas.append(Area(id: id, parent: parent))
        return id
    }

    @discardableResult
    func insertVenue(in area: UUID) throws -> UUID {
        let id = UUID()
        try database.pool.write { db in
            try db.execute(sql: """
                INSERT INTO venues (id, name, address, geographic_area_id, created_at, updated_at) VALUES (?, ?, 'Somewhere', ?, ?, ?)
                """, arguments: [id.databaseText, "Venue \(venues.count)", area.databaseText, Date(), Date()])
        }
        venues.append(Venue(id: id, area: area))
        return id
    }

    func insertParticipant(home: UUID?, created: String) throws {
        let id = UUID()
        try database.pool.write { db in
            try db.execute(sql: """
                INSERT INTO participants (id, name, email, home_venue_id, created_at, updated_at) VALUES (?, 'P', 'p@example.org', ?, ?, ?)
                """, arguments: [id.databaseText, home?.databaseText, created, created])
        }
        participants.append(Participant(id: id, home: home, created: created))
    }

    /// `formerVenue` is a closed venue period: where the activity used to be, which no longer places it in an area.
    func insertActivity(start: CalendarDate, end: CalendarDate?, venues: [UUID], status: ActivityStatus = .active, type: UUID? = nil,
                        formerVenue: UUID? = nil) throws {
        let id = UUID(), type = type ?? types[0]
        try database.pool.write { db in
            try db.execute(sql: """
                INSERT INTO activities (id, name, activity_type_id, start_date, end_date, status, created_at, updated_at)
                VALUES (?, 'A', ?, ?, ?, ?, ?, ?)
                """, arguments: [id.databaseText, type.databaseText, start.description, end?.description, status.rawValue, Date(), Date()])
            for venue in venues {
                try db.execute(sql: "INSERT INTO activity_venue_history (id, activity_id, venue_id, effective_from) VALUES (?, ?, ?, '2024-01-01')",
                               arguments: [UUID().databaseText, id.databaseText, venue.databaseText])
            }
            if let formerVenue {
                try db.execute(sql: """
                    INSERT INTO activity_venue_history (id, activity_id, venue_id, effective_from, effective_to) VALUES (?, ?, ?, '2023-01-01', '2024-01-01')
                    """, arguments: [UUID().databaseText, id.databaseText, formerVenue.databaseText])
            }
        }
        activities.append(Activity(id: id, type: type, status: status, start: start, end: end, venues: venues))
    }

    func insertAssignment(participant: UUID, activity: UUID, role: UUID, made: String) throws {
        guard !assignments.contains(where: { $0.participant == participant && $0.activity == activity && $0.role == role }) else { return }
        try database.pool.write { db in
            try db.execute(sql: "INSERT INTO assignments (id, activity_id, participant_id, role_id, assigned_at) VALUES (?, ?, ?, ?, ?)",
                           arguments: [UUID().databaseText, activity.databaseText, participant.databaseText, role.databaseText, made])
        }
        assignments.append(Assignment(participant: participant, activity: activity, role: role, made: made))
    }

    // MARK: - Counting by hand

    /// The area and every area below it, walking parent links upward from each area.
    func subtree(_ root: UUID) -> Set<UUID> {
        Set(areas.filter { area in
            var current: UUID? = area.id
            while let id = current {
                if id == root { return true }
                current = areas.first { $0.id == id }?.parent
            }
            return false
        }.map(\.id))
    }

    func areaOf(venue: UUID) -> UUID { venues.first { $0.id == venue }!.area }

    func lives(_ person: Participant, in areaSet: Set<UUID>?) -> Bool {
        guard let areaSet else { return true }
        return person.home.map { areaSet.contains(areaOf(venue: $0)) } ?? false
    }

    func isHeld(_ activity: Activity, in areaSet: Set<UUID>?) -> Bool {
        guard let areaSet else { return true }
        return activity.venues.contains { areaSet.contains(areaOf(venue: $0)) }
    }

    static func dayOf(_ timestamp: String) -> CalendarDate { CalendarDate(String(timestamp.prefix(10)))! }

    func overlaps(_ activity: Activity, _ range: DateRange) -> Bool {
        if let to = range.to, activity.start > to { return false }
        if let from = range.from, let end = activity.end, end < from { return false }
        return true
    }

    func takingPart(_ range: DateRange, role: UUID? = nil) -> Set<UUID> {
        Set(assignments.filter { assignment in
            (role == nil || assignment.role == role) && overlaps(activities.first { $0.id == assignment.activity }!, range)
        }.map(\.participant))
    }

    func expectEngagement(_ report: EngagementReport, range: DateRange, area: UUID?) {
        let areaSet = area.map(subtree)
        let people = participants.filter { lives($0, in: areaSet) }
        let held = activities.filter { isHeld($0, in: areaSet) }
        let active = held.filter { overlaps($0, range) }
        let byEnd = { (day: CalendarDate) in range.to.map { day <= $0 } ?? true }
        #expect(report.totalParticipants == people.filter { byEnd(Self.dayOf($0.created)) }.count)
        #expect(report.newParticipants == people.filter { range.contains(Self.dayOf($0.created)) }.count)
        #expect(report.totalActivities == held.filter { byEnd($0.start) }.count)
        #expect(report.newActivities == held.filter { range.contains($0.start) }.count)
        #expect(report.activitiesInRange == active.count)
        #expect(report.openEndedActivitiesInRange == active.filter { $0.end == nil }.count)
        let peopleIds = Set(people.map(\.id))
        #expect(report.participation == takingPart(range).intersection(peopleIds).count)
        for group in report.activitiesByType {
            #expect(group.count == active.filter { $0.type.databaseText == group.key }.count)
        }
        #expect(Set(report.activitiesByType.map(\.key)) == Set(types.map(\.databaseText)))
        for group in report.activitiesByStatus {
            #expect(group.count == active.filter { $0.status.rawValue == group.key }.count)
        }
        for group in report.participantsByRole {
            let role = roles.first { $0.databaseText == group.key }!
            #expect(group.count == takingPart(range, role: role).intersection(peopleIds).count)
        }
    }

    func expectBreakdown(_ rows: [AreaEngagement], range: DateRange, area: UUID?) {
        let children = areas.filter { $0.parent == area }
        var expected: [(id: UUID, areaSet: Set<UUID>, isChild: Bool)] = children.map { ($0.id, subtree($0.id), true) }
        if let area { expected.append((area, [area], false)) }
        var seen = 0
        for bucket in expected {
            let people = participants.filter { lives($0, in: bucket.areaSet) }
            let participantsCount = people.filter { person in range.to.map { Self.dayOf(person.created) <= $0 } ?? true }.count
            let active = activities.filter { isHeld($0, in: bucket.areaSet) && overlaps($0, range) }.count
            let taking = takingPart(range).intersection(people.map(\.id)).count
            let row = rows.first { $0.areaId == bucket.id.databaseText && $0.isChildArea == bucket.isChild }
            if !bucket.isChild && participantsCount + active + taking == 0 {
                #expect(row == nil, "the area's own row appears only when something is counted there")
                continue
            }
            guard let row else { Issue.record("no breakdown row for \(bucket.id)"); continue }
            seen += 1
            #expect(row.participants == participantsCount)
            #expect(row.activitiesInRange == active)
            #expect(row.participation == taking)
            #expect(row.hasAreasInside == areas.contains { $0.parent == bucket.id })
        }
        #expect(rows.count == seen, "one row per child area (and the area's own venues), no more")
    }

    func expectGrowth(_ report: GrowthReport, range: DateRange, area: UUID?, period: GrowthPeriod) {
        let areaSet = area.map(subtree)
        let days: [GrowthMeasure: [CalendarDate]] = [
            .participants: participants.filter { lives($0, in: areaSet) }.map { Self.dayOf($0.created) },
            .activities: activities.filter { isHeld($0, in: areaSet) }.map(\.start),
            .assignments: assignments.filter { assignment in isHeld(activities.first { $0.id == assignment.activity }!, in: areaSet) }
                .map { Self.dayOf($0.made) },
        ]
        #expect(report.from == range.from && report.to == range.to)
        #expect(report.series.map(\.measure) == GrowthMeasure.allCases)
        #expect(report.period == period || report.requestedPeriod == period, "the period used is the one asked for, or says it was not")
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        for series in report.series {
            let measured = days[series.measure]!
            #expect(series.before == measured.filter { $0 < range.from! }.count)
            var running = series.before, previous: Int?
            for (index, point) in series.points.enumerated() {
                let parts = DateComponents(calendar: calendar, year: point.start.year, month: point.start.month, day: point.start.day)
                let weekday = calendar.component(.weekday, from: calendar.date(from: parts)!)
                // A range too long for the requested period is shown by a longer one, and the report says so.
                switch report.period {
                case .week: #expect(weekday == 2, "weeks start on Monday")
                case .month: #expect(point.start.day == 1)
                case .quarter: #expect(point.start.day == 1 && [1, 4, 7, 10].contains(point.start.month))
                case .year: #expect(point.start.day == 1 && point.start.month == 1)
                }
                if index == 0 { #expect(point.start <= range.from! && range.from! <= point.end) }
                if index > 0 { #expect(point.start == series.points[index - 1].end.adding(days: 1)) }
                let counted = max(point.start, range.from!)
                #expect(point.count == measured.filter { counted <= $0 && $0 <= point.end }.count)
                running += point.count
                #expect(point.cumulative == running, "cumulative is the running sum after the records before the range")
                let change = point.change
                switch previous {
                case nil: #expect(change.direction == .first)
                case 0?: #expect(change.direction == (point.count == 0 ? .none : .notComparable) && change.percent == nil)
                case let before?:
                    #expect(change.percent == Double(point.count - before) / Double(before) * 100)
                    #expect(change.direction == (point.count > before ? .up : point.count < before ? .down : .none))
                }
                previous = point.count
            }
            #expect(series.points.last?.end == range.to)
        }
    }
}
