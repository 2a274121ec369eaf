import Domain
import Foundation
import GRDB
import Records

/// Records a file's rows name that are not here (an unknown area path, home venue, activity type or role), found
/// while the rows are checked. When the person chose to create those of the field, each name stands for the record
/// the import creates through its kind's writer, in the import's transaction, before the first row naming it is
/// written; otherwise the rows naming it keep their problem. Ambiguous names are never among them.
final class MissingNames {
    let field: ImportField
    let creating: Bool
    /// By name as `NamedRecords.key` folds it, with what tells records of one name apart: the id the record gets, and
    /// the name as the file first writes it.
    private var planned: [String: (id: String, name: String)] = [:]
    private var order: [String] = []
    private var rows: [String: Int] = [:]
    private var lastLine: [String: Int] = [:]
    /// The name each planned id stands for.
    private var plannedNames: [String: String] = [:]
    private var created = Set<String>()
    /// The line being checked, so a row naming a record more than once counts once.
    var line = 0

    init(_ field: ImportField, creating: ImportCreating) {
        self.field = field
        self.creating = creating.fields.contains(field)
    }

    static func key(_ name: String, detail: String) -> String {
        NamedRecords.key(name) + SearchText.separator + NamedRecords.detailKey(detail)
    }

    /// The id of the record a name not here stands for; counts the row naming it. An area path also notes each part
    /// of it above that is not here, as `area` creates them all.
    func note(_ name: String, detail: String, stored: NamedRecords) -> String {
        if ImportCreating.namesArea(field) { notePathAbove(name, stored: stored) }
        let key = Self.key(name, detail: detail)
        let id = plan(key, name: name)
        if lastLine[key] != line {
            lastLine[key] = line
            rows[key, default: 0] += 1
        }
        return id
    }

    /// The id a name not here gets, the same for every row naming it.
    private func plan(_ key: String, name: String) -> String {
        if let known = planned[key] { return known.id }
        let id = UUID().databaseText
        planned[key] = (id, name)
        order.append(key)
        plannedNames[id] = name
        rows[key] = rows[key] ?? 0
        return id
    }

    /// Notes the parts above the last of a path that are not here, from the top, as `area` finds them; a part two
    /// areas share ends it (`area` refuses it).
    private func notePathAbove(_ path: String, stored: NamedRecords) {
        var stored = stored
        stored.missing = nil
        for (prefix, _) in Self.pathsAbove(path).dropLast() {
            let key = Self.key(prefix, detail: "")
            if planned[key] == nil {
                let found = stored.resolve(prefix)
                if found.problem == nil { continue }
                guard found.isMissing else { return }
            }
            _ = plan(key, name: prefix)
        }
    }

    /// Runs `make` once for a record the import creates (the first row naming it); nothing for a stored record.
    func ensure(_ id: String, _ make: () throws -> Void) rethrows {
        guard plannedNames[id] != nil, created.insert(id).inserted else { return }
        try make()
    }

    /// What the review shows: how many records, their names, and how many rows name them.
    var group: MissingReferences {
        MissingReferences(field: field.rawValue, names: order.map { planned[$0]!.name }, rows: order.reduce(0) { $0 + rows[$1]! })
    }

    /// The id of the area a path names, creating it and each part of its path that is not here, from the top:
    /// "World / Kenya / Nairobi" with only World here creates Kenya in World, then Nairobi in Kenya. A part two
    /// areas share is refused, never guessed.
    func area(_ path: String, stored: NamedRecords, type: AreaType?, _ transaction: RecordTransaction) throws -> String {
        var stored = stored
        stored.missing = nil
        let whole = stored.resolve(path)
        if whole.problem == nil || path.isEmpty { return whole.id }
        // Not chosen (or no longer: a stored area gone since the review): the row's problem, as the review words it.
        guard creating, whole.isMissing else { throw ValidationError([FieldError(field: field.rawValue, message: whole.problem!)]) }
        var parent = ""
        for (prefix, name) in Self.pathsAbove(path) {
            let key = Self.key(prefix, detail: "")
            if planned[key] == nil {
                let found = stored.resolve(prefix)
                if found.problem == nil {
                    parent = found.id
                    continue
                }
                guard found.isMissing else { throw ValidationError([FieldError(field: field.rawValue, message: found.problem!)]) }
            }
            let id = plan(key, name: prefix)
            guard let type else { throw ValidationError([FieldError(field: field.rawValue, message: "Choose the type of the areas the import creates")]) }
            try ensure(id) {
                let input = AreaInput(name: name, areaType: type.rawValue, parentId: parent)
                try transaction.create(GeographicArea.self, input.validated(), id: UUID(uuidString: id)!)
            }
            parent = id
        }
        return parent
    }

    /// Each path from the top a path passes through, with its last part: "World / Kenya" is ("World", "World"), then
    /// ("World / Kenya", "Kenya").
    private static func pathsAbove(_ path: String) -> [(path: String, name: String)] {
        let parts = NamedRecords.parts(path)
        return parts.indices.map { (parts.prefix($0 + 1).joined(separator: " / "), parts[$0]) }
    }

    /// Creates the activity type or role a name stands for, once.
    func category(_ kind: CategoryKind, _ id: String, _ transaction: RecordTransaction) throws {
        guard let name = plannedNames[id] else { return }
        try ensure(id) { try transaction.create(Category.self, (kind, CategoryInput(name: name).validated(kind: kind)), id: UUID(uuidString: id)!) }
    }
}

/// The records of one field a file names that are not here.
public struct MissingReferences: Codable, Sendable, Equatable {
    public let field: String
    /// As the file first writes each, in file order.
    public let names: [String]
    /// How many rows name one of them.
    public let rows: Int

    public var importField: ImportField? { ImportField(rawValue: field) }
}

/// The references an import creates when the file names them and they are not here, as the person chose on the
/// review: by field, with the type the areas it creates get.
public struct ImportCreating: Codable, Sendable, Equatable {
    public var fields: Set<ImportField>
    public var areaType: AreaType?

    public init(fields: Set<ImportField> = [], areaType: AreaType? = nil) {
        (self.fields, self.areaType) = (fields, areaType)
    }

    /// The fields whose missing records can be created, by kind: what a name alone (with a venue's address and area)
    /// is enough to make.
    public static func creatable(_ target: ImportTarget) -> [ImportField] {
        switch target {
        case .participants: [.homeVenue, .homeVenueArea]
        case .venues: [.area]
        case .activities: [.activityType]
        case .assignments: [.role]
        case .areas: []
        }
    }

    /// Whether areas are among what it creates (they need a type).
    public var createsAreas: Bool { fields.contains(where: Self.namesArea) }

    /// Whether the field names an area.
    public static func namesArea(_ field: ImportField) -> Bool { field.namedEntity == GeographicArea.kind.entity }

    private enum CodingKeys: String, CodingKey { case fields, areaType = "area_type" }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        fields = Set(try container.decode([String].self, forKey: .fields).compactMap(ImportField.init))
        areaType = try container.decodeIfPresent(String.self, forKey: .areaType).flatMap(AreaType.init)
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(fields.map(\.rawValue).sorted(), forKey: .fields)
        try container.encodeIfPresent(areaType?.rawValue, forKey: .areaType)
    }
}
