import Domain
import Foundation
import PropertyBased
@testable import Storage
import Testing

@Suite struct ParticipantStoreTests {
    let actor = Actor.system("test")
    static let first = ["Ann", "Bongani", "Chen", "Dana", "Émile", "Farah", "Goran", "Hana"]
    static let last = ["Wanjiru", "Okafor", "Li", "Schmidt", "Dubois", "Haddad", "Petrović", "Sato"]

    func people(_ picks: [Int]) throws -> (TestDatabase, [Participant], venue: Venue) {
        let given = try TestDatabase()
        let area = try given.database.createArea(AreaInput(name: "City", areaType: "CITY", parentId: ""), by: actor)
        let venue = try given.database.createVenue(VenueInput(name: "Hall", address: "1 Road", areaId: area.id.uuidString), by: actor)
        var created: [Participant] = []
        for (index, pick) in picks.enumerated() {
            let name = "\(Self.first[pick % 8]) \(Self.last[(pick / 8) % 8])"
            created.append(try given.database.createParticipant(ParticipantInput(
                name: name, email: "p\(index).\(Self.last[pick % 8].lowercased())@example.org",
                homeVenueId: pick % 3 == 0 ? venue.id.uuidString : ""), by: actor))
        }
        return (given, created, venue)
    }

    func all(_ database: AppDatabase, _ query: ParticipantQuery) throws -> [ParticipantListItem] {
        var query = query
        query.page = PageRequest(page: 1, perPage: 500)
        return try database.participants(query).items
    }

    // Feature: fieldbook, Property 1: Complete Data Retrieval
    @Test func property1_participantCompleteDataRetrieval() async throws {
        await propertyCheck(count: 10, input: Gen.int(in: 0...63).array(of: 0...120)) { picks in
            let (given, created, _) = try people(picks)
            var seen: [UUID] = []
            for page in 1...max(1, (created.count + 49) / 50) {
                let listed = try given.database.participants(ParticipantQuery(page: PageRequest(page: page)))
                #expect(listed.total == created.count)
                seen += listed.items.map(\.participant.id)
            }
            #expect(seen.count == created.count && Set(seen) == Set(created.map(\.id)))
        }
    }

    // Feature: fieldbook, Property 3: Search Result Accuracy
    @Test func property3_searchResultAccuracy() async throws {
        await propertyCheck(count: 20, input: Gen.int(in: 0...63).array(of: 1...40), Gen.element(of: ["ann", "LI", "é", "emile", "ÉMI", "okafor", "p1", "zz", "@example", "ć"])) { picks, picked in
            let text = try #require(picked)
            let (given, created, _) = try people(picks)
            let found = Set(try all(given.database, ParticipantQuery(text: text)).map(\.participant.id))
            let fold = { (text: String) in text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil) }
            let expected = Set(created.filter { fold($0.name).contains(fold(text)) || fold($0.email).contains(fold(text)) }.map(\.id))
            #expect(found == expected)
        }
    }

    // Feature: fieldbook, Property 3: Search Result Accuracy, for any part of a name or email typed in any case: three or
    // more characters go through the trigram index first, which must neither add nor lose a match.
    @Test func property3_searchResultAccuracyForAnyPartOfANameOrEmail() async throws {
        await propertyCheck(count: 25, input: Gen.int(in: 0...63).array(of: 1...30), Gen.int(in: 0...1000), Gen.int(in: 1...8)) { picks, start, length in
            let (given, created, _) = try people(picks)
            let source = Array((start % 2 == 0 ? created[start % created.count].name : created[start % created.count].email).uppercased())
            let from = start % max(1, source.count - 1)
            let text = String(source[from..<min(source.count, from + length)])
            let found = Set(try all(given.database, ParticipantQuery(text: text)).map(\.participant.id))
            let fold = { (text: String) in text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil) }
            let needle = fold(text.trimmingCharacters(in: .whitespaces))
            let expected = Set(created.filter { needle.isEmpty || fold($0.name).contains(needle) || fold($0.email).contains(needle) }.map(\.id))
            #expect(found == expected, "\(text)")
        }
    }

    // Feature: fieldbook, Property 3: Search Result Accuracy, page by page. A page of a common match is read by walking
    // the sort's index and testing each entry against a set of the matches (`ListQuery.readsInSortOrder`, `RowIdSet`),
    // a page of a rare one by reading the matches and sorting them, and when the matches' rowids span too widely for a
    // set, by walking with `rowid IN`: every way must give the same rows in the same order, and the same total.
    @Test func property3_aSearchPagedSmallListsWhatOnePageOfAllLists() async throws {
        // Surnames are a quarter of the matches with their emails; "example" is in every email, "ann" in an eighth,
        // "p7." in one.
        await propertyCheck(count: 12, input: Gen.int(in: 0...63).array(of: 40...90), Gen.element(of: ["sato", "okafor", "dubois", "example", "ann", "p7."]),
                            Gen.int(in: 0...5), Gen.bool) { picks, text, order, farRowId in
            let (given, _, _) = try people(picks)
            if farRowId {
                // One participant's rowid beyond the widest span a set covers, its search index rebuilt to follow.
                try given.database.pool.write { db in
                    try db.execute(sql: "UPDATE participants SET rowid = rowid + ? WHERE rowid = (SELECT max(rowid) FROM participants)",
                                   arguments: [RowIdSet.widestSpan + 1])
                    try db.execute(sql: "INSERT INTO participants_fts(participants_fts) VALUES ('rebuild')")
                }
            }
            var query = ParticipantQuery(text: text ?? "sato")
            (query.sort, query.descending) = (ParticipantQuery.Sort.allCases[order % 3], order >= 3)
            let everything = try given.database.participants({ var q = query; q.page = PageRequest(page: 1, perPage: 500); return q }())
            var paged: [UUID] = []
            for page in 1...max(1, everything.total) {
                query.page = PageRequest(page: page, perPage: 1)
                let listed = try given.database.participantRows(query)
                #expect(listed.total == everything.total)
                paged += listed.items.map(\.id)
            }
            #expect(paged == everything.items.map(\.participant.id), "\(query) far rowid \(farRowId)")
        }
    }

    // Feature: fieldbook, Property 4: Filter Correctness
    @Test func property4_participantFilterCorrectness() async throws {
        await propertyCheck(count: 15, input: Gen.int(in: 0...63).array(of: 1...40)) { picks in
            let (given, created, venue) = try people(picks)
            let withHome = Set(try all(given.database, ParticipantQuery(home: .withHome)).map(\.participant.id))
            let withoutHome = Set(try all(given.database, ParticipantQuery(home: .withoutHome)).map(\.participant.id))
            #expect(withHome == Set(created.filter { $0.homeVenueId == venue.id }.map(\.id)))
            #expect(withoutHome == Set(created.filter { $0.homeVenueId == nil }.map(\.id)))
            #expect(Set(try all(given.database, ParticipantQuery(areaId: venue.areaId)).map(\.participant.id)) == withHome)
        }
    }

    // Feature: fieldbook, Property 5: Sort Order Preservation
    @Test func property5_participantSortOrderPreservation() async throws {
        await propertyCheck(count: 15, input: Gen.int(in: 0...63).array(of: 2...40), Gen.bool) { picks, descending in
            let (given, _, _) = try people(picks)
            let names = try all(given.database, ParticipantQuery(sort: .name, descending: descending)).map { $0.participant.name.lowercased() }
            #expect(names == (descending ? names.sorted(by: >) : names.sorted()))
            let emails = try all(given.database, ParticipantQuery(sort: .email, descending: descending)).map(\.participant.email)
            #expect(emails == (descending ? emails.sorted(by: >) : emails.sorted()))
        }
    }

    /// The list page's lean rows are the same page as the API's full records, for any filter and sort.
    @Test func theListPagesRowsAreThePageOfFullRecords() async throws {
        await propertyCheck(count: 15, input: Gen.int(in: 0...63).array(of: 1...40), Gen.bool) { picks, descending in
            let (given, _, venue) = try people(picks)
            let queries = [ParticipantQuery(sort: .name, descending: descending), ParticipantQuery(sort: .email, descending: descending),
                           ParticipantQuery(text: "an"), ParticipantQuery(home: .withHome), ParticipantQuery(areaId: venue.areaId),
                           ParticipantQuery(sort: .created, descending: descending, page: PageRequest(page: 2, perPage: 7))]
            for query in queries {
                let full = try given.database.participants(query)
                let lean = try given.database.participantRows(query)
                #expect(lean.total == full.total)
                #expect(lean.items == full.items.map {
                    ParticipantListRow(id: $0.participant.id, name: $0.participant.name, email: $0.participant.email,
                                       phone: $0.participant.phone, homeVenueName: $0.homeVenueName)
                })
            }
        }
    }

    // Feature: fieldbook, Property 6: Input Validation Rejection
    @Test func property6_participantInputValidationRejection() async {
        await propertyCheck(count: 200, input: Gen.int(in: 0...120), Gen.int(in: 0...5), Gen.int(in: 0...600)) { nameLength, emailPick, notesLength in
            let emails = ["a@b.org", "", "no-at-sign", "x@y", "two@@example.org", "ok.name+tag@example.co.uk"]
            let input = ParticipantInput(name: String(repeating: "n", count: nameLength), email: emails[emailPick],
                                         notes: String(repeating: "x", count: notesLength))
            let valid = (1...100).contains(nameLength) && [0, 5].contains(emailPick) && notesLength <= 500
            #expect(((try? input.validated()) != nil) == valid)
        }
        #expect(throws: ValidationError.self) { try ParticipantInput(name: "A", email: "a@b.org", phone: "call me").validated() }
        #expect((try? ParticipantInput(name: "A", email: "a@b.org", phone: "+254 (712) 345-678").validated()) != nil)
    }

    // Feature: fieldbook, Property 37: Participant Address History Display
    @Test func property37_participantAddressHistoryDisplay() async throws {
        await propertyCheck(count: 15, input: Gen.int(in: 0...2).array(of: 1...8)) { moves in
            let (given, _, _) = try people([])
            let area = try given.database.createArea(AreaInput(name: "Town", areaType: "CITY", parentId: ""), by: actor)
            let venues = try (0..<3).map { try given.database.createVenue(VenueInput(name: "V\($0)", address: "\($0) Lane", areaId: area.id.uuidString), by: actor) }
            var participant = try given.database.createParticipant(ParticipantInput(name: "Ann", email: "ann@example.org"), by: actor)
            var expectedPeriods = 0
            for (step, pick) in moves.enumerated() {
                let date = String(format: "2024-%02d-01", step + 1)
                let changes = participant.homeVenueId != venues[pick].id
                participant = try given.database.updateParticipant(id: participant.id, ParticipantInput(
                    name: "Ann", email: "ann@example.org", homeVenueId: venues[pick].id.uuidString, movedOn: date), expectedVersion: nil, by: actor)
                if changes { expectedPeriods += 1 }
            }
            let history = try given.database.addressHistory(of: participant.id)
            #expect(history.count == expectedPeriods)
            #expect(history.map(\.effectiveFrom) == history.map(\.effectiveFrom).sorted(by: >), "newest first")
            #expect(history.filter { $0.effectiveTo == nil }.count == 1)
            #expect(history.first?.venueId == participant.homeVenueId)
            for (newer, older) in zip(history, history.dropFirst()) { #expect(older.effectiveTo == newer.effectiveFrom) }
        }
    }

    // Issue 16: a back-dated move once left the old period "today – today" and opened the new one before it, so the two
    // overlapped. Over random moves (back-dated, same-day, later, and removing the home), the stored periods must be
    // exactly the timeline the moves state, each taking effect from its date onwards: no overlap, no gap not asked for,
    // one open period while there is a home.
    @Test func addressPeriodsFollowEveryMoveIncludingBackDatedOnes() async throws {
        await propertyCheck(count: 25, input: Gen.int(in: 0...3).array(of: 1...7), Gen.int(in: 0...40).array(of: 7...7)) { venuePicks, dayPicks in
            let (given, _, _) = try people([])
            let area = try given.database.createArea(AreaInput(name: "Town", areaType: "CITY", parentId: ""), by: actor)
            let venues = try (0..<3).map { try given.database.createVenue(VenueInput(name: "V\($0)", address: "\($0) Lane", areaId: area.id.uuidString), by: actor) }
            var participant = try given.database.createParticipant(ParticipantInput(name: "Ann", email: "ann@example.org"), by: actor)
            // What the moves say, from each move's day onwards: day number → venue index (nil: no home).
            var timeline: [(day: Int, venue: Int?)] = []
            for (step, pick) in venuePicks.enumerated() {
                let day = dayPicks[step], venue: Int? = pick == 3 ? nil : pick
                let date = Self.day(day)
                let changes = participant.homeVenueId != venue.map { venues[$0].id }
                participant = try given.database.updateParticipant(id: participant.id, ParticipantInput(
                    name: "Ann", email: "ann@example.org", homeVenueId: venue.map { venues[$0].id.uuidString } ?? "", movedOn: date.description),
                    expectedVersion: nil, by: actor)
                if changes { timeline = timeline.filter { $0.day < day } + [(day, venue)] }
                let stored = try given.database.addressHistory(of: participant.id).reversed().map { period in
                    (venue: venues.firstIndex { $0.id == period.venueId }, from: period.effectiveFrom, to: period.effectiveTo)
                }
                // The timeline as periods: each stretch with a home, ending where the next move begins.
                var expected: [(venue: Int?, from: CalendarDate, to: CalendarDate?)] = []
                for (index, entry) in timeline.enumerated() where entry.venue != nil {
                    let next = timeline.dropFirst(index + 1).first
                    let end = next.map { Self.day($0.day) }
                    if let last = expected.last, last.venue == entry.venue, last.to == Self.day(entry.day) {
                        expected[expected.count - 1].to = end  // back to the same venue: one stretch
                        continue
                    }
                    expected.append((entry.venue, Self.day(entry.day), end))
                }
                #expect(stored.map { "\($0.venue ?? -1) \($0.from) \($0.to?.description ?? "open")" }
                        == expected.map { "\($0.venue ?? -1) \($0.from) \($0.to?.description ?? "open")" },
                        "after moves \(Array(zip(venuePicks, dayPicks).prefix(step + 1)))")
                #expect(stored.filter { $0.to == nil }.count == (participant.homeVenueId == nil ? 0 : 1))
            }
        }
    }

    static func day(_ number: Int) -> CalendarDate {
        CalendarDate(String(format: "2026-%02d-%02d", number / 28 + 1, number % 28 + 1))!
    }

    @Test func aMoveRecordsTheParticipantAndBothHistoryChanges() throws {
        let (given, _, venue) = try people([])
        let area = try given.database.area(id: venue.areaId)
        let other = try given.database.createVenue(VenueInput(name: "Other", address: "9 Road", areaId: area.id.uuidString), by: actor)
        // Moved in earlier: moving out today ends that period. (A move on the day a period began replaces it.)
        let ann = try given.database.createParticipant(ParticipantInput(name: "Ann", email: "ann@example.org", homeVenueId: venue.id.uuidString,
                                                                        movedOn: "2025-01-01"), by: actor)
        let before = try given.outboxCount()
        try given.database.updateParticipant(id: ann.id, ParticipantInput(name: "Ann", email: "ann@example.org", homeVenueId: other.id.uuidString),
                                             expectedVersion: 1, by: actor)
        let entries = try given.database.outboxEntries().dropFirst(before)
        #expect(entries.map(\.change.entity) == ["participant", "participant_address", "participant_address"])
        #expect(entries.map(\.change.operation) == [.update, .update, .create])
    }
}

/// Participants who may be the same person (issue 14's duplicate detection), against the real storage.
@Suite struct PossibleDuplicateTests {
    @Test func theSameEmailThenTheSameNameThenCloseNamesAreFoundAndNothingElse() throws {
        let given = try TestDatabase()
        let actor = Actor.system("test")
        let emile = try given.database.createParticipant(ParticipantInput(name: "Émile Dubois", email: "emile@example.org"), by: actor)
        let namesake = try given.database.createParticipant(ParticipantInput(name: "EMILE dubois", email: "other@example.org"), by: actor)
        let doubleBarrelled = try given.database.createParticipant(ParticipantInput(name: "Émile Dubois-Martin", email: "dm@example.org"), by: actor)
        let emil = try given.database.createParticipant(ParticipantInput(name: "Emil Dubois", email: "emil@example.org"), by: actor)
        _ = try given.database.createParticipant(ParticipantInput(name: "Emma Duval", email: "emma@example.org"), by: actor)
        let found = try given.database.possibleDuplicates(of: ParticipantInput(name: "emile dubois", email: "Emile@Example.org"))
        #expect(found.map(\.id) == [emile.id, namesake.id, emil.id, doubleBarrelled.id], "the closest name first; Emma Duval is not close")
        #expect(found.map(\.reason) == [.sameEmail, .sameName, .similarName, .similarName])
        #expect(try given.database.possibleDuplicates(of: ParticipantInput(name: "Émile Dubois", email: "x@example.org"), excluding: emile.id)
            .map(\.id) == [namesake.id, emil.id, doubleBarrelled.id])
        // A slip after the first three letters of each word is still found; "Jo Li" has no word the index can narrow.
        #expect(try given.database.possibleDuplicates(of: ParticipantInput(name: "Emile Duboys", email: "")).map(\.id).contains(emile.id))
        #expect(try given.database.possibleDuplicates(of: ParticipantInput(name: "Jo Li", email: "")).isEmpty)
        #expect(try given.database.possibleDuplicates(of: ParticipantInput(name: "Nobody", email: "nobody@example.org")).isEmpty)
    }
}
