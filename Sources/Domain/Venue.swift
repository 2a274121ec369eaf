import Foundation

/// Whether a venue is a public building or someone's home (Requirement 6A).
public enum VenueType: String, Sendable, CaseIterable, Codable {
    case publicBuilding = "PUBLIC_BUILDING", privateResidence = "PRIVATE_RESIDENCE"

    public var label: String { self == .publicBuilding ? "Public building" : "Private residence" }
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

    public init(id: UUID, name: String, address: String, areaId: UUID, latitude: Double?, longitude: Double?,
                venueType: VenueType?, version: Int, createdAt: Date, updatedAt: Date) {
        self.id = id
        self.name = name
        self.address = address
        self.areaId = areaId
        self.latitude = latitude
        self.longitude = longitude
        self.venueType = venueType
        self.version = version
        self.createdAt = createdAt
        self.updatedAt = updatedAt
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

    /// A checked venue: name, address and area required; coordinates both or neither, in range; type optional.
    public struct Valid: Sendable, Equatable {
        public let name: String
        public let address: String
        public let areaId: UUID
        public let latitude: Double?
        public let longitude: Double?
        public let venueType: VenueType?
    }

    public func validated() throws -> Valid {
        var errors = ValidationError()
        let name = Self.required(self.name, field: "name", label: "a name for the venue", max: 200, into: &errors)
        let address = Self.required(self.address, field: "address", label: "the venue's address", max: 500, into: &errors)
        let area = UUID(uuidString: areaId.trimmingCharacters(in: .whitespaces))
        if area == nil { errors.add("geographic_area_id", "Choose the area the venue is in") }
        let latitude = Self.coordinate(self.latitude, field: "latitude", range: -90...90, into: &errors)
        let longitude = Self.coordinate(self.longitude, field: "longitude", range: -180...180, into: &errors)
        if errors.message(for: "latitude") == nil, errors.message(for: "longitude") == nil, (latitude == nil) != (longitude == nil) {
            errors.add(latitude == nil ? "latitude" : "longitude", "Enter both latitude and longitude, or leave both empty")
        }
        let typeText = venueType.trimmingCharacters(in: .whitespaces)
        let type = VenueType(rawValue: typeText)
        if !typeText.isEmpty && type == nil { errors.add("venue_type", "Choose Public building, Private residence or Not specified") }
        try errors.throwIfAny()
        return Valid(name: name, address: address, areaId: area!, latitude: latitude, longitude: longitude, venueType: type)
    }

    private static func required(_ raw: String, field: String, label: String, max: Int, into errors: inout ValidationError) -> String {
        let text = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        if text.isEmpty { errors.add(field, "Enter \(label)") }
        else if text.count > max { errors.add(field, "\(field.capitalizedFirst) must be \(max) characters or fewer (it has \(text.count))") }
        return text
    }

    private static func coordinate(_ raw: String, field: String, range: ClosedRange<Double>, into errors: inout ValidationError) -> Double? {
        let text = raw.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { return nil }
        guard let value = Double(text), value.isFinite else {
            errors.add(field, "\(field.capitalizedFirst) must be a number, like \(field == "latitude" ? "51.5072" : "-0.1276")")
            return nil
        }
        guard range.contains(value) else {
            errors.add(field, "\(field.capitalizedFirst) must be between \(Int(range.lowerBound)) and \(Int(range.upperBound))")
            return nil
        }
        return value
    }
}
