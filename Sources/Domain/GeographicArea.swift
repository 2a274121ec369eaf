import Foundation
import Translations

/// The kinds of geographic area, smallest to largest (Requirement 6B).
public enum AreaType: String, Sendable, CaseIterable, Codable {
    case neighbourhood = "NEIGHBOURHOOD", community = "COMMUNITY", city = "CITY", cluster = "CLUSTER", county = "COUNTY"
    case province = "PROVINCE", state = "STATE", country = "COUNTRY", continent = "CONTINENT", hemisphere = "HEMISPHERE"
    case world = "WORLD"

    /// "Neighbourhood" for NEIGHBOURHOOD. Made once: the area filter of every list page asks for one per area.
    public var label: String { Self.labels[self]! }

    private static let labels: [AreaType: String] = Dictionary(uniqueKeysWithValues: allCases.map { ($0, $0.message.english) })

    /// The kind of area in words, translated where it is shown.
    public var message: Message {
        switch self {
        case .neighbourhood: Message("Neighbourhood")
        case .community: Message("Community")
        case .city: Message("City")
        case .cluster: Message("Cluster")
        case .county: Message("County")
        case .province: Message("Province")
        case .state: Message("State", context: "a part of a country")
        case .country: Message("Country")
        case .continent: Message("Continent")
        case .hemisphere: Message("Hemisphere")
        case .world: Message("World")
        }
    }
}

/// A region in the area hierarchy; `parentId` is nil for top-level areas.
public struct GeographicArea: Sendable, Equatable, Identifiable {
    public var id: UUID
    public var name: String
    public var areaType: AreaType
    public var parentId: UUID?
    public var version: Int
    public var createdAt: Date
    public var updatedAt: Date

    /// A record holding only its id and version, for its declaration's decoding to fill in.
    public static func blank(id: UUID, version: Int) -> GeographicArea {
        GeographicArea(id: id, name: "", areaType: .community, parentId: nil, version: version, createdAt: .unreadable, updatedAt: .unreadable)
    }
}

/// What the area form or API submits, as typed.
public struct AreaInput: Sendable, Equatable {
    public var name: String
    public var areaType: String
    /// The parent's id as text; empty for a top-level area.
    public var parentId: String

    public init(name: String, areaType: String, parentId: String) {
        self.name = name
        self.areaType = areaType
        self.parentId = parentId
    }

    /// The rule of each field, which the kind's declaration (Records) gives the field.
    public enum Rules {
        public static let name = TextRule(label: Message("Name"), maxLength: 100, missing: Message("Enter a name for the area"))
        public static let areaType = ChoiceRule(AreaType.self, required: true,
                                                message: Message("Choose the kind of area, for example City or Neighbourhood"))
        public static let parentId = IDRule(required: false, message: Message("Choose a parent area from the list, or “None (top level)”"))
    }

    /// A checked area: trimmed name (1–100), a known type, a well-formed parent id or none.
    public struct Valid: Sendable, Equatable {
        public let name: String
        public let areaType: AreaType
        public let parentId: UUID?
    }

    public func validated() throws -> Valid {
        var errors = ValidationError()
        let name = Rules.name.check(self.name, field: "name", into: &errors)
        let type = Rules.areaType.check(areaType, as: AreaType.self, field: "area_type", into: &errors)
        let parent = Rules.parentId.check(parentId, field: "parent_id", into: &errors)
        try errors.throwIfAny()
        return Valid(name: name, areaType: type!, parentId: parent)
    }
}

/// Counts for an area including all its descendant areas.
public struct AreaStatistics: Sendable, Equatable {
    public let totalActivities: Int
    public let totalParticipants: Int
    public let activeActivities: Int
    public let ongoingActivities: Int

    public init(totalActivities: Int, totalParticipants: Int, activeActivities: Int, ongoingActivities: Int) {
        self.totalActivities = totalActivities
        self.totalParticipants = totalParticipants
        self.activeActivities = activeActivities
        self.ongoingActivities = ongoingActivities
    }
}

extension GeographicArea {
    /// The new record a checked input makes, at its first version.
    public init(_ valid: AreaInput.Valid, id: UUID, at now: Date) {
        self.init(id: id, name: valid.name, areaType: valid.areaType, parentId: valid.parentId, version: 1, createdAt: now, updatedAt: now)
    }
}
