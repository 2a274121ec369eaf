import Foundation
import Translations

/// What happened at a stop.
public enum ContactResult: String, Sendable, CaseIterable, Codable {
    case met = "MET", notHome = "NOT_HOME", refused = "REFUSED", movedAway = "MOVED_AWAY", wrongAddress = "WRONG_ADDRESS"
    case followUp = "FOLLOW_UP", other = "OTHER"

    public var label: String {
        switch self {
        case .met: "Met"
        case .notHome: "Not home"
        case .refused: "Refused"
        case .movedAway: "Moved away"
        case .wrongAddress: "Wrong address"
        case .followUp: "Follow-up needed"
        case .other: "Other (see note)"
        }
    }
}

/// One visit to a stop, as it was logged. Logs are only ever added, never changed or removed, so logs written on two
/// nodes about the same stop never conflict: both are kept.
public struct ContactLog: Sendable, Equatable, Identifiable {
    public var id: UUID
    public var stopId: UUID
    public var result: ContactResult
    public var note: String
    public var loggedAt: Date
    public var loggedBy: UUID
    public var location: LoggedLocation?
    public var version: Int

    public init(id: UUID = UUID(), stopId: UUID, result: ContactResult, note: String, loggedAt: Date, loggedBy: UUID,
                location: LoggedLocation?, version: Int = 1) {
        (self.id, self.stopId, self.result, self.note) = (id, stopId, result, note)
        (self.loggedAt, self.loggedBy, self.location, self.version) = (loggedAt, loggedBy, location, version)
    }
}

/// Where the organizer's device said it was when the visit was logged, and how sure it was (metres).
public struct LoggedLocation: Sendable, Equatable {
    public let coordinate: Coordinate
    public let accuracy: Double?

    public init(coordinate: Coordinate, accuracy: Double?) { (self.coordinate, self.accuracy) = (coordinate, accuracy) }
}

/// What the log form or API submits, as typed.
public struct ContactLogInput: Sendable, Equatable {
    public var result: String
    public var note: String
    public var latitude: String
    public var longitude: String
    public var accuracy: String
    /// The log's id as the page made it (empty: the server makes one). A page sending its log again, as a phone does
    /// when it comes back in range not knowing whether the first try arrived, sends the same id, so it is logged once.
    public var id: String
    /// When the visit happened by the device's clock (a phone sends what it kept away from the network later); empty:
    /// when the server receives it.
    public var loggedAt: String

    public init(result: String, note: String = "", latitude: String = "", longitude: String = "", accuracy: String = "", id: String = "",
                loggedAt: String = "") {
        (self.result, self.note, self.latitude, self.longitude, self.accuracy, self.id) = (result, note, latitude, longitude, accuracy, id)
        self.loggedAt = loggedAt
    }

    public enum Rules {
        public static let result = ChoiceRule(ContactResult.self, required: true,
                                              message: Message("Choose what happened: Met, Not home, Refused, Moved away, Wrong address, Follow-up needed or Other"))
        public static let note = TextRule(label: Message("Note"), maxLength: 2000)
        public static let latitude = NumberRule(label: Message("Latitude"), range: -90...90)
        public static let longitude = NumberRule(label: Message("Longitude"), range: -180...180)
        public static let accuracy = NumberRule(label: Message("Accuracy"), range: 0...100_000)
        public static let id = IDRule(required: false, message: Message("This visit's id was damaged on the way; reload the page and log the visit again"))
        /// A phone may spend days away from the network; a month covers any walk and sets aside a clock set to another year.
        public static let loggedAt = InstantRule(label: Message("The time the visit was logged"), skew: 10 * 60, oldest: 30 * 86_400)
    }

    public struct Valid: Sendable, Equatable {
        public let result: ContactResult
        public let note: String
        public let location: LoggedLocation?
        public let id: UUID?
        public let loggedAt: Date?
    }

    public static let bothCoordinates = Message("Give both latitude and longitude, or neither")

    /// A result is required; "Other" needs a note saying what happened; a location is both coordinates or none; the time
    /// logged, when given, is kept when it is around `now` as `Rules.loggedAt` allows (else the visit is logged at `now`).
    public func validated(now: Date = Date()) throws -> Valid {
        var errors = ValidationError()
        let result = Rules.result.check(self.result, as: ContactResult.self, field: "result", into: &errors)
        let note = Rules.note.check(self.note, field: "note", into: &errors)
        PairedFieldRules.otherResultHasANote(result: result, note: note, into: &errors)
        let latitude = Rules.latitude.check(typed: self.latitude, field: "latitude", example: "-1.2921", into: &errors)
        let longitude = Rules.longitude.check(typed: self.longitude, field: "longitude", example: "36.8219", into: &errors)
        let accuracy = Rules.accuracy.check(typed: accuracy, field: "accuracy_m", example: "15", into: &errors)
        let id = Rules.id.check(self.id, field: "log_id", into: &errors)
        let loggedAt = Rules.loggedAt.check(self.loggedAt, now: now, field: "logged_at", into: &errors)
        PairedFieldRules.bothCoordinatesOrNeither(latitudeGiven: latitude != nil, longitudeGiven: longitude != nil,
                                                  message: Self.bothCoordinates, into: &errors)
        try errors.throwIfAny()
        let location = latitude.flatMap { lat in longitude.map { LoggedLocation(coordinate: Coordinate(latitude: lat, longitude: $0), accuracy: accuracy) } }
        return Valid(result: result!, note: note, location: location, id: id, loggedAt: loggedAt)
    }
}
