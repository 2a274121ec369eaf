import Domain
import Foundation
import Testing

/// The change log page written straight to bytes must read back, through the Codable conformance every node uses,
/// exactly as what JSONEncoder writes does.
@Suite struct ChangePageJSONTests {
    @Test func aPageWrittenToBytesReadsBackAsJSONEncodersDoes() throws {
        var generator = SystemRandomNumberGenerator()
        for round in 0..<300 {
            let page = Self.randomPage(&generator, size: round % 12)
            let fast = try Self.decoded(page.jsonBytes)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            let reference = try Self.decoded(Array(try encoder.encode(page)))
            // Compared with JSONEncoder's, not with `page`: the wire reads an integral double back as an integer either way.
            #expect(fast.changes == reference.changes)
            #expect(fast.nextCursor == reference.nextCursor && fast.hasMore == reference.hasMore && fast.remaining == reference.remaining)
        }
    }

    @Test func stringsWithQuotesControlCharactersAndNonASCIITextSurvive() throws {
        let tricky = ["", "\"quoted\"", "back\\slash", "line\nbreak\r\ttab", "\u{0}\u{1}\u{1f}\u{7f}", "é, ü, 東京, 🙂", "\u{2028}\u{2029}", "/slash/"]
        for text in tricky {
            let page = ChangePage(changes: [ChangeLogEntry(seq: 1, state: RecordState(
                entity: "participant", entityId: UUID(), deleted: false, version: 1, fields: [text: .string(text)]))],
                                  nextCursor: 1, hasMore: false, remaining: 0)
            #expect(try Self.decoded(page.jsonBytes).changes == page.changes, "\(text.debugDescription)")
        }
    }

    static func decoded(_ bytes: [UInt8]) throws -> ChangePage {
        try JSONDecoder().decode(ChangePage.self, from: Data(bytes))
    }

    static func randomPage(_ generator: inout SystemRandomNumberGenerator, size: Int) -> ChangePage {
        let entries = (0..<size).map { index in
            ChangeLogEntry(seq: Int64(index + 1), state: RecordState(
                entity: ["participant", "venue", "activity"].randomElement(using: &generator)!, entityId: UUID(),
                deleted: Bool.random(using: &generator), version: Int.random(in: 0...1000, using: &generator),
                fields: Dictionary(uniqueKeysWithValues: (0..<Int.random(in: 0...8, using: &generator)).map {
                    ("field_\($0)", randomValue(&generator))
                })))
        }
        return ChangePage(changes: entries, nextCursor: Int64(size), hasMore: Bool.random(using: &generator),
                          remaining: Int.random(in: 0...100_000, using: &generator))
    }

    static func randomValue(_ generator: inout SystemRandomNumberGenerator) -> JSONValue {
        switch Int.random(in: 0...5, using: &generator) {
        case 0: .null
        case 1: .bool(Bool.random(using: &generator))
        case 2: .int([Int.min, Int.max, 0, -1, Int.random(in: -1_000_000...1_000_000, using: &generator)].randomElement(using: &generator)!)
        case 3: .double([0.1, -0.0, 1e-7, 1e21, 5e-324, 1.7976931348623157e308, 36.8219, -1.2863, 0.5,
                         Double.random(in: -180...180, using: &generator)].randomElement(using: &generator)!)
        case 4: .string(String((0..<Int.random(in: 0...20, using: &generator)).map { _ in
            Character(Unicode.Scalar([0x22, 0x5C, 0x0A, 0x01, 0x41, 0xE9, 0x6771, 0x1F642].randomElement(using: &generator)!)!)
        }))
        default: .string("2026-11-24T09:30:00.000Z")
        }
    }
}

/// The push answer written straight to bytes reads back as JSONEncoder's does.
@Suite struct PushResponseJSONTests {
    @Test func aPushAnswerWrittenToBytesReadsBackAsJSONEncodersDoes() throws {
        let state = RecordState(entity: "participant", entityId: UUID(), deleted: false, version: 3,
                                fields: ["name": .string("Amina \"A\" Otieno"), "latitude": .double(-1.2863), "notes": .null])
        let results = [
            SyncResult(operationId: UUID(), outcome: .applied, current: state),
            SyncResult(operationId: UUID(), outcome: .conflict, reason: "edited",
                       losingFields: [LosingField(name: "name", mine: .string("Mine"), theirs: .string("Theirs")),
                                      LosingField(name: "phone", mine: .null, theirs: .int(42))], current: state),
            SyncResult(operationId: UUID(), outcome: .rejected, reason: "Line\nbreak", current: RecordState(
                entity: "venue", entityId: UUID(), deleted: true, version: 0, fields: [:])),
        ]
        let response = PushResponse(results: results)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let fast = try JSONDecoder().decode(PushResponse.self, from: Data(response.jsonBytes))
        let reference = try JSONDecoder().decode(PushResponse.self, from: encoder.encode(response))
        #expect(fast.results == reference.results)
        #expect(fast.results == results)
        #expect(String(decoding: results[1].jsonBytes, as: UTF8.self) == String(decoding: try encoder.encode(results[1]), as: UTF8.self))
    }
}
