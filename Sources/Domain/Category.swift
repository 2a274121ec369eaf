import Foundation
import Translations

/// The two kinds of named categories the app manages the same way: activity types (Req. 2) and participant roles (Req. 3).
public enum CategoryKind: String, Sendable, CaseIterable, Codable {
    case activityType = "activity_type"
    case participantRole = "participant_role"

    /// SQL table holding this kind.
    public var table: String { self == .activityType ? "activity_types" : "participant_roles" }
    public var singular: String { self == .activityType ? "activity type" : "role" }
    public var plural: String { self == .activityType ? "activity types" : "roles" }
    /// "an activity type", "a role".
    public var withArticle: String { self == .activityType ? "an activity type" : "a role" }
    public var title: String { self == .activityType ? "Activity types" : "Roles" }
    public var singularTitle: String { self == .activityType ? "Activity type" : "Role" }

    /// Entries every Fieldbook starts with, with fixed ids so that every node of a network agrees on them.
    public var predefined: [(id: UUID, name: String)] {
        switch self {
        case .activityType:
            return [
                ("0d2f3a10-0000-4000-8000-000000000001", "Workshop"),
                ("0d2f3a10-0000-4000-8000-000000000002", "Meeting"),
                ("0d2f3a10-0000-4000-8000-000000000003", "Study Circle"),
                ("0d2f3a10-0000-4000-8000-000000000004", "Children's Class"),
                ("0d2f3a10-0000-4000-8000-000000000005", "Youth Group"),
                ("0d2f3a10-0000-4000-8000-000000000006", "Devotional Gathering"),
                ("0d2f3a10-0000-4000-8000-000000000007", "Community Service"),
                ("0d2f3a10-0000-4000-8000-000000000008", "Social Event"),
            ].map { (UUID(uuidString: $0.0)!, $0.1) }
        case .participantRole:
            return [
                ("0d2f3a20-0000-4000-8000-000000000001", "Participant"),
                ("0d2f3a20-0000-4000-8000-000000000002", "Organizer"),
                ("0d2f3a20-0000-4000-8000-000000000003", "Facilitator"),
                ("0d2f3a20-0000-4000-8000-000000000004", "Volunteer"),
                ("0d2f3a20-0000-4000-8000-000000000005", "Host"),
                ("0d2f3a20-0000-4000-8000-000000000006", "Speaker"),
            ].map { (UUID(uuidString: $0.0)!, $0.1) }
        }
    }
}

extension CategoryKind {
    /// Why an entry that `usedBy` records reference cannot be deleted, and what to do instead.
    public func deletionRefusal(name: String, usedBy total: Int) -> String {
        switch self {
        case .activityType:
            let noun = total == 1 ? "1 activity uses" : "\(total) activities use"
            return "“\(name)” cannot be deleted because \(noun) it. Change those activities to another type, or delete them, then try again."
        case .participantRole:
            let noun = total == 1 ? "1 assignment uses" : "\(total) assignments use"
            return "“\(name)” cannot be deleted because \(noun) it. Give those people another role, or remove the assignments, then try again."
        }
    }

    /// Why a predefined entry cannot be changed.
    public func predefinedRefusal(name: String) -> String {
        "“\(name)” is a predefined \(singular): every Fieldbook shares it, so it cannot be changed or deleted. Create a custom \(singular) instead."
    }
}

/// An activity type or a participant role.
public struct Category: Sendable, Equatable, Identifiable, Codable {
    public var id: UUID
    public var kind: CategoryKind
    public var name: String
    public var isPredefined: Bool
    public var version: Int
    public var createdAt: Date
    public var updatedAt: Date

    /// A record holding only its id, kind and version, for its declaration's decoding to fill in.
    public static func blank(id: UUID, kind: CategoryKind, version: Int) -> Category {
        Category(id: id, kind: kind, name: "", isPredefined: false, version: version, createdAt: .unreadable, updatedAt: .unreadable)
    }
}

/// What a form or API body submits for a category.
public struct CategoryInput: Sendable, Equatable {
    public var name: String

    public init(name: String) { self.name = name }

    public static let maxNameLength = 50

    /// The name's rule; a kind names its entries in the message for a blank name.
    public static func nameRule(_ kind: CategoryKind) -> TextRule {
        TextRule(label: Message("Name"), maxLength: maxNameLength, missing: kind == .activityType ? Message("Enter a name for the activity type") : Message("Enter a name for the role"))
    }

    /// Trims the name and checks it: required, 1–50 code points. Uniqueness is checked by storage.
    public func validated(kind: CategoryKind) throws -> CategoryInput {
        var errors = ValidationError()
        let trimmed = Self.nameRule(kind).check(name, field: "name", into: &errors)
        try errors.throwIfAny()
        return CategoryInput(name: trimmed)
    }
}

extension String {
    /// The string with its first letter upper-cased ("a role" → "A role").
    public var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
