import Foundation
import Translations

/// Where a visit list stands: made, being walked, finished.
public enum VisitStatus: String, Sendable, CaseIterable, Codable {
    case planned = "PLANNED", inProgress = "IN_PROGRESS", done = "DONE"

    public var label: String {
        switch self {
        case .planned: "Planned"
        case .inProgress: "In progress"
        case .done: "Done"
        }
    }
}

/// A named list of stops for one organizer on one day, with its purpose and the script or notes they take along.
public struct VisitList: Sendable, Equatable, Identifiable {
    public var id: UUID
    public var name: String
    public var visitDate: CalendarDate
    public var purpose: String
    public var script: String
    public var assigneeId: UUID
    public var status: VisitStatus
    public var version: Int
    public var createdAt: Date
    public var updatedAt: Date

    /// Stops are removed only while the list is planned. Its walk starts with its first log or when it is taken onto a
    /// phone that may log on it (`AppDatabase.startWalk`): from then on that phone may hold visits kept away from the
    /// network for any stop, which the server cannot see. A removed stop would leave them nowhere to land, where a stop
    /// left in place loses nothing.
    public var allowsRemovingStops: Bool { status == .planned }
    public static let stopsStayOnceStarted = Message(
        "This stop cannot be removed: the list's walk has started (a visit was logged, or the organizer took the list onto their phone), and a visit logged there on the phone may not have reached the server yet. Leave the stop; it can stay not visited.")
    /// A list is deleted only while planned, for the same reason: deleting it takes its stops along.
    public var allowsDeleting: Bool { allowsRemovingStops }
    public static let listStaysOnceStarted = Message(
        "This list cannot be deleted: its walk has started (a visit was logged, or the organizer took the list onto their phone), and a visit logged on the phone may not have reached the server yet. Mark it Done instead.")
    /// A started list never goes back to planned, which would let its stops be removed again.
    public func allowsStatus(_ next: VisitStatus) -> Bool { allowsRemovingStops || next != .planned }
    public static let staysStarted = Message("This list's walk has started, so it cannot go back to Planned; choose In progress or Done")

    /// Why a list with logs stays: the refusal its deletion gets.
    public static func deletionRefusal(name: String, logged: Int) -> Message {
        Message("“{name}” cannot be deleted: {count} visit was logged on it, and logs are kept. Mark it Done instead.",
                plural: "“{name}” cannot be deleted: {count} visits were logged on it, and logs are kept. Mark it Done instead.",
                count: logged, ["name": .text(name)])
    }

    /// A record holding only its id and version, for its declaration's decoding to fill in.
    public static func blank(id: UUID, version: Int) -> VisitList {
        VisitList(id: id, name: "", visitDate: .unreadable, purpose: "", script: "", assigneeId: .zero, status: .planned,
                  version: version, createdAt: .unreadable, updatedAt: .unreadable)
    }
}

/// What the visit list form or API submits, as typed.
public struct VisitListInput: Sendable, Equatable {
    public var name: String
    public var visitDate: String
    public var purpose: String
    public var script: String
    public var assigneeId: String
    public var status: String

    public init(name: String, visitDate: String, purpose: String = "", script: String = "", assigneeId: String,
                status: String = VisitStatus.planned.rawValue) {
        (self.name, self.visitDate, self.purpose, self.script, self.assigneeId, self.status) = (name, visitDate, purpose, script, assigneeId, status)
    }

    public enum Rules {
        public static let name = TextRule(label: Message("Name"), maxLength: 200, missing: Message("Enter a name for the list, like “Riverside, Saturday morning”"))
        public static let visitDate = DateRule(missing: Message("Enter the day of the visits, like 2025-03-12"),
                                               invalid: Message("Enter the day of the visits as a real day, like 2025-03-12"))
        public static let purpose = TextRule(label: Message("Purpose"), maxLength: 500)
        public static let script = TextRule(label: Message("Notes or script"), maxLength: 5000)
        public static let assigneeId = IDRule(required: true, message: Message("Choose the organizer who makes these visits"))
        public static let status = ChoiceRule(VisitStatus.self, required: true, message: Message("Choose Planned, In progress or Done"))
    }

    public struct Valid: Sendable, Equatable {
        public let name: String
        public let visitDate: CalendarDate
        public let purpose: String
        public let script: String
        public let assigneeId: UUID
        public let status: VisitStatus
    }

    public func validated() throws -> Valid {
        var errors = ValidationError()
        let name = Rules.name.check(self.name, field: "name", into: &errors)
        let date = Rules.visitDate.check(visitDate, field: "visit_date", into: &errors)
        let purpose = Rules.purpose.check(self.purpose, field: "purpose", into: &errors)
        let script = Rules.script.check(self.script, field: "script", into: &errors)
        let assignee = Rules.assigneeId.check(assigneeId, field: "assigned_user_id", into: &errors)
        let status = Rules.status.check(self.status, as: VisitStatus.self, field: "status", into: &errors)
        try errors.throwIfAny()
        return Valid(name: name, visitDate: date!, purpose: purpose, script: script, assigneeId: assignee!, status: status!)
    }
}

/// One place on a visit list: a venue, or a participant at their home venue. `followUpOf` names the stop on an
/// earlier list whose "follow-up needed" put it here.
public struct VisitStop: Sendable, Equatable, Identifiable {
    public var id: UUID
    public var listId: UUID
    public var venueId: UUID
    public var participantId: UUID?
    public var followUpOf: UUID?
    public var version: Int
    public var createdAt: Date

    public init(id: UUID = UUID(), listId: UUID, venueId: UUID, participantId: UUID?, followUpOf: UUID? = nil, version: Int = 1,
                createdAt: Date = Date()) {
        (self.id, self.listId, self.venueId, self.participantId) = (id, listId, venueId, participantId)
        (self.followUpOf, self.version, self.createdAt) = (followUpOf, version, createdAt)
    }

    /// Who or what is visited, the same on every list: the participant at the venue, or the venue alone.
    public var target: StopTarget { StopTarget(venueId: venueId, participantId: participantId) }
}

/// The person or place a stop visits, independent of the list (for "not visited since" and follow-ups).
public struct StopTarget: Sendable, Hashable, Comparable {
    public let venueId: UUID
    public let participantId: UUID?

    public init(venueId: UUID, participantId: UUID?) { (self.venueId, self.participantId) = (venueId, participantId) }

    /// How a picked stop is written in a form: `venue` or `venue:participant`.
    public var token: String {
        venueId.uuidString.lowercased() + (participantId.map { ":" + $0.uuidString.lowercased() } ?? "")
    }

    public init?(token: String) {
        let parts = token.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard (1...2).contains(parts.count), let venue = UUID.strict(parts[0]) else { return nil }
        if parts.count == 2 {
            guard let person = UUID.strict(parts[1]) else { return nil }
            self.init(venueId: venue, participantId: person)
        } else {
            self.init(venueId: venue, participantId: nil)
        }
    }

    public static func < (lhs: StopTarget, rhs: StopTarget) -> Bool { lhs.token < rhs.token }
}

/// The fields of a stop as the API adds one.
public enum VisitStopRules {
    public static let venueId = IDRule(required: true, message: Message("Choose the venue to visit"))
    public static let participantId = IDRule(required: false, message: Message("Choose a participant, or leave it empty to visit the venue"))
    public static let rules: [String: FieldRule] = ["venue_id": .id(venueId), "participant_id": .id(participantId)]
}

extension VisitList {
    /// The new record a checked input makes, at its first version.
    public init(_ valid: VisitListInput.Valid, id: UUID, at now: Date) {
        self.init(id: id, name: valid.name, visitDate: valid.visitDate, purpose: valid.purpose, script: valid.script,
                  assigneeId: valid.assigneeId, status: valid.status, version: 1, createdAt: now, updatedAt: now)
    }
}
