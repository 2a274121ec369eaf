import Foundation

/// Text prepared for case- and accent-insensitive substring search.
/// SQLite's LIKE and lower() fold ASCII letters only, so "é" would not find "Émile": records keep a
/// `search_text` column folded here, and queries are folded the same way.
enum SearchText {
    /// Separates fields so a search cannot match across two of them.
    static let separator = "\u{1F}"

    static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }

    static func of(_ fields: String...) -> String { of(fields) }

    static func of(_ fields: [String]) -> String { fields.map(fold).joined(separator: separator) }

    /// A LIKE pattern matching rows whose search_text contains `query`.
    static func pattern(_ query: String) -> String { "%" + fold(query).likeEscaped + "%" }
}
