import Foundation

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

    public init(id: UUID, name: String, email: String, phone: String?, notes: String?, homeVenueId: UUID?, version: Int,
                createdAt: Date, updatedAt: Date) {
        self.id = id
        self.name = name
        self.email = email
        self.phone = phone
        self.notes = notes
        self.homeVenueId = homeVenueId
        self.version = version
        self.createdAt = createdAt
        self.updatedAt = updatedAt
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
    public static let phoneFormat = "digits, spaces, dashes and brackets, optionally starting with +, like +254 712 345 678"

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
        let name = self.name.trimmingCharacters(in: .whitespacesAndNewlines)
        if name.isEmpty { errors.add("name", "Enter the participant's name") }
        else if name.count > Self.maxNameLength { errors.add("name", "Name must be \(Self.maxNameLength) characters or fewer (it has \(name.count))") }
        let email = self.email.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        if email.isEmpty { errors.add("email", "Enter an email address") }
        else if !EmailAddress.isValid(email) { errors.add("email", "Enter an email address in the correct format, like name@example.org") }
        let phone = self.phone.trimmingCharacters(in: .whitespaces)
        if !phone.isEmpty && !Self.isValidPhone(phone) { errors.add("phone", "Enter a phone number using \(Self.phoneFormat)") }
        let notes = self.notes.trimmingCharacters(in: .whitespacesAndNewlines)
        if notes.count > Self.maxNotesLength { errors.add("notes", "Notes must be \(Self.maxNotesLength) characters or fewer (they have \(notes.count))") }
        let venueText = homeVenueId.trimmingCharacters(in: .whitespaces)
        let venue = venueText.isEmpty ? nil : UUID(uuidString: venueText)
        if !venueText.isEmpty && venue == nil { errors.add("home_venue_id", "Choose a home venue from the list, or “No home venue”") }
        let moved = movedOn.trimmingCharacters(in: .whitespaces).isEmpty ? today : CalendarDate(movedOn)
        if moved == nil { errors.add("moved_on", "Enter the date as a real day, like 2025-03-12") }
        try errors.throwIfAny()
        return Valid(name: name, email: email, phone: phone.isEmpty ? nil : phone, notes: notes.isEmpty ? nil : notes,
                     homeVenueId: venue, movedOn: moved!)
    }

    static func isValidPhone(_ text: String) -> Bool {
        let allowed = Set("0123456789 -().")
        let body = text.hasPrefix("+") ? text.dropFirst() : Substring(text)
        let digits = body.filter(\.isNumber).count
        return body.allSatisfy { allowed.contains($0) } && (7...15).contains(digits)
    }
}
