import Domain
import Foundation
import GRDB
import PropertyBased
@testable import Storage
import Testing

/// Deep pages read from a kept row's sort key (`PageAnchors`, `KeysetOrder`) must be the pages an OFFSET reads.
@Suite struct PageAnchorsTests {
    let actor = Actor.system("test")

    /// People whose names repeat, some in another case, so rows tie on the sort column and the id decides.
    func people(_ picks: [Int]) throws -> TestDatabase {
        let given = try TestDatabase()
        for (index, pick) in picks.enumerated() {
            let name = "\(ParticipantStoreTests.first[pick % 8]) \(ParticipantStoreTests.last[(pick / 8) % 8])"
            try given.database.createParticipant(ParticipantInput(
                name: pick % 5 == 0 ? name.lowercased() : name, email: "p\(index)@example.org", phone: pick % 4 == 0 ? "+254 712 345 \(100 + pick)" : ""),
                                                 by: actor)
        }
        return given
    }

    /// One page's ids, read with `anchors` (which start from the first row after one row in these tests).
    func page(_ database: AppDatabase, _ query: ParticipantQuery, anchors: PageAnchors) throws -> [UUID] {
        let (list, order) = AppDatabase.participantList(query)
        return try database.read { db in
            try list.page(db, order: order, select: "p.id", request: query.page, anchors: anchors) { $0.uuid(at: 0) }.items
        }
    }

    func everyId(_ database: AppDatabase, _ query: ParticipantQuery) throws -> [UUID] {
        var query = query
        query.page = PageRequest(page: 1, perPage: 500)
        return try database.participantRows(query).items.map(\.id)
    }

    // Feature: fieldbook, Property 5: Sort Order Preservation, page by page: pages read in any order, again and again,
    // from the rows kept at the pages read before, list what one read of the whole list lists at their place; and after
    // a write moves every row, the rows kept before it are not used.
    @Test func property5_aPageReadFromAKeptRowIsThePageAnOffsetReads() async throws {
        await propertyCheck(count: 15, input: Gen.int(in: 0...63).array(of: 12...60), Gen.int(in: 0...7), Gen.int(in: 0...1000).array(of: 8...16)) { picks, shape, visits in
            let given = try people(picks)
            var query = ParticipantQuery(text: shape == 7 ? "an" : "")
            (query.sort, query.descending) = (ParticipantQuery.Sort.allCases[shape % 3], shape % 2 == 1)
            let anchors = PageAnchors(shallowestOffset: 1)
            let perPage = 1 + shape % 4
            var expected = try everyId(given.database, query)
            for (step, visit) in visits.enumerated() {
                if step == visits.count / 2 {
                    // Sorts first by name and by date added descending; by email, among the rows; the total grows by one.
                    try given.database.createParticipant(ParticipantInput(name: "aaron Abbot", email: "p30b@example.org"), by: actor)
                    expected = try everyId(given.database, query)
                }
                let number = 1 + visit % max(1, (expected.count + perPage - 1) / perPage)
                query.page = PageRequest(page: number, perPage: perPage)
                let start = min(expected.count, (number - 1) * perPage)
                #expect(try page(given.database, query, anchors: anchors) == Array(expected[start..<min(expected.count, start + perPage)]),
                        "page \(number) of \(perPage), step \(step), \(query.sort) \(query.descending ? "desc" : "asc")")
            }
        }
    }

    /// A kept row is where a deep page starts: a row planted ten places off moves the page by ten. (Without this, the
    /// test above would pass with anchors never used.)
    @Test func aDeepPageStartsFromTheKeptRowNearestBeforeIt() throws {
        let given = try people(Array(0..<40))
        let anchors = PageAnchors(shallowestOffset: 1)
        let query = ParticipantQuery(sort: .name, page: PageRequest(page: 3, perPage: 5))
        let all = try everyId(given.database, query)
        let (list, order) = AppDatabase.participantList(query)
        let read = try #require(try given.database.read { db in try list.anchoredRead(db, order: order, request: query.page, anchors: anchors) })
        let key = try given.database.read { db in
            try Row.fetchOne(db, sql: "SELECT name, id FROM participants WHERE id = ?", arguments: [all[20].databaseText])!
        }
        anchors.keep([PageAnchors.Anchor(offset: 10, key: [key[0], key[1]])], in: read.list, at: read.version)
        #expect(try page(given.database, query, anchors: anchors) == Array(all[20..<25]))
        // Any write moves the records' version: the planted row is no longer used.
        try given.database.createParticipant(ParticipantInput(name: "Zed Last", email: "zed@example.org"), by: actor)
        #expect(try page(given.database, query, anchors: anchors) == Array(all[10..<15]))
    }

    /// A search index is rebuilt after an interrupted first sync without any records version moving, so a list that
    /// reads one never starts from a kept row; a search too short for the index (a LIKE) may.
    @Test func aListSearchingTheTrigramIndexIsNotReadFromKeptRows() throws {
        let given = try TestDatabase()
        let request = PageRequest(page: 30, perPage: 50)
        for (text, anchored) in [("son", false), ("so", true), ("", true)] {
            let (list, order) = AppDatabase.participantList(ParticipantQuery(text: text, page: request))
            let read = try given.database.read { db in try list.anchoredRead(db, order: order, request: request, anchors: PageAnchors()) }
            #expect((read != nil) == anchored, "\(text)")
        }
    }

    @Test func onlyAnOrderOfRequiredColumnsOfTheListedTableInOneDirectionIsAKey() {
        let required: Set = ["id", "name", "email", "created_at"]
        let name = KeysetOrder("p.name COLLATE NOCASE ASC, p.id ASC", alias: "p", required: required)
        #expect(name?.fromAnchor == "(p.name, p.id) >= (? COLLATE NOCASE, ?)")
        #expect(name?.selected == ", p.name AS page_anchor_0, p.id AS page_anchor_1")
        #expect(KeysetOrder("p.created_at DESC, p.id DESC", alias: "p", required: required)?.fromAnchor == "(p.created_at, p.id) <= (?, ?)")
        #expect(KeysetOrder("v.name COLLATE NOCASE, v.id", alias: "v", required: required)?.descending == false)
        // A joined table's column, two directions, a column that may hold NULL, an expression, a key that is not unique.
        #expect(KeysetOrder("p.created_at DESC", alias: "p", required: required) == nil)
        #expect(KeysetOrder("p.name, p.id COLLATE NOCASE", alias: "p", required: required) == nil)
        #expect(KeysetOrder("t.name COLLATE NOCASE ASC, a.id", alias: "a", required: required) == nil)
        #expect(KeysetOrder("p.name ASC, p.id DESC", alias: "p", required: required) == nil)
        #expect(KeysetOrder("p.phone ASC, p.id ASC", alias: "p", required: required) == nil)
        #expect(KeysetOrder("lower(p.name) ASC, p.id ASC", alias: "p", required: required) == nil)
    }

    @Test func theRequiredColumnsAreTheNotNullOnes() throws {
        let given = try TestDatabase()
        let required = try given.database.read { db in try PageAnchors().requiredColumns(db, table: "participants") }
        #expect(required.isSuperset(of: ["id", "name", "email", "created_at"]))
        #expect(!required.contains("phone") && !required.contains("home_venue_id"))
    }
}
