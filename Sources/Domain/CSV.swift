/// RFC 4180 cells and lines, written once for every CSV Fieldbook serves (exports, analytics tables, visit results).
public enum CSV {
    public static let lineEnd = "\r\n"
    /// UTF-8's byte order mark, which tells spreadsheets the file is UTF-8.
    public static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// A line of cells, each quoted as it needs, ended with CRLF.
    public static func line(_ cells: [String]) -> String {
        cells.map(quoted).joined(separator: ",") + lineEnd
    }

    /// Text a person typed: a cell a spreadsheet would run as a formula (starting with =, +, -, @, tab or CR) gets an
    /// apostrophe in front. A number, such as a negative longitude, is left as it is. Text that already starts with
    /// apostrophes before such a character gets one more, so `CSVReader.undefused` gives back exactly what was typed.
    public static func defused(_ text: String) -> String {
        guard startsLikeFormula(text.drop { $0 == "'" }), Double(text) == nil else { return text }
        return "'" + text
    }

    static func startsLikeFormula(_ text: Substring) -> Bool {
        guard let first = text.unicodeScalars.first else { return false }
        return "=+-@\t\r".unicodeScalars.contains(first)
    }

    /// The cell in quotes, quotes doubled, when it holds a comma, a quote or a line break.
    public static func quoted(_ cell: String) -> String {
        guard cell.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return cell }
        return "\"" + cell.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
