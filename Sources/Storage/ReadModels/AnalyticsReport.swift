import Domain
import Foundation

/// What an analytics view counts: the days, and the area (with every area inside it) or everywhere.
public struct AnalyticsScope: Sendable, Equatable {
    public var range: DateRange
    public var areaId: UUID?

    public init(range: DateRange, areaId: UUID? = nil) { (self.range, self.areaId) = (range, areaId) }
}

/// How many of one group (an activity type, a status, a role) there are.
public struct GroupCount: Sendable, Equatable, Encodable {
    /// The group's id, or the status code for statuses.
    public let key: String
    public let label: String
    public let count: Int
}

/// Engagement in one area of the breakdown, counting the area and every area inside it.
public struct AreaEngagement: Sendable, Equatable, Encodable {
    /// The id as stored and as the API shows it (lower case).
    public let areaId: String
    public let name: String
    /// false for the row of the chosen area's own venues (not inside any of its child areas).
    public let isChildArea: Bool
    public let hasAreasInside: Bool
    public let participants: Int
    /// Activities held here whose dates overlap the range, whatever their status.
    public let activitiesInRange: Int
    public let participation: Int

    /// The API's documented key for the activities in the range is `active_activities` (snake case as written, which
    /// the API's key conversion leaves alone).
    private enum CodingKeys: String, CodingKey {
        case areaId, name, isChildArea, hasAreasInside, participants, participation
        case activitiesInRange = "active_activities"
    }
}

/// The engagement view's figures (Requirement 7.1-7.3, 7.11, 7.12). A participant belongs to the area of their home
/// venue; an activity to the areas of its current venues; each is counted once however many of them fall inside.
public struct EngagementReport: Sendable, Equatable, Encodable {
    /// The range's first and last day; null for an open end.
    @NullEncoded public var from: CalendarDate?
    @NullEncoded public var to: CalendarDate?
    @NullEncoded public var areaId: UUID?
    /// Participants recorded by the end of the range.
    public let totalParticipants: Int
    /// Activities starting by the end of the range.
    public let totalActivities: Int
    /// Activities whose dates overlap the range, whatever their status (shown as "Activities in the range").
    public let activitiesInRange: Int
    /// Activities in the range with no end date, whatever their status.
    public let openEndedActivitiesInRange: Int
    /// Participants with at least one assignment to an activity in the range.
    public let participation: Int
    /// Participants recorded in the range.
    public let newParticipants: Int
    /// Activities starting in the range.
    public let newActivities: Int
    /// Activities in the range by type and by status (every status); participants taking part, by the role they took.
    public let activitiesByType: [GroupCount]
    public let activitiesByStatus: [GroupCount]
    public let participantsByRole: [GroupCount]
    /// Per child area of the chosen area (per top-level area when none is chosen), then the chosen area's own venues.
    public let breakdown: [AreaEngagement]

    /// The API's documented keys for the activities in the range are `active_activities` and `ongoing_activities`.
    private enum CodingKeys: String, CodingKey {
        case from, to, areaId, totalParticipants, totalActivities, participation, newParticipants, newActivities
        case activitiesByType, activitiesByStatus, participantsByRole, breakdown
        case activitiesInRange = "active_activities", openEndedActivitiesInRange = "ongoing_activities"
    }
}

/// One of the growth view's series.
public enum GrowthMeasure: String, Sendable, CaseIterable, Encodable {
    case participants, activities, assignments

    public var label: String { "New " + rawValue }
    /// When a record of this measure is new.
    public var rule: String {
        switch self {
        case .participants: "a participant is new on the day they were recorded in Fieldbook"
        case .activities: "an activity is new on the day it starts"
        case .assignments: "an assignment is new on the day it was made"
        }
    }
}

/// How a period's count compares with the period before it.
public struct PeriodChange: Sendable, Equatable, Encodable {
    public enum Direction: String, Sendable, Encodable, CaseIterable { case up, down, none, notComparable = "not_comparable", first }

    public let direction: Direction
    /// (this − previous) ÷ previous × 100; nil when the previous period counted nothing or there is none shown.
    @NullEncoded public var percent: Double?

    /// The change from `previous` (nil: no earlier period shown) to `current`.
    public init(from previous: Int?, to current: Int) {
        guard let previous else { (direction, percent) = (.first, nil); return }
        guard previous > 0 else { (direction, percent) = (current == 0 ? .none : .notComparable, nil); return }
        let percent = Double(current - previous) / Double(previous) * 100
        self.percent = percent
        direction = current > previous ? .up : current < previous ? .down : .none
    }

    /// "+25.0% (up)", "−10.0% (down)", "no change", "not comparable (none the period before)".
    public var text: String {
        switch direction {
        case .up: "+" + Self.format(percent ?? 0) + "% (up)"
        case .down: "\u{2212}" + Self.format(-(percent ?? 0)) + "% (down)"
        case .none: "no change"
        case .notComparable: "not comparable (none the period before)"
        case .first: "first period shown"
        }
    }

    private static func format(_ value: Double) -> String { String(format: "%.1f", value) }

    private enum CodingKeys: String, CodingKey { case direction, percent, text }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(direction, forKey: .direction)
        try container.encode(_percent, forKey: .percent)
        try container.encode(text, forKey: .text)
    }
}

/// One period of a growth series.
public struct GrowthPoint: Sendable, Equatable, Encodable {
    public let start: CalendarDate
    /// The period's last day within the range.
    public let end: CalendarDate
    public let label: String
    /// The range cuts the period short.
    public let partial: Bool
    public let count: Int
    /// Every record up to the end of the period: the series' `before` plus the running sum.
    public let cumulative: Int
    public let change: PeriodChange
}

public struct GrowthSeries: Sendable, Equatable, Encodable {
    public let measure: GrowthMeasure
    public let label: String
    /// Records before the first period shown.
    public let before: Int
    public let points: [GrowthPoint]
}

/// The growth view (Requirement 7.6-7.10): new records per period, the change against the period before, cumulative.
public struct GrowthReport: Sendable, Equatable, Encodable {
    /// The range counted: an open end of the chosen range is closed at the first or last record (or today).
    public let from: CalendarDate
    public let to: CalendarDate
    @NullEncoded public var areaId: UUID?
    public let period: GrowthPeriod
    /// The period asked for, when the range had too many of them and a longer one is shown instead.
    @NullEncoded public var requestedPeriod: GrowthPeriod?
    public let series: [GrowthSeries]

    /// At most this many periods are shown; a longer range is shown by a longer period.
    public static let maxPeriods = 160
}

/// Encodes nil as JSON null rather than leaving the key out, because the API's document promises every key.
/// Ids are written in lower case, as stored.
@propertyWrapper
public struct NullEncoded<Value: Encodable & Sendable>: Encodable, Sendable {
    public var wrappedValue: Value?

    public init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch wrappedValue {
        case let id as UUID: try container.encode(id.databaseText)
        case let value?: try container.encode(value)
        case nil: try container.encodeNil()
        }
    }
}

extension NullEncoded: Equatable where Value: Equatable {}
