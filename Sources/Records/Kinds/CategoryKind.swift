import Domain
import Foundation
import Translations

/// Activity types and participant roles: one record type, two kinds (one table each).
extension Category {
    public static func declaration(_ category: CategoryKind) -> RecordDeclaration<Category> { declarations[category]! }

    private static let declarations = Dictionary(uniqueKeysWithValues: CategoryKind.allCases.map { category in
        (category, RecordDeclaration<Category>([
            RecordField(\.name, "name", .text, label: Message("Name"), rule: .text(CategoryInput.nameRule(category)), .listed),
            RecordField(\.isPredefined, "is_predefined", .flag, label: Message("Predefined"), .meta),
        ] + RecordField<Category>.timestamps(created: \.createdAt, updated: \.updatedAt)) { id, version in
            Category.blank(id: id, kind: category, version: version)
        })
    })

    private static let kinds: [CategoryKind: RecordKind] = Dictionary(uniqueKeysWithValues: CategoryKind.allCases.map { category in
        (category, RecordKind(entity: category.rawValue, table: category.table, declaration(category), label: (category.singular, category.plural), uniqueKeys: [["name"]]))
    })

    public static func kind(_ category: CategoryKind) -> RecordKind { kinds[category]! }

    public var recordKind: RecordKind { Self.kind(kind) }
}
