import Domain
import Foundation
import HTTPServer
@testable import Storage
import TestSupport
import Testing

/// The map's GeoJSON is kept until the records change: these tests hold that a kept answer is never stale, whoever
/// wrote (this process, or another one on the same file, as `fieldbook` commands do), and that ETags say so.
@Suite struct MapAnswerCacheTests {
    let harness: APIHarness
    let token: String
    let area: GeographicArea

    init() throws {
        harness = try APIHarness()
        token = try harness.token(.readOnly)
        area = try harness.database.createArea(AreaInput(name: "City", areaType: "CITY", parentId: ""), by: .system("test"))
    }

    @discardableResult
    func addVenue(_ name: String, to database: AppDatabase? = nil) throws -> Venue {
        try (database ?? harness.database).createVenue(VenueInput(name: name, address: "1 Road", areaId: area.id.uuidString,
                                                                  latitude: "51.5", longitude: "-0.1"), by: .system("test"))
    }

    func names(_ answer: APIHarness.Answer) -> [String] {
        (answer.json["features"] as? [[String: Any]] ?? []).compactMap { ($0["properties"] as? [String: Any])?["name"] as? String }
    }

    @Test func anAnswerKeptForTheMapShowsAWriteFromAnotherConnectionAtOnce() throws {
        try addVenue("First")
        #expect(names(harness.send(.get, "/api/v1/map/venues", token: token)) == ["First"])
        // A second AppDatabase on the same file stands for another process: its commits never reach this one's feed.
        let other = try AppDatabase(path: harness.database.path, passwordCost: .test)
        try addVenue("Second", to: other)
        #expect(names(harness.send(.get, "/api/v1/map/venues", token: token)) == ["First", "Second"])
    }

    @Test func anUnchangedMapAnswers304ToItsETagAndAChangedOneAnswersAgain() throws {
        try addVenue("First")
        let first = harness.send(.get, "/api/v1/map/venues", token: token)
        let tag = try #require(first.response.header("ETag"))
        #expect(first.response.header("Cache-Control") == "private, no-cache")
        let again = harness.send(.get, "/api/v1/map/venues", token: token, headers: ["if-none-match": tag])
        #expect(again.status == 304)
        #expect(again.response.body.isEmpty)
        try addVenue("Second")
        let changed = harness.send(.get, "/api/v1/map/venues", token: token, headers: ["if-none-match": tag])
        #expect(changed.status == 200)
        #expect(changed.response.header("ETag") != tag)
        #expect(names(changed) == ["First", "Second"])
    }

    /// A visit list's map for a reader who may not see where people live leaves out the stops at their homes, and its
    /// ETag is not the one of the answer that shows them (a browser shared with an editor must not be told its copy is
    /// current). Every other map answer is the one everyone gets (issue 36).
    @Test func aListsMapLeavesOutHomesHiddenFromTheReaderUnderItsOwnETag() throws {
        let system = Actor.system("test")
        let (home, hall) = (try addVenue("Home of Someone"), try addVenue("Hall"))
        let person = try harness.database.createParticipant(ParticipantInput(name: "Someone", email: "someone@example.org",
                                                                             homeVenueId: home.id.uuidString), by: system)
        let organizer = try harness.createUser("organizer@example.org", .editor)
        let stops = [StopTarget(venueId: home.id, participantId: person.id), StopTarget(venueId: hall.id, participantId: nil)]
        let list = try harness.database.createVisitList(VisitListInput(name: "Doors", visitDate: "2025-06-01", assigneeId: organizer.id.uuidString,
                                                                       status: "PLANNED"), stops: .picked(stops.map(\.token)), by: system)
        let editor = try harness.token(.editor)
        let path = "/api/v1/map/venues?visit_list_id=\(list.id.uuidString.lowercased())"
        let seeing = harness.send(.get, path, token: editor)
        #expect(names(seeing) == ["Hall", "Home of Someone"])
        let tag = try #require(seeing.response.header("ETag"))
        let reading = harness.send(.get, path, token: token, headers: ["if-none-match": tag])
        #expect(reading.status == 200)
        #expect(names(reading) == ["Hall"])
        #expect(reading.response.header("ETag") != tag)

        let everyone = harness.send(.get, "/api/v1/map/venues", token: editor)
        let readersMap = harness.send(.get, "/api/v1/map/venues", token: token)
        #expect(readersMap.response.body == everyone.response.body)
        #expect(readersMap.response.header("ETag") == everyone.response.header("ETag"))
    }

    // 2,500 venues: enough for the answer to be written and compressed in parts.
    @Test func theKeptGzipAndPlainAnswersAreTheSameDocument() throws {
        let actor = Actor.system("test")
        try harness.database.transaction(by: actor) { records in
            for index in 0..<2_500 {
                _ = try records.create(Venue.self, try VenueInput(name: "Venue \(index)", address: "\(index) Road", areaId: area.id.uuidString,
                                                           latitude: "51.\(index)", longitude: "-0.\(index)").validated())
            }
        }
        let plain = harness.send(.get, "/api/v1/map/venues", token: token)
        for _ in 0..<2 {
            let zipped = harness.send(.get, "/api/v1/map/venues", token: token, headers: ["accept-encoding": "gzip"])
            #expect(zipped.response.header("Content-Encoding") == "gzip")
            #expect(try gunzip(zipped.response.body) == plain.response.body)
        }
        #expect(harness.send(.get, "/api/v1/map/venues", token: token).response.body == plain.response.body)
    }

    // Found by schemathesis: a small answer was kept uncompressed and then sent again labelled gzip.
    @Test func aSmallAnswerIsGzipEveryTimeItIsSentAsGzip() throws {
        try addVenue("Only")
        for _ in 0..<2 {
            let zipped = harness.send(.get, "/api/v1/map/venues", token: token, headers: ["accept-encoding": "gzip"])
            #expect(zipped.response.header("Content-Encoding") == "gzip")
            #expect(try String(decoding: gunzip(zipped.response.body), as: UTF8.self).contains("\"Only\""))
        }
    }

    @Test func filtersAreKeptApart() throws {
        try addVenue("Elsewhere")
        let other = try harness.database.createArea(AreaInput(name: "Town", areaType: "CITY", parentId: ""), by: .system("test"))
        try harness.database.createVenue(VenueInput(name: "In town", address: "2 Road", areaId: other.id.uuidString,
                                                    latitude: "52", longitude: "0"), by: .system("test"))
        #expect(names(harness.send(.get, "/api/v1/map/venues", token: token)) == ["Elsewhere", "In town"])
        #expect(names(harness.send(.get, "/api/v1/map/venues?area_id=\(other.id.uuidString)", token: token)) == ["In town"])
        #expect(names(harness.send(.get, "/api/v1/map/venues", token: token)) == ["Elsewhere", "In town"])
    }
}
