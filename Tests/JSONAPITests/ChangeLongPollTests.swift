import Domain
import Foundation
@testable import HTTPServer
@testable import JSONAPI
import Storage
import Testing

/// The hub's live changes stream: GET /api/v1/sync/changes with `wait` holds an empty answer until a change is
/// committed or the wait ends.
@Suite struct ChangeLongPollTests {
    /// Reading the change log from its start notes the node as linked, a write: the server must not answer it on its
    /// reading threads, which never wait for the writer. The API's other GETs only read.
    @Test func theChangeLogIsNotAnsweredAsAQuickReadAndRecordListsAre() throws {
        let given = try APIHarness()
        #expect(!given.api.onlyReads(Request(method: .get, path: APIPaths.syncChanges())))
        #expect(given.api.onlyReads(Request(method: .get, path: APIPaths.participants.collection())))
        #expect(given.api.onlyReads(Request(method: .get, path: APIPaths.health())))
        #expect(!given.api.onlyReads(Request(method: .post, path: APIPaths.syncPush())))
    }

    @Test func aHeldPollIsAnsweredByTheNextCommittedChange() throws {
        let given = try APIHarness()
        let token = try given.token(.administrator)
        let cursor = try given.database.latestChangeSequence()

        let poll = given.send(.get, "/api/v1/sync/changes?wait=20&after=\(cursor)&limit=10", token: token)
        let stream = try #require(poll.response.stream, "an empty page with a wait must be held")
        #expect(poll.response.header("Content-Type") == "application/json")
        Thread.sleep(forTimeInterval: 0.2)
        #expect(!stream.isClosed)

        _ = try given.database.createArea(AreaInput(name: "Kisumu", areaType: "CITY", parentId: ""), by: .system("test"))
        let page = try #require(Self.answer(of: stream, within: 5))
        let changes = try #require(page["changes"] as? [[String: Any]])
        #expect(changes.count == 1)
        #expect((changes.first?["state"] as? [String: Any])?["entity"] as? String == "geographic_area")
        #expect((page["next_cursor"] as? Int).map(Int64.init) == cursor + 1)
    }

    @Test func everyNodeWaitingAtTheSameCursorIsAnsweredByOneCommit() throws {
        let given = try APIHarness()
        let token = try given.token(.administrator)
        let cursor = try given.database.latestChangeSequence()
        let streams = try (0..<3).map { _ in
            try #require(given.send(.get, "/api/v1/sync/changes?wait=20&after=\(cursor)&limit=5", token: token).response.stream)
        }

        _ = try given.database.createArea(AreaInput(name: "Mombasa", areaType: "CITY", parentId: ""), by: .system("test"))
        for stream in streams {
            let page = try #require(Self.answer(of: stream, within: 5))
            #expect((page["changes"] as? [Any])?.count == 1)
        }
    }

    @Test func aPollWithNothingNewEndsEmptyWhenItsWaitIsOver() throws {
        let given = try APIHarness()
        let token = try given.token(.administrator)
        let cursor = try given.database.latestChangeSequence()
        let started = Date()

        let poll = given.send(.get, "/api/v1/sync/changes?wait=1&after=\(cursor)", token: token)
        let stream = try #require(poll.response.stream)
        let page = try #require(Self.answer(of: stream, within: 5))
        #expect(Date().timeIntervalSince(started) >= 1)
        #expect((page["changes"] as? [Any])?.isEmpty == true)
        #expect((page["next_cursor"] as? Int).map(Int64.init) == cursor)
    }

    @Test func aPollBehindTheLogIsAnsweredAtOnceAndAWaitOverTheLimitIsRefused() throws {
        let given = try APIHarness()
        let token = try given.token(.administrator)
        _ = try given.database.createArea(AreaInput(name: "Nyeri", areaType: "CITY", parentId: ""), by: .system("test"))

        let behind = given.send(.get, "/api/v1/sync/changes?wait=20&after=0", token: token)
        #expect(behind.response.stream == nil && behind.status == 200)
        #expect(!(behind.json["changes"] as? [Any] ?? []).isEmpty)
        #expect(given.send(.get, "/api/v1/sync/changes?wait=26&after=0", token: token).status == 400)
    }

    /// The whole body of a streamed answer once it has ended, parsed as JSON; nil if it did not end in time.
    private static func answer(of stream: EventStream, within seconds: TimeInterval) -> [String: Any]? {
        let deadline = Date().addingTimeInterval(seconds)
        while !stream.isClosed, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        guard stream.isClosed, case .bytes(let bytes) = stream.next(maxBytes: 1 << 24, park: {}) else { return nil }
        return (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any]
    }
}
