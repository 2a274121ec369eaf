import BenchmarkTiming
import Domain
import Foundation

/// The sync wire's hand-written JSON (SyncWireJSON.swift, SyncWireReader.swift) against Foundation's JSONEncoder and
/// JSONDecoder through the same Codable conformances, and its timestamps (UTCTimestampText.swift, UTCTimestamp.swift)
/// against Foundation's ISO 8601 format style and formatter, ids and hashes as text against Foundation's: a push of
/// 1,000 participant edits, a change page of 1,000 states, 100,000 timestamps, 100,000 ids and 10,000 hashes.
var random = SeededGenerator(seed: 7)
let start = Date(timeIntervalSince1970: 1_764_000_000.123)
func fields(_ number: Int) -> [String: JSONValue] {
    ["name": .string("Person \(number) Ünïcode"), "email": .string("person\(number)@example.org"),
     "phone": number % 3 == 0 ? .null : .string("+44 20 7946 \(1000 + number)"), "notes": .string("Line one\nline \"two\""),
     "home_venue_id": .string(UUID().uuidString.lowercased()), "version": .int(number), "latitude": .double(51.5 + Double(number) / 1e4)]
}
let push = PushRequest(nodeId: UUID(), operations: (0..<1_000).map { number in
    SyncOperation(operationId: UUID(), operation: .update, entity: "participant", entityId: UUID(), fields: fields(number),
                  before: ["name": .string("Person \(number)")], baseVersion: number % 5, author: "bench@example.org",
                  createdAt: start.addingTimeInterval(Double(Int.random(in: 0..<86_400_000, using: &random)) / 1000))
})
let page = ChangePage(changes: (0..<1_000).map { number in
    ChangeLogEntry(seq: Int64(number + 1), state: RecordState(entity: "participant", entityId: UUID(), deleted: false, version: 3,
                                                                fields: fields(number)))
}, nextCursor: 1_000, hasMore: true, remaining: 99_000)

let encoder = JSONEncoder()
encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
encoder.dateEncodingStrategy = .iso8601withFractions
let decoder = JSONDecoder()
decoder.dateDecodingStrategy = .iso8601withFractions

let pushBytes = push.jsonBytes
let pageBytes = page.jsonBytes
requireSame(try SyncWireReader.pushRequest(Data(pushBytes)).operations, try decoder.decode(PushRequest.self, from: Data(pushBytes)).operations, "reading a push")
requireSame(try SyncWireReader.pushRequest(Data(pushBytes)).operations, try decoder.decode(PushRequest.self, from: try encoder.encode(push)).operations,
            "a push as JSONEncoder writes it")
requireSame(try SyncWireReader.changePage(Data(pageBytes)).changes, try decoder.decode(ChangePage.self, from: Data(pageBytes)).changes, "reading a page")
print("A push of 1,000 operations: \(pushBytes.count / 1024) KiB; a change page of 1,000 states: \(pageBytes.count / 1024) KiB")
let wireWork: [(String, SideBySide.Contender, SideBySide.Contender)] = [
    ("Write a push of 1,000 operations (a node)", .init("Fieldbook's PushRequest.jsonBytes") { _ = push.jsonBytes },
     .init("JSONEncoder") { _ = try encoder.encode(push) }),
    ("Read a push of 1,000 operations (a hub)", .init("Fieldbook's SyncWireReader") { _ = try SyncWireReader.pushRequest(Data(pushBytes)) },
     .init("JSONDecoder") { _ = try decoder.decode(PushRequest.self, from: Data(pushBytes)) }),
    ("Write a change page of 1,000 states (a hub)", .init("Fieldbook's ChangePage.jsonBytes") { _ = page.jsonBytes },
     .init("JSONEncoder") { _ = try encoder.encode(page) }),
    ("Read a change page of 1,000 states (a node)", .init("Fieldbook's SyncWireReader") { _ = try SyncWireReader.changePage(Data(pageBytes)) },
     .init("JSONDecoder") { _ = try decoder.decode(ChangePage.self, from: Data(pageBytes)) }),
]
for (title, fieldbook, library) in wireWork { try SideBySide(title, repetitions: 10).run(fieldbook, library) }

let dates = (0..<100_000).map { _ in start.addingTimeInterval(Double(Int.random(in: -3_000_000_000_000..<3_000_000_000_000, using: &random)) / 1000) }
let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
let formatter = ISO8601DateFormatter()
formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
let texts = dates.map { SyncDateFormat.string(from: $0) }
requireSame(texts, dates.map { formatter.string(from: $0) }, "writing timestamps")
requireSame(texts.map { SyncDateFormat.date(from: $0) }, texts.map { formatter.date(from: $0) }, "reading timestamps")
// The format style truncates to milliseconds where the formatter (and the wire) round half up.
let styleTexts = dates.map { $0.formatted(style) }
let differing = zip(texts, styleTexts).filter { $0 != $1 }
let parsedApart = try texts.filter { abs(SyncDateFormat.date(from: $0)!.timeIntervalSince(try style.parse($0))) > 0.000_5 }
print("100,000 timestamps: the same from Fieldbook's code and ISO8601DateFormatter; Date.ISO8601FormatStyle writes "
      + "\(differing.count) differently (\(differing.first.map { "\($0.0) against \($0.1)" } ?? "none")) and reads "
      + "\(parsedApart.count) more than half a millisecond apart")
let writing = SideBySide.Contender("Fieldbook's TimestampText") { for date in dates { _ = TimestampText.text(date, .wire) } }
let reading = SideBySide.Contender("Fieldbook's UTCTimestamp") { for text in texts { _ = SyncDateFormat.date(from: text) } }
let timestampWork: [(String, SideBySide.Contender, SideBySide.Contender)] = [
    ("Write 100,000 wire timestamps", writing, .init("Date.ISO8601FormatStyle") { for date in dates { _ = date.formatted(style) } }),
    ("Write 100,000 wire timestamps", writing, .init("ISO8601DateFormatter (kept)") { for date in dates { _ = formatter.string(from: date) } }),
    ("Read 100,000 wire timestamps", reading, .init("Date.ISO8601FormatStyle") { for text in texts { _ = try style.parse(text) } }),
    ("Read 100,000 wire timestamps", reading, .init("ISO8601DateFormatter (kept)") { for text in texts { _ = formatter.date(from: text) } }),
]
for (title, fieldbook, library) in timestampWork { try SideBySide(title, rounds: 5, repetitions: 1).run(fieldbook, library) }

// Ids and hashes as text (UUIDText.swift, HexText.swift) against Foundation's UUID text and String(format:).
let ids = (0..<100_000).map { _ in UUID() }
let idTexts = ids.map(\.lowercaseText)
let hashes = (0..<10_000).map { _ in (0..<32).map { _ in UInt8.random(in: 0...255, using: &random) } }
requireSame(idTexts, ids.map { $0.uuidString.lowercased() }, "writing ids")
requireSame(idTexts.map { UUID(canonicalText: $0) }, idTexts.map { UUID(uuidString: $0) }, "reading ids")
requireSame(hashes.map(\.lowercaseHex), hashes.map { $0.map { String(format: "%02x", $0) }.joined() }, "writing hashes")
let textWork: [(String, SideBySide.Contender, SideBySide.Contender)] = [
    ("Write 100,000 ids", .init("Fieldbook's UUID.lowercaseText") { for id in ids { _ = id.lowercaseText } },
     .init("uuidString.lowercased()") { for id in ids { _ = id.uuidString.lowercased() } }),
    ("Read 100,000 ids", .init("Fieldbook's UUID(canonicalText:)") { for text in idTexts { _ = UUID(canonicalText: text) } },
     .init("UUID(uuidString:)") { for text in idTexts { _ = UUID(uuidString: text) } }),
    ("Write 10,000 SHA-256 hashes in hex", .init("Fieldbook's lowercaseHex") { for hash in hashes { _ = hash.lowercaseHex } },
     .init("String(format: \"%02x\")") { for hash in hashes { _ = hash.map { String(format: "%02x", $0) }.joined() } }),
]
for (title, fieldbook, library) in textWork { try SideBySide(title, rounds: 5, repetitions: 1).run(fieldbook, library) }
