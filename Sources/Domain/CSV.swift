/// RFC 4180 cells and lines, written once for every CSV Fieldbook serves (exports, analytics tables, visit results).
public enum CSV {
    public static let lineEnd = "\r\n"
    /// UTF-8's byte order mark, which tells spreadsheets the file is UTF-8.
    public static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// A line of cells, each quoted as it needs, ended with CRLF.
    public static func line(_ cells: [String]) -> String {
        cells.map(quoted).joined(separator: ",") + lineEnd
    }

    /// Text a person typed: a cell a spreadsheet would run as a formula gets an apostrophe in front. That is one
    /// starting with =, @, tab or CR, or with + or - followed by more than a number or phone number ("+cmd|…",
    /// "-SUM(…)"). A sign before digits with spaces, dashes, dots, parentheses or slashes between ("+44 20 7946 0958",
    /// "-12.5") is kept as typed: at most a spreadsheet reads arithmetic from it, which calls no function, no other
    /// cell and no program. Text that already starts with apostrophes before such a cell gets one more, so
    /// `CSVReader.undefused` gives back exactly what was typed.
    public static func defused(_ text: String) -> String {
        guard startsLikeFormula(text.drop { $0 == "'" }) else { return text }
        return "'" + text
    }

    static func startsLikeFormula(_ text: Substring) -> Bool {
        guard let first = text.unicodeScalars.first else { return false }
        if first == "+" || first == "-" { return !readsAsNumber(text.unicodeScalars.dropFirst()) }
        return "=@\t\r".unicodeScalars.contains(first)
    }

    /// Digits, with spaces, dashes, dots, parentheses or slashes between them: a number or a phone number.
    static func readsAsNumber(_ rest: Substring.UnicodeScalarView.SubSequence) -> Bool {
        rest.contains { $0.properties.numericType != nil && $0.isASCII }
            && rest.allSatisfy { ($0.isASCII && $0.properties.numericType != nil) || " -.()/".unicodeScalars.contains($0) }
    }

    /// The cell in quotes, quotes doubled, when it holds a comma, a quote or a line break.
    public static func quoted(_ cell: String) -> String {
        guard cell.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return cell }
        return "\"" + cell.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
