import Foundation
import Translations

/// Where an activity stands. PLANNED: not started yet; ACTIVE: under way; COMPLETED: finished as intended;
/// CANCELLED: stopped or called off.
public enum ActivityStatus: String, Sendable, CaseIterable, Codable {
    case planned = "PLANNED", active = "ACTIVE", completed = "COMPLETED", cancelled = "CANCELLED"

    public var label: String { message.english }

    /// The status in words, translated where it is shown.
    public var message: Message {
        switch self {
        case .planned: Message("Planned")
        case .active: Message("Active")
        case .completed: Message("Completed")
        case .cancelled: Message("Cancelled")
        }
    }
}

/// Something that happens (Requirement 5): finite when it has an end date, ongoing when it has none (Property 7).
public struct Activity: Sendable, Equatable, Identifiable {
    public var id: UUID
    public var name: String
    public var description: String?
    public var typeId: UUID
    public var startDate: CalendarDate
    public var endDate: CalendarDate?
    public var status: ActivityStatus
    public var version: Int
    public var createdAt: Date
    public var updatedAt: Date

    /// A record holding only its id and version, for its declaration's decoding to fill in.
    public static func blank(id: UUID, version: Int) -> Activity {
        Activity(id: id, name: "", description: nil, typeId: .zero, startDate: .unreadable, endDate: nil, status: .active,
                 version: version, createdAt: .unreadable, updatedAt: .unreadable)
    }

    /// Ongoing activities have no end date; finite ones do.
    public var isOngoing: Bool { endDate == nil }

    /// "12 Mar 2025 – 30 Jun 2025" or "since 12 Mar 2025, ongoing".
    public var dateText: String { Self.dateText(start: startDate, end: endDate) }

    public static func dateText(start: CalendarDate, end: CalendarDate?) -> String {
        end.map { "\(start.display) – \($0.display)" } ?? "since \(start.display), ongoing"
    }
}

/// What the activity form or API submits, as typed.
public struct ActivityInput: Sendable, Equatable {
    public var name: String
    public var description: String
    public var typeId: String
    public var startDate: String
    /// "finite" or "ongoing".
    public var duration: String
    public var endDate: String
    public var status: String
    public var venueIds: [String]
    /// From when venue changes apply; empty means today.
    public var venuesFrom: String

    public init(name: String, description: String = "", typeId: String, startDate: String, duration: String, endDate: String = "",
                status: String, venueIds: [String] = [], venuesFrom: String = "") {
        self.name = name
        self.description = description
        self.typeId = typeId
        self.startDate = startDate
        self.duration = duration
        self.endDate = endDate
        self.status = status
        self.venueIds = venueIds
        self.venuesFrom = venuesFrom
    }

    /// The rule of each field, which the kind's declaration (Records) gives the field. Whether an end date is needed depends on
    /// the duration (`checkEnd`).
    public enum Rules {
        public static let name = TextRule(label: Message("Name"), maxLength: 200, missing: Message("Enter a name for the activity"))
        public static let description = TextRule(label: Message("Description"), maxLength: 2000)
        public static let typeId = IDRule(required: true, message: Message("Choose the type of activity"))
        public static let startDate = DateRule(missing: Message("Enter the date the activity starts"),
                                               invalid: Message("Enter the start date as a real day, like 2025-03-12"))
        public static let endDate = DateRule(invalid: Message("Enter the end date as a real day, like 2025-06-30"))
        public static let status = ChoiceRule(ActivityStatus.self, required: true, message: Message("Choose the activity's status"))
        public static let venueIds = IDRule(required: false, message: Message("Choose the venues from the list"))
        public static let venuesFrom = DateRule(invalid: Message("Enter the date as a real day, like 2025-03-12"))
    }

    /// A checked activity; past start dates are allowed (organizers record activities already under way).
    public struct Valid: Sendable, Equatable {
        public let name: String
        public let description: String?
        public let typeId: UUID
        public let startDate: CalendarDate
        public let endDate: CalendarDate?
        public let status: ActivityStatus
        public let venueIds: [UUID]
        /// When the venue choice applies; nil when not given (a new activity's venues then apply from its start).
        public let venuesFrom: CalendarDate?
    }

    public func validated(today: CalendarDate = .today()) throws -> Valid {
        var errors = ValidationError()
        let name = Rules.name.check(self.name, field: "name", into: &errors)
        let description = Rules.description.check(self.description, field: "description", into: &errors)
        let type = Rules.typeId.check(typeId, field: "activity_type_id", into: &errors)
        let start = Rules.startDate.check(startDate, field: "start_date", into: &errors)
        let end = Self.checkEnd(duration: duration, endDate: endDate, start: start, into: &errors)
        let status = Rules.status.check(self.status, as: ActivityStatus.self, field: "status", into: &errors)
        let venues = Rules.venueIds.check(venueIds, field: "venue_ids", into: &errors)
        let moved = Rules.venuesFrom.check(venuesFrom, field: "venues_from", into: &errors)
        try errors.throwIfAny()
        return Valid(name: name, description: description.isEmpty ? nil : description, typeId: type!, startDate: start!,
                     endDate: end, status: status!, venueIds: venues, venuesFrom: moved)
    }

    private static func checkEnd(duration: String, endDate: String, start: CalendarDate?, into errors: inout ValidationError) -> CalendarDate? {
        switch duration {
        case "ongoing":
            if !endDate.isEmpty { errors.add("end_date", Message("An ongoing activity has no end date: clear the end date, or choose “Finite”")) }
            return nil
        case "finite":
            guard !endDate.isEmpty else {
                errors.add("end_date", Message("Enter the date a finite activity ends, or choose “Ongoing”"))
                return nil
            }
            guard let end = Rules.endDate.check(endDate, field: "end_date", into: &errors) else { return nil }
            PairedFieldRules.endAfterStart(start: start, end: end, into: &errors)
            return end
        default:
            errors.add("duration", Message("Choose whether the activity is finite or ongoing"))
            return nil
        }
    }
}

extension Activity {
    /// The new record a checked input makes, at its first version.
    public init(_ valid: ActivityInput.Valid, id: UUID, at now: Date) {
        self.init(id: id, name: valid.name, description: valid.description, typeId: valid.typeId, startDate: valid.startDate,
                  endDate: valid.endDate, status: valid.status, version: 1, createdAt: now, updatedAt: now)
    }
}
