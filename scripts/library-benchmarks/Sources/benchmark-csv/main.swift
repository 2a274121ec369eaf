import BenchmarkTiming
import Foundation

/// Fieldbook's CSV writer and reader against yaslab/CSV.swift 2.5.2: 20,000 participant-like rows (some cells quoted:
/// commas, quotes, line breaks, accents) written to bytes, then read back.
let rows: [[String]] = [["id", "name", "email", "phone", "notes", "home_venue"]] + (0..<20_000).map { number in
    [UUID().uuidString.lowercased(), number % 7 == 0 ? "Zoë \"Zed\" Ng \(number)" : "Person \(number)", "person\(number)@example.org",
     number % 3 == 0 ? "" : "+44 20 7946 \(1000 + number % 9000)", number % 5 == 0 ? "Likes tea,\r\nand long walks" : "",
     "Venue \(number % 500)"]
}
let fieldbookBytes = FieldbookCSV.write(rows)
requireSame(fieldbookBytes, try LibraryCSV.write(rows), "writing")
requireSame(FieldbookCSV.read(fieldbookBytes), rows, "Fieldbook reading")
requireSame(try LibraryCSV.read(fieldbookBytes), rows, "CSV.swift reading")
print("\(rows.count) rows, \(fieldbookBytes.count / 1024) KiB of CSV, the same from both")
try SideBySide("Write the rows as CSV", rounds: 5, repetitions: 3).run(
    .init("Fieldbook's CSV.line") { _ = FieldbookCSV.write(rows) },
    .init("CSV.swift 2.5.2 CSVWriter") { _ = try LibraryCSV.write(rows) })
try SideBySide("Read the CSV back", rounds: 5, repetitions: 3).run(
    .init("Fieldbook's CSVReader") { _ = FieldbookCSV.read(fieldbookBytes) },
    .init("CSV.swift 2.5.2 CSVReader") { _ = try LibraryCSV.read(fieldbookBytes) })
