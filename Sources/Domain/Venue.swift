import Foundation
import Translations

/// Whether a venue is a public building or someone's home (Requirement 6A).
public enum VenueType: String, Sendable, CaseIterable, Codable {
    case publicBuilding = "PUBLIC_BUILDING", privateResidence = "PRIVATE_RESIDENCE"

    public var label: String { message.english }

    /// The kind of venue in words, translated where it is shown.
    public var message: Message { self == .publicBuilding ? Message("Public building") : Message("Private residence") }
}

/// A place where activities happen or participants live.
public struct Venue: Sendable, Equatable, Identifiable {
    public var id: UUID
    public var name: String
    public var address: String
    public var areaId: UUID
    public var latitude: Double?
    public var longitude: Double?
    public var venueType: VenueType?
    public var version: Int
    public var createdAt: Date
    public var updatedAt: Date

    /// A record holding only its id and version, for its declaration's decoding to fill in.
    public static func blank(id: UUID, version: Int) -> Venue {
        Venue(id: id, name: "", address: "", areaId: .zero, latitude: nil, longitude: nil, venueType: nil, version: version,
              createdAt: .unreadable, updatedAt: .unreadable)
    }
}

/// What the venue form or API submits, as typed.
public struct VenueInput: Sendable, Equatable {
    public var name: String
    public var address: String
    public var areaId: String
    public var latitude: String
    public var longitude: String
    public var venueType: String

    public init(name: String, address: String, areaId: String, latitude: String = "", longitude: String = "", venueType: String = "") {
        self.name = name
        self.address = address
        self.areaId = areaId
        self.latitude = latitude
        self.longitude = longitude
        self.venueType = venueType
    }

    /// The rule of each field, which the kind's declaration (Records) gives the field.
    public enum Rules {
        public static let name = TextRule(label: Message("Name"), maxLength: 200, missing: Message("Enter a name for the venue"))
        public static let address = TextRule(label: Message("Address"), maxLength: 500, missing: Message("Enter the venue's address"))
        public static let areaId = IDRule(required: true, message: Message("Choose the area the venue is in"))
        public static let latitude = NumberRule(label: Message("Latitude"), range: -90...90)
        public static let longitude = NumberRule(label: Message("Longitude"), range: -180...180)
        public static let venueType = ChoiceRule(VenueType.self, required: false,
                                                 message: Message("Choose Public building, Private residence or Not specified"))
    }

    /// A checked venue: name, address and area required; coordinates both or neither, in range; type optional.
    public struct Valid: Sendable, Equatable {
        public let name: String
        public let address: String
        public let areaId: UUID
        public let latitude: Double?
        public let longitude: Double?
        public let venueType: VenueType?
    }

    public static let bothCoordinates = Message("Enter both latitude and longitude, or leave both empty")

    public func validated() throws -> Valid {
        var errors = ValidationError()
        let name = Rules.name.check(self.name, field: "name", into: &errors)
        let address = Rules.address.check(self.address, field: "address", into: &errors)
        let area = Rules.areaId.check(areaId, field: "geographic_area_id", into: &errors)
        let latitude = Rules.latitude.check(typed: self.latitude, field: "latitude", example: "51.5072", into: &errors)
        let longitude = Rules.longitude.check(typed: self.longitude, field: "longitude", example: "-0.1276", into: &errors)
        PairedFieldRules.bothCoordinatesOrNeither(latitudeGiven: latitude != nil, longitudeGiven: longitude != nil,
                                                  message: Self.bothCoordinates, into: &errors)
        let type = Rules.venueType.check(venueType, as: VenueType.self, field: "venue_type", into: &errors)
        try errors.throwIfAny()
        return Valid(name: name, address: address, areaId: area!, latitude: latitude, longitude: longitude, venueType: type)
    }
}

extension Venue {
    /// The new record a checked input makes, at its first version.
    public init(_ valid: VenueInput.Valid, id: UUID, at now: Date) {
        self.init(id: id, name: valid.name, address: valid.address, areaId: valid.areaId, latitude: valid.latitude,
                  longitude: valid.longitude, venueType: valid.venueType, version: 1, createdAt: now, updatedAt: now)
    }
}
