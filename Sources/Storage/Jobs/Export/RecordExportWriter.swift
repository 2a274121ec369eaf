import Domain
import GRDB
import Records

/// Writes one kind's rows as CSV or JSON, a part at a time, so an export of any size holds one part in memory.
/// Columns are the kind's id, synced columns and timestamps (its descriptor), less any the reader may not see;
/// timestamps are written in ISO 8601, UTC (`2026-11-24T09:30:00.123Z`), as the API writes them.
struct RecordExportWriter {
    let columns: [String]
    let format: ExportFormat
    private let timestampColumns: Set<String>
    private var json = JSONBytes(capacity: Self.partBytes + 4096)
    private var csv: [UInt8] = []
    private(set) var rowCount = 0

    /// How much is written before it is handed on.
    static let partBytes = 64 * 1024

    init(kind: RecordKind, hiding hidden: Set<String>, format: ExportFormat) {
        columns = kind.exportColumns.filter { !hidden.contains($0) }
        timestampColumns = kind.instantColumns
        self.format = format
        csv.reserveCapacity(Self.partBytes + 4096)
    }

    /// The columns as a SELECT list through the table's alias.
    func selectList(alias: String) -> String { columns.map { "\(alias).\($0)" }.joined(separator: ", ") }

    mutating func begin() {
        switch format {
        case .csv:
            // A byte order mark first: Excel reads a CSV as UTF-8 only with one, and without it "Émile" arrives garbled.
            csv.append(contentsOf: CSV.byteOrderMark)
            csv.append(contentsOf: CSV.line(columns).utf8)
        case .json: json.raw("[")
        }
    }

    mutating func append(_ row: Row) {
        switch format {
        case .csv:
            let cells = columns.indices.map { cell(row[$0], column: columns[$0]) }
            csv.append(contentsOf: CSV.line(cells).utf8)
        case .json:
            json.raw(rowCount == 0 ? "\n{" : ",\n{")
            for (index, column) in columns.enumerated() {
                if index > 0 { json.raw(",") }
                json.string(column)
                json.raw(":")
                json.value(value(row[index], column: column))
            }
            json.raw("}")
        }
        rowCount += 1
    }

    mutating func end() {
        if format == .json { json.raw("\n]\n") }
    }

    /// Whether a part's worth is waiting to be handed on.
    var hasPart: Bool { (format == .csv ? csv.count : json.count) >= Self.partBytes }

    /// What is written so far, leaving the buffer empty.
    mutating func take() -> [UInt8] {
        switch format {
        case .csv:
            defer { csv.removeAll(keepingCapacity: true) }
            return csv
        case .json: return json.take()
        }
    }

    private func value(_ stored: DatabaseValue, column: String) -> JSONValue {
        let value = JSONValue(stored)
        guard timestampColumns.contains(column), case .string(let text) = value else { return value }
        return .string(Self.isoTimestamp(text))
    }

    private func cell(_ stored: DatabaseValue, column: String) -> String {
        switch value(stored, column: column) {
        case .null: ""
        case .bool(let flag): flag ? "true" : "false"
        case .int(let number): String(number)
        case .double(let number): String(number)
        case .string(let text): CSV.defused(text)
        }
    }

    /// `2026-11-24 09:30:00.123` (how timestamps are stored, UTC) as `2026-11-24T09:30:00.123Z`; any other text as it is.
    static func isoTimestamp(_ stored: String) -> String {
        let utf8 = stored.utf8
        guard utf8.count == 23, utf8[utf8.index(utf8.startIndex, offsetBy: 10)] == UInt8(ascii: " ") else { return stored }
        return stored.prefix(10) + "T" + stored.dropFirst(11) + "Z"
    }
}
