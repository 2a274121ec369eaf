import Domain

/// Fieldbook's CSV (Sources/Domain/CSV.swift and CSVReader.swift), as an export writes and an import reads.
enum FieldbookCSV {
    static func write(_ rows: [[String]]) -> [UInt8] {
        var bytes: [UInt8] = []
        for row in rows { bytes.append(contentsOf: CSV.line(row).utf8) }
        return bytes
    }

    /// Read in 64 KiB pieces, as an uploaded file is.
    static func read(_ bytes: [UInt8]) -> [[String]] {
        var reader = CSVReader(separator: .comma)
        var rows: [[String]] = []
        var start = 0
        while start < bytes.count {
            reader.read(bytes[start..<min(start + 65_536, bytes.count)]) { rows.append($0) }
            start += 65_536
        }
        reader.finish { rows.append($0) }
        return rows
    }
}
