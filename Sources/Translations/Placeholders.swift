/// Text with named placeholders, `{count}` or `{venue.name}`: how a msgid names the values it shows, so that a
/// translation may put them in its own order. A `{` that does not open such a name is plain text.
public enum TextPiece: Sendable, Equatable {
    case text(String)
    case placeholder(String)
}

public enum Placeholders {
    public static func pieces(of text: String) -> [TextPiece] {
        var pieces: [TextPiece] = []
        var plain = ""
        var rest = text[...]
        while let open = rest.firstIndex(of: "{") {
            plain += rest[..<open]
            let afterOpen = rest[rest.index(after: open)...]
            if let close = afterOpen.firstIndex(of: "}"), isName(afterOpen[..<close]) {
                if !plain.isEmpty { pieces.append(.text(plain)) }
                plain = ""
                pieces.append(.placeholder(String(afterOpen[..<close])))
                rest = afterOpen[afterOpen.index(after: close)...]
            } else {
                plain += "{"
                rest = afterOpen
            }
        }
        plain += rest
        if !plain.isEmpty { pieces.append(.text(plain)) }
        return pieces
    }

    /// The names a text's placeholders use, each once.
    public static func names(in text: String) -> Set<String> {
        Set(pieces(of: text).compactMap { if case .placeholder(let name) = $0 { name } else { nil } })
    }

    /// `text` with each placeholder replaced by its value; a placeholder without one stays as written.
    public static func fill(_ text: String, with values: [String: String]) -> String {
        guard text.contains("{" as Character) else { return text }  // as in `Translator.text(_:)`
        return pieces(of: text).map { piece in
            switch piece {
            case .text(let plain): plain
            case .placeholder(let name): values[name] ?? "{\(name)}"
            }
        }.joined()
    }

    static func isName(_ text: Substring) -> Bool {
        guard let first = text.first, first.isASCII, first.isLetter || first == "_" else { return false }
        return text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == ".") }
    }
}
