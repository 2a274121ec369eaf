import Domain
import Foundation
import GRDB

/// A participant who may be the same person as one being entered, and why.
public struct PossibleDuplicate: Sendable, Equatable {
    public enum Reason: Sendable, Equatable {
        /// The same email address, case ignored.
        case sameEmail
        /// The same name once folded as search folds it: "Emile Dubois" is "Émile DUBOIS".
        case sameName
    }

    public let id: UUID
    public let name: String
    public let email: String
    public let reason: Reason
}

extension AppDatabase {
    /// Participants who may be the person `input` describes, the same email first, then the same folded name; never
    /// `excluding` (the one being edited). Both read an index: the email's, and `search_text`'s, whose first field is
    /// the folded name.
    public func possibleDuplicates(of input: ParticipantInput, excluding excluded: UUID? = nil, limit: Int = 5) throws -> [PossibleDuplicate] {
        let email = input.email.trimmingCharacters(in: .whitespaces)
        let name = SearchText.fold(input.name.trimmingCharacters(in: .whitespaces))
        let skipped = excluded?.databaseText ?? ""
        return try read { db in
            var found: [PossibleDuplicate] = []
            if !email.isEmpty {
                found += try Row.fetchAll(db.cachedStatement(sql: """
                    SELECT id, name, email FROM participants WHERE email = ? COLLATE NOCASE AND id != ? ORDER BY name COLLATE NOCASE LIMIT ?
                    """), arguments: [email, skipped, limit]).map { Self.duplicate($0, .sameEmail) }
            }
            if !name.isEmpty, found.count < limit {
                // Every search_text that starts with the folded name and the field separator: a range of the index.
                let first = name + SearchText.separator, past = name + "\u{20}"
                found += try Row.fetchAll(db.cachedStatement(sql: """
                    SELECT id, name, email FROM participants WHERE search_text >= ? AND search_text < ? AND id != ? LIMIT ?
                    """), arguments: [first, past, skipped, limit]).map { Self.duplicate($0, .sameName) }
                    .filter { match in !found.contains { $0.id == match.id } }
            }
            return Array(found.prefix(limit))
        }
    }

    static func duplicate(_ row: Row, _ reason: PossibleDuplicate.Reason) -> PossibleDuplicate {
        PossibleDuplicate(id: row.uuid("id"), name: row["name"], email: row["email"], reason: reason)
    }
}
