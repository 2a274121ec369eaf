import Foundation

/// What the search of every kind (the header's box, `/search`, `GET /api/v1/search`) accepts: the words trimmed, at
/// least `shortest` characters (a single letter matches most records and tells nothing), at most `longest` (no name,
/// email or address is longer, and every character costs the indexes' work).
public struct SearchTerms: Sendable, Equatable {
    public static let shortest = 2
    public static let longest = 200

    public let text: String

    /// Why words cannot be searched, in words that say what to type.
    public enum Problem: Error, Sendable, Equatable {
        case empty, tooShort, tooLong

        public var message: String {
            switch self {
            case .empty: "Type a name, email or address to search for."
            case .tooShort: "Type at least two letters: one letter matches almost everything."
            case .tooLong: "Type at most \(SearchTerms.longest) characters: no name, email or address is longer."
            }
        }
    }

    /// The words as typed, checked.
    public static func check(_ typed: String) -> Result<SearchTerms, Problem> {
        // The limit is on the words as sent, counted in code points as the API document's maxLength counts them, so
        // that nothing the document calls too long is searched (spaces around the words included).
        if typed.unicodeScalars.count > longest { return .failure(.tooLong) }
        let text = typed.trimmingCharacters(in: .whitespacesAndNewlines)
        if text.isEmpty { return .failure(.empty) }
        if text.count < shortest { return .failure(.tooShort) }
        return .success(SearchTerms(text: text))
    }
}
