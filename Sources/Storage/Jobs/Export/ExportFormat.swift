/// The formats records are exported in.
public enum ExportFormat: String, Sendable, CaseIterable {
    /// RFC 4180, a header row of column names, for spreadsheets.
    case csv
    /// An array of objects keyed by column name, for programs (and a later import).
    case json

    public var contentType: String {
        switch self {
        case .csv: "text/csv; charset=utf-8"
        case .json: "application/json"
        }
    }

    /// The format in words, for links ("CSV").
    public var label: String { rawValue.uppercased() }
}
