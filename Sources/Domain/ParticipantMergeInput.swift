import Foundation
import Translations

/// Merging another participant record into one (the API's body; the page's form sends the same choices).
public struct ParticipantMergeInput: Sendable, Equatable {
    /// A participant detail a merge can take from either record.
    public enum Field: String, Sendable, CaseIterable {
        case name, email, phone, notes, home = "home_venue_id"
    }

    /// The id of the record merged in and removed.
    public var with: String
    /// The details whose value comes from the removed record; the kept record's otherwise.
    public var fromRemoved: [String]

    public init(with: String, fromRemoved: [String] = []) {
        (self.with, self.fromRemoved) = (with, fromRemoved)
    }

    public enum Rules {
        public static let with = IDRule(required: true, message: Message("Give the id of the participant to merge into this one, like 0d2f3a10-0000-4000-8000-000000000001"))
        public static let fromRemoved = ChoiceRule(Field.self, required: false,
                                                   message: Message("List details among: {fields}", ["fields": .text(Field.allCases.map(\.rawValue).joined(separator: ", "))]))
    }

    public static let rules: [String: FieldRule] = ["with": .id(Rules.with), "from_removed": .choiceList(Rules.fromRemoved)]

    public struct Valid: Sendable, Equatable {
        public let removed: UUID
        public let fromRemoved: Set<Field>
    }

    /// Every problem at once.
    public func validated() throws -> Valid {
        var errors = ValidationError()
        let removed = Rules.with.check(with, field: "with", into: &errors)
        let fields = fromRemoved.compactMap { Rules.fromRemoved.check($0, as: Field.self, field: "from_removed", into: &errors) }
        try errors.throwIfAny()
        return Valid(removed: removed!, fromRemoved: Set(fields))
    }
}

extension ParticipantMergeInput {
    /// Which of two records of one person stays when they are merged: the one whose id comes first as Fieldbook writes
    /// ids (lower-case text), whichever way round the merge was asked for. Two people merging the same pair on two
    /// Fieldbooks, apart, thus keep the same record, and a merged-away record always points to an earlier id, so
    /// merges can chain but never loop.
    public static func survivor(of first: UUID, _ second: UUID) -> UUID {
        first.lowercaseText <= second.lowercaseText ? first : second
    }
}
