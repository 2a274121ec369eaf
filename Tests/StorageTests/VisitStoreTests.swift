import Domain
import Foundation
import GRDB
import PropertyBased
import Testing
@testable import Storage

/// Field visits (issue 12): lists built from filters, logging rights, and append-only logs through sync.
@Suite struct VisitStoreTests {
    let actor = Actor.system("test")

    private func organizer(_ database: AppDatabase, _ email: String = "org@example.org", role: UserRole = .editor) throws -> User {
        try database.createUser(NewUserInput(name: "Organizer \(email)", email: email, role: role.rawValue, password: "correct horse 1",
                                             passwordConfirmation: "correct horse 1"), by: actor)
    }

    private func listInput(_ user: User, day: String = "2025-06-01") -> VisitListInput {
        VisitListInput(name: "Round \(day)", visitDate: day, assigneeId: user.id.uuidString, status: "PLANNED")
    }

    // Feature: field visits, Property: a list built from a filter holds exactly the matching stops.
    @Test func aListBuiltFromAFilterHoldsExactlyTheMatchingStops() async throws {
        await propertyCheck(count: 12, input: Gen.int(in: 0...1000).array(of: 40), Gen.int(in: 0...1000).array(of: 6)) { picks, choice in
            let given = try TestDatabase()
            let database = given.database
            _ = try database.importDemoCommunity(size: DemoCommunity.Size(venues: 10, participants: 30, activities: 5), seed: UInt64(choice[0]))
            let user = try organizer(database)
            let world = try World(database)
            // Earlier rounds with logs at known times, some of them "follow-up needed".
            let base = CalendarDate("2025-06-01")!.startOfDay
            for round in 0..<3 {
                let targets = (0..<6).map { world.targets[picks[round * 6 + $0] % world.targets.count] }
                let list = try database.createVisitList(listInput(user, day: "2025-05-2\(round)"), stops: .picked(targets.map(\.token)), by: actor)
                for (index, line) in try database.visitSheet(id: list.id, seen: .everything).stops.enumerated() {
                    let result = ContactResult.allCases[picks[18 + round * 6 + index % 6] % ContactResult.allCases.count]
                    let time = base.addingTimeInterval(Double((round * 6 + index) * 97 - 900) * 3600)
                    try database.logContact(ContactLogInput(result: result.rawValue, note: result == .other ? "see" : ""), atStop: line.stop.id,
                                            onList: list.id, by: user, at: time)
                }
            }
            let filter = StopFilter(source: choice[1] % 3 == 0 ? .venues : .participants,
                                    areaId: choice[2] % 3 == 0 ? nil : world.areaIds[choice[2] % world.areaIds.count],
                                    venueType: choice[3] % 3 == 0 ? nil : VenueType.allCases[choice[3] % 2],
                                    activityId: choice[1] % 3 != 0 && choice[4] % 2 == 0 ? world.activityIds[choice[4] % world.activityIds.count] : nil,
                                    notVisitedSince: choice[5] % 3 == 0 ? nil : CalendarDate("2025-0\(5 + choice[5] % 2)-1\(choice[5] % 9)"),
                                    followUpOnly: choice[4] % 4 == 1)
            let list = try database.createVisitList(listInput(user, day: "2025-07-01"),
                                                    stops: .filter(StopFilterInput(filter)), by: actor)

            let held = try database.visitSheet(id: list.id, seen: .everything).stops.map(\.stop.target)
            let expected = try world.matching(filter, logs: database)
            #expect(Set(held) == expected, "filter \(filter)")
            #expect(held.count == expected.count, "no stop twice")

            // The lists' and the organizer's progress, summed in SQL, agree with the stops and logs as read one by one.
            let summaries = try database.visitLists().items
            var overall = VisitProgress()
            for summary in summaries {
                let sheet = try database.visitSheet(id: summary.list.id, seen: .everything)
                #expect(summary.progress == sheet.progress)
                for line in sheet.stops { overall.add(stops: 1, visited: line.isVisited ? 1 : 0, logs: line.logs.count, last: line.lastResult) }
            }
            #expect(try database.organizerProgress().map(\.progress) == [overall])
        }
    }

    // Feature: field visits, Property: logs are never lost or merged away when two nodes log the same stop.
    @Test func logsAreNeverLostOrMergedAwayWhenTwoNodesLogTheSameStop() async throws {
        await propertyCheck(count: 15, input: Gen.int(in: 0...6).array(of: 1...12), Gen.int(in: 0...3).array(of: 12)) { results, steps in
            let hub = try TestDatabase(linked: false), nodeA = try TestDatabase(), nodeB = try TestDatabase()
            let area = try hub.database.createArea(AreaInput(name: "Kibera", areaType: "NEIGHBOURHOOD", parentId: ""), by: actor)
            let venue = try hub.database.createVenue(VenueInput(name: "Hall", address: "1 Road", areaId: area.id.uuidString), by: actor)
            let editor = try organizer(hub.database)
            let admin = try organizer(hub.database, "admin@example.org", role: .administrator)
            let list = try hub.database.createVisitList(listInput(editor), stops: .picked([StopTarget(venueId: venue.id, participantId: nil).token]),
                                                        by: actor)
            let stop = try #require(try hub.database.visitSheet(id: list.id, seen: .everything).stops.first).stop
            for node in [nodeA, nodeB] { try SyncExchange.pull(node.database, from: hub.database) }

            var made: [UUID: ContactResult] = [:]
            for (index, raw) in results.enumerated() {
                let (node, who) = index % 2 == 0 ? (nodeA, editor) : (nodeB, admin)
                let result = ContactResult.allCases[raw]
                let log = try node.database.logContact(ContactLogInput(result: result.rawValue, note: "visit \(index)"), atStop: stop.id,
                                                       onList: list.id, by: who)
                made[log.id] = result
                switch steps[index] {
                case 0: try SyncExchange.sync(node.database, with: hub.database)
                case 1: try SyncExchange.push(node.database, to: hub.database)
                default: break  // offline for now
                }
            }
            for _ in 0..<2 { for node in [nodeA, nodeB] { try SyncExchange.sync(node.database, with: hub.database) } }

            for database in [hub.database, nodeA.database, nodeB.database] {
                let logs = try #require(try database.visitSheet(id: list.id, seen: .everything).stops.first).logs
                #expect(logs.count == made.count, "every log kept once")
                #expect(Dictionary(uniqueKeysWithValues: logs.map { ($0.id, $0.result) }) == made)
                // The trigger-kept counts follow logs written locally and pulled from the hub alike.
                #expect(try database.visitLists().items.map(\.progress) == [try database.visitSheet(id: list.id, seen: .everything).progress])
            }
            #expect(try hub.database.conflicts().isEmpty && nodeA.database.conflicts().isEmpty && nodeB.database.conflicts().isEmpty)
            #expect(try nodeA.database.pendingOperationCount() == 0 && nodeB.database.pendingOperationCount() == 0)
            try #expect(SyncExchange.snapshot(nodeA.database) == SyncExchange.snapshot(hub.database))
            try #expect(SyncExchange.snapshot(nodeB.database) == SyncExchange.snapshot(hub.database))
        }
    }

    // The list shown on the map: the map's venues are exactly those of the list's stops that have coordinates. For a
    // viewer who may not see where people live, only those of its venue stops: the list names no one's home to them.
    @Test func theMapOfAListShowsExactlyTheVenuesOfItsStops() async throws {
        await propertyCheck(count: 8, input: Gen.int(in: 0...1000).array(of: 8)) { picks in
            let given = try TestDatabase()
            let database = given.database
            _ = try database.importDemoCommunity(size: DemoCommunity.Size(venues: 12, participants: 30, activities: 6), seed: UInt64(picks[0]))
            let world = try World(database)
            let user = try organizer(database)
            let targets = Array(Set(picks.map { world.targets[$0 % world.targets.count] }))
            let list = try database.createVisitList(listInput(user), stops: .picked(targets.map(\.token)), by: actor)
            _ = try database.createVisitList(listInput(user, day: "2025-06-02"), stops: .picked(world.targets.map(\.token)), by: actor)

            let shown = try database.mapVenues(MapQuery(visitListId: list.id)).map(\.id)
            let mapped = try Set(database.read { db in
                try String.fetchAll(db, sql: "SELECT id FROM venues WHERE latitude IS NOT NULL AND longitude IS NOT NULL")
            })
            let expected = Set(targets.map { $0.venueId.uuidString.lowercased() }).intersection(mapped)
            #expect(Set(shown) == expected)
            #expect(shown.count == expected.count, "no venue twice")
            #expect(try database.mapVenues(MapQuery(visitListId: list.id).seen(homes: true)).map(\.id) == shown)

            let shownWithoutHomes = try database.mapVenues(MapQuery(visitListId: list.id).seen(homes: false)).map(\.id)
            let venueStops = Set(targets.filter { $0.participantId == nil }.map { $0.venueId.uuidString.lowercased() }).intersection(mapped)
            #expect(Set(shownWithoutHomes) == venueStops)
        }
    }

    @Test func theHubRefusesToChangeOrDeleteALog() throws {
        let hub = try TestDatabase(linked: false)
        let area = try hub.database.createArea(AreaInput(name: "Kibera", areaType: "NEIGHBOURHOOD", parentId: ""), by: actor)
        let venue = try hub.database.createVenue(VenueInput(name: "Hall", address: "1 Road", areaId: area.id.uuidString), by: actor)
        let editor = try organizer(hub.database)
        let list = try hub.database.createVisitList(listInput(editor), stops: .picked([StopTarget(venueId: venue.id, participantId: nil).token]), by: actor)
        let stop = try #require(try hub.database.visitSheet(id: list.id, seen: .everything).stops.first).stop
        let log = try hub.database.logContact(ContactLogInput(result: "MET"), atStop: stop.id, onList: list.id, by: editor)
        let operations = [ChangeOperation.update, .delete].map { operation in
            SyncOperation(operationId: UUID(), operation: operation, entity: "contact_log", entityId: log.id,
                          fields: operation == .update ? ["result": .string("REFUSED")] : [:], before: ["result": .string("MET")],
                          baseVersion: 1, author: editor.id.uuidString.lowercased(), createdAt: Date())
        }
        let response = try hub.database.applyPush(PushRequest(nodeId: UUID(), operations: operations))
        #expect(response.results.map(\.outcome) == [.rejected, .rejected])
        #expect(try hub.database.visitSheet(id: list.id, seen: .everything).stops.first?.logs.map(\.result) == [.met])
    }

    @Test func onlyTheListsOrganizerOrAnAdministratorLogsAndTheFirstLogStartsTheList() throws {
        let given = try TestDatabase()
        let area = try given.database.createArea(AreaInput(name: "Kibera", areaType: "NEIGHBOURHOOD", parentId: ""), by: actor)
        let venue = try given.database.createVenue(VenueInput(name: "Hall", address: "1 Road", areaId: area.id.uuidString), by: actor)
        let editor = try organizer(given.database), other = try organizer(given.database, "other@example.org")
        let admin = try organizer(given.database, "admin@example.org", role: .administrator)
        let reader = try organizer(given.database, "reader@example.org", role: .readOnly)
        #expect(throws: ValidationError.self) { try given.database.createVisitList(listInput(reader), stops: .picked([]), by: actor) }
        let list = try given.database.createVisitList(listInput(editor), stops: .picked([StopTarget(venueId: venue.id, participantId: nil).token]), by: actor)
        let stop = try #require(try given.database.visitSheet(id: list.id, seen: .everything).stops.first).stop
        for refused in [other, reader] {
            #expect(throws: DomainError.self) { try given.database.logContact(ContactLogInput(result: "MET"), atStop: stop.id, onList: list.id, by: refused) }
        }
        try given.database.logContact(ContactLogInput(result: "NOT_HOME"), atStop: stop.id, onList: list.id, by: editor)
        try given.database.logContact(ContactLogInput(result: "FOLLOW_UP"), atStop: stop.id, onList: list.id, by: admin)
        let sheet = try given.database.visitSheet(id: list.id, seen: .everything)
        #expect(sheet.list.status == .inProgress)
        #expect(sheet.progress.visited == 1 && sheet.progress.logs == 2 && sheet.progress.byResult == [.followUp: 1])
        let refusal = "“\(list.name)” cannot be deleted: 2 visits were logged on it, and logs are kept. Mark it Done instead."
        #expect(throws: DomainError.stillReferenced(message: refusal, references: [])) { try given.database.deleteVisitList(id: list.id, by: actor) }

        let later = try given.database.createVisitList(listInput(editor, day: "2025-06-08"), stops: .picked([]), by: actor)
        try given.database.followUp(stop: stop.id, onList: list.id, onto: later.id, by: actor)
        #expect(try given.database.visitSheet(id: later.id, seen: .everything).stops.map(\.stop.followUpOf) == [stop.id])
        #expect(try given.database.organizerProgress().map(\.progress.total) == [2])
        try given.database.deleteVisitList(id: later.id, by: actor)
        #expect(try given.database.organizerProgress().map(\.progress) == [sheet.progress], "a deleted list's stops no longer count")
        #expect(throws: ValidationError.self) { try given.database.followUp(stop: stop.id, onList: list.id, onto: list.id, by: actor) }
    }

    /// Visits kept on a phone are sent hours later: each is logged at the time the phone gave, so the stop's latest
    /// visit is the one made last, whatever order they arrive in; a time in the future (either clock is wrong) is set aside
    /// and the visit logged at receipt, as sending it again could never change it.
    @Test func aVisitKeptOnAPhoneIsLoggedAtTheTimeThePhoneGave() throws {
        let given = try TestDatabase()
        let area = try given.database.createArea(AreaInput(name: "Kibera", areaType: "NEIGHBOURHOOD", parentId: ""), by: actor)
        let venue = try given.database.createVenue(VenueInput(name: "Hall", address: "1 Road", areaId: area.id.uuidString), by: actor)
        let editor = try organizer(given.database)
        let list = try given.database.createVisitList(listInput(editor), stops: .picked([StopTarget(venueId: venue.id, participantId: nil).token]), by: actor)
        let stop = try #require(try given.database.visitSheet(id: list.id, seen: .everything).stops.first).stop
        let now = Date()
        let (earlier, later) = (now.addingTimeInterval(-3 * 3600), now.addingTimeInterval(-2 * 3600))
        try given.database.logContact(ContactLogInput(result: "FOLLOW_UP", loggedAt: later.ISO8601Format()), atStop: stop.id, onList: list.id,
                                      by: editor, at: now)
        try given.database.logContact(ContactLogInput(result: "NOT_HOME", loggedAt: earlier.ISO8601Format()), atStop: stop.id, onList: list.id,
                                      by: editor, at: now)
        let logs = try given.database.visitSheet(id: list.id, seen: .everything).stops[0].logs
        #expect(logs.map(\.result) == [.notHome, .followUp] && logs.map { $0.loggedAt.timeIntervalSince1970.rounded() }
                    == [earlier, later].map { $0.timeIntervalSince1970.rounded(.down) })
        let future = ContactLogInput(result: "MET", loggedAt: now.addingTimeInterval(3600).ISO8601Format())
        #expect(try given.database.logContact(future, atStop: stop.id, onList: list.id, by: editor, at: now).loggedAt == now)
        #expect(try given.database.visitSheet(id: list.id, seen: .everything).progress.logs == 3)
    }

    /// Once a list's walk has started, its stops stay: a visit kept on the organizer's phone for a stop showing no logs
    /// on the server still lands. Before the walk, a stop nothing was logged at is removed.
    @Test func aStopStaysOnceTheWalkStartedSoAVisitKeptOnAPhoneLands() throws {
        let given = try TestDatabase()
        let area = try given.database.createArea(AreaInput(name: "Kibera", areaType: "NEIGHBOURHOOD", parentId: ""), by: actor)
        let venues = try ["Hall", "Shop", "Clinic"].map {
            try given.database.createVenue(VenueInput(name: $0, address: "1 Road", areaId: area.id.uuidString), by: actor)
        }
        let editor = try organizer(given.database)
        let list = try given.database.createVisitList(listInput(editor), stops: .picked(venues.map { StopTarget(venueId: $0.id, participantId: nil).token }),
                                                      by: actor)
        let stops = try given.database.visitSheet(id: list.id, seen: .everything).stops.map(\.stop.id)
        try given.database.removeStop(stops[2], fromList: list.id, by: actor)
        try given.database.logContact(ContactLogInput(result: "MET"), atStop: stops[0], onList: list.id, by: editor)
        #expect(throws: DomainError.stillReferenced(message: VisitList.stopsStayOnceStarted.english, references: [])) {
            try given.database.removeStop(stops[1], fromList: list.id, by: actor)
        }
        try given.database.logContact(ContactLogInput(result: "NOT_HOME"), atStop: stops[1], onList: list.id, by: editor)
        #expect(try given.database.visitSheet(id: list.id, seen: .everything).progress.logs == 2)
    }

    /// A planned list of one venue's stop, given to an organizer.
    private func listWithOneVenueStop() throws -> (TestDatabase, User, VisitList) {
        let given = try TestDatabase()
        let area = try given.database.createArea(AreaInput(name: "Kibera", areaType: "NEIGHBOURHOOD", parentId: ""), by: actor)
        let venue = try given.database.createVenue(VenueInput(name: "Hall", address: "1 Road", areaId: area.id.uuidString), by: actor)
        let editor = try organizer(given.database)
        let list = try given.database.createVisitList(listInput(editor), stops: .picked([StopTarget(venueId: venue.id, participantId: nil).token]),
                                                      by: actor)
        return (given, editor, list)
    }

    /// A list whose walk has started is not deleted (its stops would go with it, leaving a phone's kept visits nowhere
    /// to land), nor edited back to planned (which would let its stops be removed again); In progress and Done stay open.
    @Test func aStartedListIsNeitherDeletedNorPlannedAgain() throws {
        let (given, editor, list) = try listWithOneVenueStop()
        try given.database.startWalk(ofList: list.id, by: .user(editor.id))
        #expect(throws: DomainError.stillReferenced(message: VisitList.listStaysOnceStarted.english, references: [])) {
            try given.database.deleteVisitList(id: list.id, by: actor)
        }
        let started = try given.database.visitList(id: list.id)
        let replanned = #expect(throws: ValidationError.self) {
            try given.database.updateVisitList(id: list.id, listInput(editor), expectedVersion: started.version, by: actor)
        }
        #expect(replanned?.fieldErrors.map(\.field) == ["status"])
        var done = listInput(editor)
        done.status = VisitStatus.done.rawValue
        try given.database.updateVisitList(id: list.id, done, expectedVersion: started.version, by: actor)
        #expect(throws: DomainError.stillReferenced(message: VisitList.listStaysOnceStarted.english, references: [])) {
            try given.database.deleteVisitList(id: list.id, by: actor)
        }
        #expect(try given.database.visitSheet(id: list.id, seen: .everything).stops.count == 1)
    }

    /// Taking a list onto a phone starts its walk as a first log does, recorded for the hub: its stops stay from then on.
    /// A list already started or done keeps its status.
    @Test func startingAWalkKeepsTheListsStopsAndIsSyncedOnce() throws {
        let (given, editor, list) = try listWithOneVenueStop()
        let stop = try #require(try given.database.visitSheet(id: list.id, seen: .everything).stops.first).stop
        try given.database.startWalk(ofList: list.id, by: .user(editor.id))
        let started = try given.database.visitList(id: list.id)
        #expect(started.status == .inProgress && started.version == list.version + 1)
        try given.database.startWalk(ofList: list.id, by: .user(editor.id))
        #expect(try given.database.visitList(id: list.id).version == started.version, "started once")
        #expect(throws: DomainError.stillReferenced(message: VisitList.stopsStayOnceStarted.english, references: [])) {
            try given.database.removeStop(stop.id, fromList: list.id, by: actor)
        }
    }

    /// A log sent again with the id its page made (a phone back in range) is the log already stored: one row, one
    /// change for the hub. The same id at another stop is refused, not taken for that visit.
    @Test func aLogSentAgainWithItsIdIsLoggedOnceAndSyncedOnce() throws {
        let given = try TestDatabase()
        let area = try given.database.createArea(AreaInput(name: "Kibera", areaType: "NEIGHBOURHOOD", parentId: ""), by: actor)
        let targets = try ["Hall", "School"].map { name in
            StopTarget(venueId: try given.database.createVenue(VenueInput(name: name, address: "1 Road", areaId: area.id.uuidString), by: actor).id,
                       participantId: nil).token
        }
        let editor = try organizer(given.database)
        let list = try given.database.createVisitList(listInput(editor), stops: .picked(targets), by: actor)
        let stops = try given.database.visitSheet(id: list.id, seen: .everything).stops.map(\.stop)
        let pendingBefore = try given.database.pendingOperationCount()
        let id = UUID()
        let input = ContactLogInput(result: "MET", note: "typed away", id: id.uuidString.lowercased())
        let first = try given.database.logContact(input, atStop: stops[0].id, onList: list.id, by: editor)
        let pendingAfterFirst = try given.database.pendingOperationCount()
        let again = try given.database.logContact(input, atStop: stops[0].id, onList: list.id, by: editor, at: Date().addingTimeInterval(60))
        #expect(first.id == id && again.id == id && again.note == first.note && abs(again.loggedAt.timeIntervalSince(first.loggedAt)) < 1,
                "the stored log, not a new one")
        #expect(try given.database.visitSheet(id: list.id, seen: .everything).progress.logs == 1)
        #expect(try given.database.pendingOperationCount() == pendingAfterFirst && pendingAfterFirst > pendingBefore)
        #expect(throws: ValidationError.self) { try given.database.logContact(input, atStop: stops[1].id, onList: list.id, by: editor) }
        #expect(throws: ValidationError.self) {
            try given.database.logContact(ContactLogInput(result: "MET", id: "not-an-id"), atStop: stops[1].id, onList: list.id, by: editor)
        }
    }
}

/// A community as plain values, to compute by hand which stops a filter selects.
private struct World {
    let targets: [StopTarget]
    let areaIds: [UUID]
    let activityIds: [UUID]
    let venueArea: [UUID: UUID]
    let venueType: [UUID: VenueType]
    let parent: [UUID: UUID]
    let homes: [(participant: UUID, venue: UUID)]
    let venues: [UUID]
    let assigned: Set<[UUID]>

    init(_ database: AppDatabase) throws {
        let rows = try database.read { db in
            (try Row.fetchAll(db, sql: "SELECT id, geographic_area_id, venue_type FROM venues"),
             try Row.fetchAll(db, sql: "SELECT id, parent_id FROM geographic_areas"),
             try Row.fetchAll(db, sql: "SELECT id, home_venue_id FROM participants WHERE home_venue_id IS NOT NULL"),
             try Row.fetchAll(db, sql: "SELECT activity_id, participant_id FROM assignments"),
             try String.fetchAll(db, sql: "SELECT id FROM activities"))
        }
        venues = rows.0.map { $0.uuid("id") }
        venueArea = Dictionary(uniqueKeysWithValues: rows.0.map { ($0.uuid("id"), $0.uuid("geographic_area_id")) })
        venueType = Dictionary(uniqueKeysWithValues: rows.0.compactMap { row in
            (row["venue_type"] as String?).flatMap(VenueType.init(rawValue:)).map { (row.uuid("id"), $0) }
        })
        areaIds = rows.1.map { $0.uuid("id") }
        parent = Dictionary(uniqueKeysWithValues: rows.1.compactMap { row in (row["parent_id"] as String?).map { (row.uuid("id"), UUID(uuidString: $0)!) } })
        homes = rows.2.map { ($0.uuid("id"), $0.uuid("home_venue_id")) }
        assigned = Set(rows.3.map { [$0.uuid("activity_id"), $0.uuid("participant_id")] })
        activityIds = rows.4.compactMap(UUID.init(uuidString:))
        targets = homes.map { StopTarget(venueId: $0.venue, participantId: $0.participant) } + venues.map { StopTarget(venueId: $0, participantId: nil) }
    }

    private func isWithin(_ area: UUID, _ ancestor: UUID) -> Bool {
        var current: UUID? = area
        while let here = current {
            if here == ancestor { return true }
            current = parent[here]
        }
        return false
    }

    func matching(_ filter: StopFilter, logs database: AppDatabase) throws -> Set<StopTarget> {
        let logRows = try database.read { db in
            try Row.fetchAll(db, sql: """
                SELECT s.venue_id, s.participant_id, l.logged_at, l.result, l.id FROM contact_logs l JOIN visit_stops s ON s.id = l.visit_stop_id
                """)
        }
        var logsByTarget: [StopTarget: [(Date, String, String)]] = [:]
        for row in logRows {
            let person: String? = row["participant_id"]
            let target = StopTarget(venueId: row.uuid("venue_id"), participantId: person.flatMap(UUID.init(uuidString:)))
            logsByTarget[target, default: []].append((row["logged_at"], row["result"], row["id"]))
        }
        let candidates = filter.source == .participants
            ? homes.map { StopTarget(venueId: $0.venue, participantId: $0.participant) }
            : venues.map { StopTarget(venueId: $0, participantId: nil) }
        return Set(candidates.filter { target in
            if let area = filter.areaId, !isWithin(venueArea[target.venueId]!, area) { return false }
            if let type = filter.venueType, venueType[target.venueId] != type { return false }
            if let activity = filter.activityId, !assigned.contains([activity, target.participantId!]) { return false }
            let logs = logsByTarget[target] ?? []
            if let since = filter.notVisitedSince, logs.contains(where: { $0.0 >= since.startOfDay }) { return false }
            if filter.followUpOnly {
                let latest = logs.max { ($0.0, $0.2) < ($1.0, $1.2) }
                if latest?.1 != ContactResult.followUp.rawValue { return false }
            }
            return true
        })
    }
}

extension StopFilterInput {
    /// The form values that stand for `filter`.
    init(_ filter: StopFilter) {
        self.init(source: filter.source.rawValue, areaId: filter.areaId?.uuidString ?? "", venueType: filter.venueType?.rawValue ?? "",
                  activityId: filter.activityId?.uuidString ?? "", notVisitedSince: filter.notVisitedSince?.description ?? "",
                  followUpOnly: filter.followUpOnly)
    }
}
