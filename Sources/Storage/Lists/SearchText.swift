import Foundation

/// Text prepared for case- and accent-insensitive substring search.
/// SQLite's LIKE and lower() fold ASCII letters only, so "é" would not find "Émile": records keep a
/// `search_text` column folded here, and queries are folded the same way.
enum SearchText {
    /// Separates fields so a search cannot match across two of them.
    static let separator = "\u{1F}"

    static func fold(_ text: String) -> String {
        if let folded = foldASCII(text) { return folded }
        return text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }

    /// Text that is all ASCII folds to its lower case alone, without Foundation, which bridges every string through
    /// NSString: most names, emails and addresses are ASCII, and a first sync folds every one. Nil for any other text.
    static func foldASCII(_ text: String) -> String? {
        var contiguous = text
        return contiguous.withUTF8 { bytes -> String? in
            guard !bytes.contains(where: { $0 >= 0x80 }) else { return nil }
            guard bytes.contains(where: { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }) else { return text }
            return String(unsafeUninitializedCapacity: bytes.count) { output in
                for (index, byte) in bytes.enumerated() {
                    output[index] = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
                }
                return bytes.count
            }
        }
    }

    static func of(_ fields: String...) -> String { of(fields) }

    static func of(_ fields: [String]) -> String { fields.map(fold).joined(separator: separator) }

    /// A LIKE pattern matching rows whose search_text contains `query`.
    static func pattern(_ query: String) -> String { "%" + fold(query).likeEscaped + "%" }
}
