/// `en-XA`, a language for tests: every translated text is shown between ⟦ and ⟧, its letters accented and the whole
/// about 40% longer, so a page crawled in it shows at a glance any text that is not translated (plain English) and
/// any layout that cannot take longer words. It is offered only when the server is started with it enabled.
public enum PseudoLocale {
    public static let tag = "en-XA"
    public static let open: Character = "⟦"
    public static let close: Character = "⟧"

    private static let accented: [Character: Character] = [
        "a": "á", "e": "é", "i": "í", "o": "ó", "u": "ú", "y": "ý", "c": "ç", "n": "ñ",
        "A": "Á", "E": "É", "I": "Í", "O": "Ó", "U": "Ú", "Y": "Ý", "C": "Ç", "N": "Ñ",
    ]

    /// Placeholders are kept as they are, so the values still fill them, and so are markup (`<a href="…">`) and
    /// entities (`&amp;`) in a text that may hold them.
    public static func wrap(_ msgid: String) -> String {
        var wrapped = String(open)
        var letters = 0
        for piece in Placeholders.pieces(of: msgid) {
            switch piece {
            case .placeholder(let name): wrapped += "{\(name)}"
            case .text(let text):
                var inMarkup = false
                for character in text {
                    if character == "<" || character == "&" { inMarkup = true }
                    wrapped.append(inMarkup ? character : accented[character] ?? character)
                    if !inMarkup, character.isLetter { letters += 1 }
                    if character == ">" || character == ";" { inMarkup = false }
                }
            }
        }
        // Padding in short words, so that a longer text can still wrap as a translation's would.
        var padding = (letters * 2 + 4) / 5
        while padding > 0 {
            let word = min(padding, 5)
            wrapped += " " + String(repeating: "~", count: word)
            padding -= word
        }
        wrapped.append(close)
        return wrapped
    }
}
