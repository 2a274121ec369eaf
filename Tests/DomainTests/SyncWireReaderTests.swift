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
