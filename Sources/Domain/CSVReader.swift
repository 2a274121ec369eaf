import Foundation

/// Reads CSV as spreadsheets write it, a piece at a time (a file of any size is read in chunks): RFC 4180 quoting,
/// CRLF, LF or CR line ends, a UTF-8 byte order mark, comma, semicolon (Excel where the decimal mark is a comma) or tab
/// between cells, and text that is not UTF-8 (Excel's "CSV" on Windows) read as Windows-1252.
public struct CSVReader {
    public enum Separator: UInt8, Sendable, CaseIterable {
        case comma = 0x2C, semicolon = 0x3B, tab = 0x09

        public var name: String {
            switch self {
            case .comma: "commas"
            case .semicolon: "semicolons"
            case .tab: "tabs"
            }
        }
    }

    private enum State { case cellStart, unquoted, quoted, quoteInQuoted, afterCR }

    public let separator: Separator
    private var state = State.cellStart
    private var cell: [UInt8] = []
    private var record: [String] = []
    private var atStart = true
    /// True once a cell was not UTF-8 and was read as Windows-1252.
    public private(set) var usedWindows1252 = false
    /// Records emitted, counting the header row: where a problem is.
    private var records = 0
    private var quoteOpenedInRecord = 0
    /// Why the file cannot be trusted as CSV (a quote never closed, a cell past `maxCellBytes`), once read to its end.
    public private(set) var problem: String?
    /// Longer than any value Fieldbook keeps: a cell this long is a quote left open, not a value.
    public static let maxCellBytes = 100_000

    public init(separator: Separator) { self.separator = separator }

    /// The separator the first line uses most, outside quotes; commas when it has none.
    public static func separator(guessedFrom start: some Collection<UInt8>) -> Separator {
        var counts: [Separator: Int] = [:]
        var quoted = false
        for byte in start {
            if byte == 0x22 { quoted.toggle() } else if !quoted, byte == 0x0A || byte == 0x0D { break }
            else if !quoted, let separator = Separator(rawValue: byte) { counts[separator, default: 0] += 1 }
        }
        return Separator.allCases.max { counts[$0, default: 0] < counts[$1, default: 0] }.flatMap { counts[$0, default: 0] > 0 ? $0 : nil } ?? .comma
    }

    /// Reads `bytes`, calling `emit` with each record completed in them. Blank lines give no record.
    public mutating func read(_ bytes: some Collection<UInt8>, _ emit: ([String]) throws -> Void) rethrows {
        var bytes = bytes[...]
        if atStart {
            atStart = false
            if bytes.starts(with: CSV.byteOrderMark) { bytes = bytes.dropFirst(3) }
        }
        for byte in bytes {
            switch state {
            case .afterCR:
                state = .cellStart
                if byte == 0x0A { continue }
                try take(byte, emit)
            default:
                try take(byte, emit)
            }
        }
    }

    /// Ends the input: the last record, when the file does not end with a line break.
    public mutating func finish(_ emit: ([String]) throws -> Void) rethrows {
        if state == .quoted, problem == nil {
            problem = "A quote (\") opened on row \(quoteOpenedInRecord) is never closed, so the rest of the file would be one cell. Check that row in your spreadsheet and save the file again."
        }
        if state == .quoted || state == .quoteInQuoted || state == .unquoted || !record.isEmpty || !cell.isEmpty {
            try endRecord(emit)
        }
        state = .cellStart
    }

    private mutating func take(_ byte: UInt8, _ emit: ([String]) throws -> Void) rethrows {
        switch state {
        case .quoted:
            if byte == 0x22 { state = .quoteInQuoted } else { append(byte) }
        case .quoteInQuoted:
            if byte == 0x22 {
                append(byte)
                state = .quoted
            } else {
                state = .unquoted
                try take(byte, emit)
            }
        case .cellStart where byte == 0x22:
            state = .quoted
            quoteOpenedInRecord = records + 1
        case .cellStart, .unquoted, .afterCR:
            if byte == separator.rawValue {
                endCell()
                state = .cellStart
            } else if byte == 0x0A {
                try endRecord(emit)
                state = .cellStart
            } else if byte == 0x0D {
                try endRecord(emit)
                state = .afterCR
            } else {
                append(byte)
                state = .unquoted
            }
        }
    }

    private mutating func append(_ byte: UInt8) {
        guard cell.count < Self.maxCellBytes else {
            if problem == nil {
                problem = "A cell on row \(records + 1) is longer than \(Self.maxCellBytes.formatted()) characters: a quote (\") is probably left open. Check that row in your spreadsheet and save the file again."
            }
            return
        }
        cell.append(byte)
    }

    private mutating func endCell() {
        record.append(Self.undefused(decode(cell)))
        cell.removeAll(keepingCapacity: true)
    }

    private mutating func endRecord(_ emit: ([String]) throws -> Void) rethrows {
        endCell()
        let done = record
        record.removeAll(keepingCapacity: true)
        if done.count == 1, done[0].isEmpty { return }
        records += 1
        try emit(done)
    }

    private mutating func decode(_ bytes: [UInt8]) -> String {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        usedWindows1252 = true
        return String(bytes: bytes, encoding: .windowsCP1252) ?? String(decoding: bytes, as: UTF8.self)
    }

    /// The text as typed before `CSV.defused` put an apostrophe in front of it.
    public static func undefused(_ text: String) -> String {
        guard text.hasPrefix("'"), CSV.startsLikeFormula(text.drop { $0 == "'" }) else { return text }
        return String(text.dropFirst())
    }
}
