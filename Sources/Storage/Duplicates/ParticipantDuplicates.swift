import Domain
import Foundation
import GRDB

/// A participant who may be the same person as one being entered, and why.
public struct PossibleDuplicate: Sendable, Equatable {
    public enum Reason: String, Sendable, Equatable, CaseIterable {
        /// The same email address, case ignored.
        case sameEmail = "same_email"
        /// The same name once folded as search folds it: "Emile Dubois" is "Émile DUBOIS".
        case sameName = "same_name"
        /// A name typed differently but close (`NameSimilarity`): "Jon Smith" and "John Smith".
        case similarName = "similar_name"
    }

    public let id: UUID
    public let name: String
    public let email: String
    public let reason: Reason
}

extension AppDatabase {
    /// Participants who may be the person `input` describes, the same email first, then the same folded name, then a
    /// close name; never `excluding` (the one being edited). Each reads an index: the email's, `search_text`'s (whose
    /// first field is the folded name), and the trigram index for names holding the first three letters of each word.
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
            if !name.isEmpty, found.count < limit {
                found += try Self.closeNames(db, to: name, excluding: skipped).filter { match in !found.contains { $0.id == match.id } }
            }
            return Array(found.prefix(limit))
        }
    }

    /// Participants whose names hold the first three letters of each word of `folded` (so a slip later in a word is
    /// still found), kept when close enough, the closest first. Names whose words are all shorter than three letters
    /// are not looked for: the trigram index cannot narrow them.
    private static func closeNames(_ db: Database, to folded: String, excluding skipped: String) throws -> [PossibleDuplicate] {
        let prefixes = NameSimilarity.words(folded).filter { $0.count >= SearchIndex.shortest }.map { SearchIndex.phrase(String($0.prefix(3))) }
        guard !prefixes.isEmpty else { return [] }
        let candidates = try Row.fetchAll(db.cachedStatement(sql: """
            SELECT p.id, p.name, p.email FROM \(SearchIndex.indexName("participants")) f JOIN participants p ON p.rowid = f.rowid
            WHERE f.search_text MATCH ? AND p.id != ? LIMIT 500
            """), arguments: [prefixes.joined(separator: " AND "), skipped])
        return candidates.map { row -> (row: Row, score: Double) in
            // The same folded name is found already, as the same name, not as a close one.
            let name = SearchText.fold(row["name"])
            return (row, name == folded ? 0 : NameSimilarity.score(folded, name))
        }
            .filter { $0.score >= NameSimilarity.threshold }
            .sorted { $0.score > $1.score }
            .map { duplicate($0.row, .similarName) }
    }

    static func duplicate(_ row: Row, _ reason: PossibleDuplicate.Reason) -> PossibleDuplicate {
        PossibleDuplicate(id: row.uuid("id"), name: row["name"], email: row["email"], reason: reason)
    }
}
