import Domain
import Foundation
import Testing

/// `SyncWireReader` reads the sync wire's answers as JSONDecoder and the Codable conformances do: the same values from
/// what the hub writes (`jsonBytes`), from what JSONEncoder writes in any key order, and from PostgreSQL's `jsonb` text.
@Suite struct SyncWireReaderTests {
    @Test func aChangePageReadsAsJSONDecoderReadsIt() throws {
        var generator = SystemRandomNumberGenerator()
        for round in 0..<300 {
            let page = ChangePageJSONTests.randomPage(&generator, size: round % 12)
            let unsorted = Array(try JSONEncoder().encode(page))
            for bytes in [page.jsonBytes, unsorted] {
                let read = try SyncWireReader.changePage(Data(bytes))
                let reference = try ChangePageJSONTests.decoded(bytes)
                #expect(read.changes == reference.changes)
                #expect(read.nextCursor == reference.nextCursor && read.hasMore == reference.hasMore && read.remaining == reference.remaining)
            }
        }
    }

    @Test func aPushResponseReadsAsJSONDecoderReadsIt() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let results = (0..<Int.random(in: 0...6, using: &generator)).map { _ in
                SyncResult(operationId: UUID(), outcome: [.applied, .merged, .conflict, .rejected].randomElement(using: &generator)!,
                           reason: Bool.random(using: &generator) ? nil : "edited “quoted” \\ reason",
                           losingFields: (0..<Int.random(in: 0...3, using: &generator)).map { index in
                               LosingField(name: "field_\(index)", mine: ChangePageJSONTests.randomValue(&generator),
                                           theirs: ChangePageJSONTests.randomValue(&generator))
                           },
                           current: RecordState(entity: "participant", entityId: UUID(), deleted: Bool.random(using: &generator),
                                                version: Int.random(in: 0...9, using: &generator),
                                                fields: ["name": ChangePageJSONTests.randomValue(&generator)]))
            }
            let bytes = Data(PushResponse(results: results).jsonBytes)
            #expect(try SyncWireReader.pushResponse(bytes).results == JSONDecoder().decode(PushResponse.self, from: bytes).results)
        }
    }

    /// A push as a node writes it (`jsonBytes`) and as JSONEncoder writes it, keys in any order, reads as JSONDecoder
    /// reads it, and the Codable conformance reads what the node writes.
    @Test func aPushRequestReadsAsJSONDecoderReadsIt() throws {
        var generator = SystemRandomNumberGenerator()
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601withFractions
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601withFractions
        for round in 0..<200 {
            let request = PushRequest(nodeId: UUID(), operations: (0..<round % 7).map { _ in Self.randomOperation(&generator) })
            for bytes in [request.jsonBytes, Array(try encoder.encode(request))] {
                let read = try SyncWireReader.pushRequest(Data(bytes))
                let reference = try decoder.decode(PushRequest.self, from: Data(bytes))
                #expect(read.nodeId == reference.nodeId && read.operations == reference.operations)
            }
            // Integral doubles read back as integers either way; every other value as written.
            let written = try decoder.decode(PushRequest.self, from: Data(request.jsonBytes))
            #expect(written.operations.map(\.operationId) == request.operations.map(\.operationId))
            #expect(written.operations.map(\.createdAt) == request.operations.map(\.createdAt))
        }
    }

    @Test func brokenPushesAreRefusedWithWhereTheyBroke() throws {
        let operation = #"{"operation_id": "7a4f3c9e-1b2d-4e5f-8a9b-0c1d2e3f4a5b", "operation": "create", "entity": "venue", "entity_id": "0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e", "fields": {}, "before": {}, "base_version": 0, "author": "a", "created_at": "2026-11-26T10:00:00.000Z"}"#
        #expect(try SyncWireReader.pushRequest(Data(#"{"node_id": "7a4f3c9e-1b2d-4e5f-8a9b-0c1d2e3f4a5b", "operations": [\#(operation)]}"#.utf8))
            .operations.count == 1)
        let broken = [
            operation.replacingOccurrences(of: #""operation": "create""#, with: #""operation": "upsert""#),
            operation.replacingOccurrences(of: #""created_at": "2026-11-26T10:00:00.000Z""#, with: #""created_at": "yesterday""#),
            operation.replacingOccurrences(of: #""base_version": 0"#, with: #""base_version": 0.5"#),
            operation.replacingOccurrences(of: #""fields": {}"#, with: #""fields": {"a": {"b": 1}}"#),
            operation.replacingOccurrences(of: #", "author": "a""#, with: ""),
        ]
        for text in broken {
            let body = #"{"node_id": "7a4f3c9e-1b2d-4e5f-8a9b-0c1d2e3f4a5b", "operations": [\#(text)]}"#
            #expect(throws: SyncWireError.self, "\(text)") { try SyncWireReader.pushRequest(Data(body.utf8)) }
        }
    }

    static func randomOperation(_ generator: inout SystemRandomNumberGenerator) -> SyncOperation {
        func randomFields() -> [String: JSONValue] {
            Dictionary(uniqueKeysWithValues: (0..<Int.random(in: 0...6, using: &generator)).map {
                ("field_\($0)", ChangePageJSONTests.randomValue(&generator))
            })
        }
        // Whole milliseconds, as the outbox stores them and the wire writes them.
        let milliseconds = Double(Int64.random(in: 0...4_000_000_000_000, using: &generator))
        return SyncOperation(operationId: UUID(), operation: [.create, .update, .delete].randomElement(using: &generator)!,
                             entity: ["participant", "venue", "activity"].randomElement(using: &generator)!, entityId: UUID(),
                             fields: randomFields(), before: randomFields(), baseVersion: Int.random(in: 0...1000, using: &generator),
                             author: ["hub", UUID().uuidString.lowercased(), "“quoted” \\ author"].randomElement(using: &generator)!,
                             createdAt: Date(timeIntervalSince1970: milliseconds / 1000))
    }

    /// PostgreSQL's `jsonb` text: a space after each colon and comma, escapes as it writes them.
    @Test func fieldsReadFromPostgreSQLsJSONText() throws {
        let text = #"{"a": 1, "b": "line\nbreak \"q\" \\ \u00e9 \ud83d\ude42", "c": null, "d": true, "e": 51.5, "f": -0.25, "g": 1e21, "h": false}"#
        #expect(try SyncWireReader.fields(text) == [
            "a": .int(1), "b": .string("line\nbreak \"q\" \\ é 🙂"), "c": .null, "d": .bool(true), "e": .double(51.5), "f": .double(-0.25),
            "g": .double(1e21), "h": .bool(false),
        ])
        #expect(try SyncWireReader.fields("{}") == [:])
        #expect(try SyncWireReader.fields(" { \"x\" : \"\" } ") == ["x": .string("")])
    }

    @Test func keysItDoesNotKnowAreSkippedWhateverTheyHold() throws {
        let text = #"{"extra": {"deep": [1, {"a": [true, null]}, "s"]}, "changes": [], "next_cursor": 7, "has_more": false, "remaining": 0, "more": [[]]}"#
        let page = try SyncWireReader.changePage(Data(text.utf8))
        #expect(page.changes.isEmpty && page.nextCursor == 7 && !page.hasMore && page.remaining == 0)
    }

    @Test func brokenAnswersAreRefusedNotGuessed() {
        let broken = [
            "", "{", #"{"changes": []"#, #"{"changes": [], "next_cursor": 1, "has_more": false}"#,
            #"{"changes": [], "next_cursor": 1, "has_more": false, "remaining": 0} trailing"#,
            #"{"changes": [], "next_cursor": "1", "has_more": false, "remaining": 0}"#,
            #"{"changes": [{"seq": 1, "state": {"entity": "x", "entity_id": "not an id", "deleted": false, "version": 1, "fields": {}}}], "next_cursor": 1, "has_more": false, "remaining": 0}"#,
        ]
        for text in broken {
            #expect(throws: SyncWireError.self, "\(text)") { try SyncWireReader.changePage(Data(text.utf8)) }
        }
        for text in [#"{"a": "\ud83d"}"#, #"{"a": "\q"}"#, #"{"a": [1]}"#, #"{"a": 1,}"#, #"{"a" 1}"#, #"{"a": tru}"#, #"{"a": 1e400}"#] {
            #expect(throws: SyncWireError.self, "\(text)") { try SyncWireReader.fields(text) }
        }
        // Deep nesting under a key it skips is refused, not a stack overflow.
        let deep = #"{"x": "# + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "}"
        #expect(throws: SyncWireError.self) { try SyncWireReader.pushResponse(Data(deep.utf8)) }
    }
}
