import Foundation
import Translations

/// A person taking part in activities (Requirement 4).
public struct Participant: Sendable, Equatable, Identifiable {
    public var id: UUID
    public var name: String
    public var email: String
    public var phone: String?
    public var notes: String?
    public var homeVenueId: UUID?
    public var version: Int
    public var createdAt: Date
    public var updatedAt: Date

    /// A record holding only its id and version, for its declaration's decoding to fill in.
    public static func blank(id: UUID, version: Int) -> Participant {
        Participant(id: id, name: "", email: "", phone: nil, notes: nil, homeVenueId: nil, version: version, createdAt: .unreadable,
                    updatedAt: .unreadable)
    }
}

/// One period a participant lived at a venue, or an activity was held at one (Properties 37 and 38).
public struct VenuePeriod: Sendable, Equatable {
    public let id: UUID
    public let venueId: UUID
    public let venueName: String
    public let effectiveFrom: CalendarDate
    /// nil while the period is current.
    public let effectiveTo: CalendarDate?

    public init(id: UUID, venueId: UUID, venueName: String, effectiveFrom: CalendarDate, effectiveTo: CalendarDate?) {
        self.id = id
        self.venueId = venueId
        self.venueName = venueName
        self.effectiveFrom = effectiveFrom
        self.effectiveTo = effectiveTo
    }
}

/// What the participant form or API submits, as typed.
public struct ParticipantInput: Sendable, Equatable {
    public var name: String
    public var email: String
    public var phone: String
    public var notes: String
    /// The home venue's id; empty for none.
    public var homeVenueId: String
    /// From when a new home venue applies; empty means today.
    public var movedOn: String

    public init(name: String, email: String, phone: String = "", notes: String = "", homeVenueId: String = "", movedOn: String = "") {
        self.name = name
        self.email = email
        self.phone = phone
        self.notes = notes
        self.homeVenueId = homeVenueId
        self.movedOn = movedOn
    }

    public static let maxNameLength = 100
    public static let maxNotesLength = 500
    /// Digits with optional spaces, dashes, dots, parentheses and a leading +; 7 to 15 digits.
    public static let phoneFormat = TextPattern.phoneFormat

    /// The rule of each field, which the kind's declaration (Records) gives the field.
    public enum Rules {
        public static let name = TextRule(label: Message("Name"), maxLength: maxNameLength, missing: Message("Enter the participant's name"))
        public static let email = AccountRules.email
        public static let phone = TextRule(label: Message("Phone"), maxLength: nil, pattern: .phone)
        public static let notes = TextRule(label: Message("Notes"), maxLength: maxNotesLength)
        public static let homeVenueId = IDRule(required: false, message: Message("Choose a home venue from the list, or “No home venue”"))
        public static let movedOn = DateRule(invalid: Message("Enter the date as a real day, like 2025-03-12"))
    }

    /// A checked participant: trimmed fields, lower-cased email, empty optionals as nil.
    public struct Valid: Sendable, Equatable {
        public let name: String
        public let email: String
        public let phone: String?
        public let notes: String?
        public let homeVenueId: UUID?
        public let movedOn: CalendarDate
    }

    public func validated(today: CalendarDate = .today()) throws -> Valid {
        var errors = ValidationError()
        let name = Rules.name.check(self.name, field: "name", into: &errors)
        let email = Rules.email.check(self.email, field: "email", into: &errors).lowercased()
        let phone = Rules.phone.check(self.phone, field: "phone", into: &errors)
        let notes = Rules.notes.check(self.notes, field: "notes", into: &errors)
        let venue = Rules.homeVenueId.check(homeVenueId, field: "home_venue_id", into: &errors)
        let moved = Rules.movedOn.check(movedOn, field: "moved_on", into: &errors)
        try errors.throwIfAny()
        return Valid(name: name, email: email, phone: phone.isEmpty ? nil : phone, notes: notes.isEmpty ? nil : notes,
                     homeVenueId: venue, movedOn: moved ?? today)
    }
}

extension Participant {
    /// The new record a checked input makes, at its first version.
    public init(_ valid: ParticipantInput.Valid, id: UUID, at now: Date) {
        self.init(id: id, name: valid.name, email: valid.email, phone: valid.phone, notes: valid.notes, homeVenueId: valid.homeVenueId,
                  version: 1, createdAt: now, updatedAt: now)
    }
}
