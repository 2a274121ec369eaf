import Domain
import Foundation
import Records

/// A route's address pattern (`/participants/{id}/edit`), written once: the route table registers it, and links,
/// redirects and `Location` headers are built from it, so an address cannot drift from the route that serves it.
public struct RoutePattern: Sendable, Equatable, CustomStringConvertible {
    public let pattern: String
    /// The pattern cut at its parameters: literal text before each parameter, and the text after the last one.
    private let literals: [String]

    public init(_ pattern: String) {
        self.pattern = pattern
        var literals: [String] = []
        var literal = ""
        for part in pattern.split(separator: "/", omittingEmptySubsequences: false).enumerated() {
            if part.offset > 0 { literal += "/" }
            if part.element.hasPrefix("{"), part.element.hasSuffix("}") {
                literals.append(literal)
                literal = ""
            } else {
                literal += part.element
            }
        }
        self.literals = literals + [literal]
    }

    public static func == (left: RoutePattern, right: RoutePattern) -> Bool { left.pattern == right.pattern }

    public var description: String { pattern }

    /// The pattern with one more part, e.g. `record / "edit"`.
    public static func / (base: RoutePattern, part: String) -> RoutePattern {
        RoutePattern(base.pattern == "/" ? "/" + part : base.pattern + "/" + part)
    }

    /// The address: each `{parameter}` replaced by the next id, in order (ids written in lower case, as stored).
    /// Giving more or fewer ids than the pattern has parameters is a programming error.
    public func callAsFunction(_ ids: UUID...) -> String {
        filled(ids.map(\.lowercaseText))
    }

    /// The address of a pattern with one parameter, given the id already as text: a list row links its record three
    /// times (view, edit, delete), and the variadic form would build an array and write the id again for each.
    public func filled(idText: String) -> String {
        precondition(literals.count == 2, "\(pattern) has \(literals.count - 1) parameters, not 1")
        return literals[0] + idText + literals[1]
    }

    /// The address of a record's numbered part (an import's row): the id, then the number.
    public func callAsFunction(_ id: UUID, _ number: Int) -> String {
        filled([id.lowercaseText, String(number)])
    }

    private func filled(_ values: [String]) -> String {
        precondition(values.count == literals.count - 1, "\(pattern) has \(literals.count - 1) parameters, not the \(values.count) given")
        var address = literals[0]
        for (index, value) in values.enumerated() {
            address += value
            address += literals[index + 1]
        }
        return address
    }
}

/// The addresses of one kind of record on a surface: its list, the form for a new one, one record, and the record's
/// edit and delete forms.
public struct RecordRoutes: Sendable {
    /// `/areas`
    public let list: RoutePattern
    /// `/areas/new`
    public let new: RoutePattern
    /// `/areas/{id}`
    public let record: RoutePattern
    /// `/areas/{id}/edit`
    public let edit: RoutePattern
    /// `/areas/{id}/delete`
    public let delete: RoutePattern

    public init(_ list: RoutePattern) {
        self.list = list
        new = list / "new"
        record = list / "{id}"
        edit = record / "edit"
        delete = record / "delete"
    }
}

/// The collections of records both surfaces serve, named once: the pages at `/areas`, the API at `/api/v1/areas`.
public enum RecordCollection: String, Sendable, CaseIterable {
    case activityTypes = "activity-types"
    case roles
    case areas
    case venues
    case participants
    case activities
    case users
    case visitLists = "visit-lists"

    /// The collection's address below `root` (`/` for the pages, `/api/v1` for the API).
    public func path(under root: RoutePattern) -> RoutePattern { root / rawValue }

    /// The kind of the records the collection holds.
    public var kind: RecordKind {
        switch self {
        case .activityTypes: Category.kind(.activityType)
        case .roles: Category.kind(.participantRole)
        case .areas: GeographicArea.kind
        case .venues: Venue.kind
        case .participants: Participant.kind
        case .activities: Activity.kind
        case .users: UserRow.kind
        case .visitLists: VisitList.kind
        }
    }

    public var entity: String { kind.entity }

    /// The collection holding records of `entity`; nil for a kind no surface lists.
    public init?(entity: String) {
        guard let collection = Self.byEntity[entity] else { return nil }
        self = collection
    }

    /// Looked up for every link to a record a page makes; reading each case's kind to compare copies the whole kind.
    private static let byEntity = Dictionary(uniqueKeysWithValues: allCases.map { ($0.entity, $0) })
}

extension RecordKind {
    /// The address of the kind's records below `root`: its collection's, or for a kind no collection names (a kind
    /// declared only in Records) its table's, dashed (`/notes`, `/api/v1/notes`).
    public func path(under root: RoutePattern) -> RoutePattern {
        RecordCollection(entity: entity)?.path(under: root) ?? root / table.replacingOccurrences(of: "_", with: "-")
    }
}

/// The map's GeoJSON addresses, named once: the API serves them and the map page's script reads them.
public enum MapDataPaths {
    public static let venues = RoutePattern("/api/v1/map/venues")
    public static let homes = RoutePattern("/api/v1/map/homes")
}
