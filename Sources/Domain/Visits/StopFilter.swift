import Foundation
import Translations

/// Which stops a list built from a filter holds: participants at their home venues, or venues.
public enum StopSource: String, Sendable, CaseIterable, Codable {
    case participants, venues

    public var label: String { self == .participants ? "Participants at their homes" : "Venues" }
}

/// The filter a visit list is built from. Every condition given must hold; none given means every
/// participant with a home (or every venue).
public struct StopFilter: Sendable, Equatable {
    public var source: StopSource
    /// Venues in this area or any area inside it.
    public var areaId: UUID?
    public var venueType: VenueType?
    /// Participants assigned to this activity (participants only).
    public var activityId: UUID?
    /// Targets with no contact logged on or after this day.
    public var notVisitedSince: CalendarDate?
    /// Targets whose latest contact log says "follow-up needed".
    public var followUpOnly: Bool

    public init(source: StopSource = .participants, areaId: UUID? = nil, venueType: VenueType? = nil, activityId: UUID? = nil,
                notVisitedSince: CalendarDate? = nil, followUpOnly: Bool = false) {
        (self.source, self.areaId, self.venueType, self.activityId) = (source, areaId, venueType, activityId)
        (self.notVisitedSince, self.followUpOnly) = (notVisitedSince, followUpOnly)
    }
}

/// The filter as the form and the API send it.
public struct StopFilterInput: Sendable, Equatable {
    public var source: String
    public var areaId: String
    public var venueType: String
    public var activityId: String
    public var notVisitedSince: String
    public var followUpOnly: Bool

    public init(source: String = StopSource.participants.rawValue, areaId: String = "", venueType: String = "", activityId: String = "",
                notVisitedSince: String = "", followUpOnly: Bool = false) {
        (self.source, self.areaId, self.venueType, self.activityId) = (source, areaId, venueType, activityId)
        (self.notVisitedSince, self.followUpOnly) = (notVisitedSince, followUpOnly)
    }

    public enum Rules {
        public static let source = ChoiceRule(StopSource.self, required: true, message: Message("Choose whether the stops are participants or venues"))
        public static let areaId = IDRule(required: false, message: Message("Choose an area from the list, or Any area"))
        public static let venueType = ChoiceRule(VenueType.self, required: false, message: Message("Choose a kind of venue, or Any kind"))
        public static let activityId = IDRule(required: false, message: Message("Choose an activity from the list, or Any activity"))
        public static let notVisitedSince = DateRule(invalid: Message("Enter the day as a real day, like 2025-03-12, or leave it empty"))
    }

    public static let rules: [String: FieldRule] = [
        "source": .choice(Rules.source), "area_id": .id(Rules.areaId), "venue_type": .choice(Rules.venueType),
        "activity_id": .id(Rules.activityId), "not_visited_since": .date(Rules.notVisitedSince),
    ]

    public func validated() throws -> StopFilter {
        var errors = ValidationError()
        let source = Rules.source.check(self.source, as: StopSource.self, field: "source", into: &errors)
        let area = Rules.areaId.check(areaId, field: "area_id", into: &errors)
        let type = Rules.venueType.check(venueType, as: VenueType.self, field: "venue_type", into: &errors)
        let activity = Rules.activityId.check(activityId, field: "activity_id", into: &errors)
        let since = Rules.notVisitedSince.check(notVisitedSince, field: "not_visited_since", into: &errors)
        if source == .venues, activity != nil {
            errors.add("activity_id", Message("Participants of an activity are people: choose “Participants at their homes”, or Any activity"))
        }
        try errors.throwIfAny()
        return StopFilter(source: source!, areaId: area, venueType: type, activityId: activity, notVisitedSince: since,
                          followUpOnly: followUpOnly)
    }
}
