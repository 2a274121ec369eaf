import CSV
import Foundation

/// yaslab/CSV.swift 2.5.2, the CSV package in the mirror that writes as well as reads, and reads from a stream.
enum LibraryCSV {
    static func write(_ rows: [[String]]) throws -> [UInt8] {
        let stream = OutputStream(toMemory: ())
        stream.open()
        let writer = try CSVWriter(stream: stream, newline: .crlf)
        for row in rows { try writer.write(row: row) }
        writer.beginNewRow()
        try writer.write(field: "")  // an empty row: the line end after the last record, as Fieldbook's lines have
        stream.close()
        let data = stream.property(forKey: .dataWrittenToMemoryStreamKey) as? Data ?? Data()
        return Array(data)
    }

    static func read(_ bytes: [UInt8]) throws -> [[String]] {
        let reader = try CSVReader(stream: InputStream(data: Data(bytes)))
        var rows: [[String]] = []
        while let row = reader.next() { rows.append(row) }
        return rows
    }
}
