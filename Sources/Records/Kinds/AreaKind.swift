import Domain
import Foundation
import Translations

extension GeographicArea {
    public static let declaration = RecordDeclaration<GeographicArea>([
        RecordField(\.name, "name", .text, label: Message("Name"), rule: .text(AreaInput.Rules.name), .listed),
        RecordField(\.areaType, "area_type", .choice(.community), label: Message("Type"), rule: .choice(AreaInput.Rules.areaType), .listed),
        RecordField(\.parentId, "parent_id", .optionalID, label: Message("Parent area"), rule: .id(AreaInput.Rules.parentId),
                    references: ("geographic_area", .restrict),
                    ifMissing: Message("The chosen parent area no longer exists; choose another")),
    ] + RecordField<GeographicArea>.timestamps(created: \.createdAt, updated: \.updatedAt)) { id, version in
        GeographicArea.blank(id: id, version: version)
    }

    public static let kind = RecordKind(entity: "geographic_area", table: "geographic_areas", declaration,
                                        label: ("area", "geographic areas")) { lookup, id, fields, errors in
        guard errors.fieldErrors.isEmpty, let parent = UUID.strict(fields.text("parent_id")), try isAncestor(id, of: parent, in: lookup) else { return }
        errors.add("parent_id", Message("An area cannot be inside itself or one of its own sub-areas"))
    }

    /// True when `area` is `child` itself or one of the areas above it: the new parent would then sit inside the area.
    /// Walks up the stored parents, so any store answers it; a chain seen twice (which the check itself prevents)
    /// ends the walk.
    public static func isAncestor(_ area: UUID, of child: UUID, in lookup: any RecordLookup) throws -> Bool {
        var next: UUID? = child
        var seen = Set<UUID>()
        while let current = next, seen.insert(current).inserted {
            if current == area { return true }
            next = try lookup.liveFields(of: kind, id: current).flatMap { UUID(uuidString: $0.text("parent_id")) }
        }
        return false
    }
}

extension AreaInput: TypedInput {
    /// The input typed for an area's fields.
    public init(_ texts: FieldTexts<GeographicArea>) {
        self.init(name: texts[\.name], areaType: texts[\.areaType], parentId: texts[\.parentId])
    }
}
