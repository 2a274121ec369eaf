import Domain
import Foundation
import Records
import GRDB
import Imaging
@testable import Storage
import TestSupport
import Testing

/// Each kind is described once; these tests catch a descriptor or record type drifting from its table.
@Suite struct RecordKindTests {
    @Test func eachKindDescribesEveryColumnOfItsTable() throws {
        let given = try TestDatabase(linked: false)
        for kind in RecordKind.all {
            let columns = try given.database.read { db in try db.columns(in: kind.table).map(\.name) }
            var described = Set(["id", "version"] + kind.columns + kind.metaColumns)
            if !kind.searchColumns.isEmpty { described.insert("search_text") }
            #expect(Set(columns) == described, "\(kind.entity)")
            #expect(Set(kind.searchColumns).isSubset(of: kind.columns), "\(kind.entity)")
        }
    }

    /// A PostgreSQL hub enforces references, unique keys and required columns from the descriptors; SQLite's schema enforces them on every
    /// other Fieldbook. Both must say the same.
    @Test func eachKindsReferencesUniqueKeysAndRequiredColumnsAreTheSchemas() throws {
        let given = try TestDatabase(linked: false)
        let tables = Dictionary(uniqueKeysWithValues: RecordKind.all.map { ($0.table, $0.entity) })
        try given.database.read { db in
            for kind in RecordKind.all {
                let foreignKeys = try Row.fetchAll(db, sql: "SELECT \"from\", \"table\", on_delete FROM pragma_foreign_key_list(?)",
                                                   arguments: [kind.table])
                    .map { "\($0["from"] as String) → \(tables[$0["table"] as String] ?? "?") \($0["on_delete"] as String)" }
                let described = kind.references.map { "\($0.column) → \($0.entity) \($0.onDelete.rawValue)" }
                #expect(foreignKeys.sorted() == described.sorted(), "\(kind.entity)")
                let uniqueIndexes = try Row.fetchAll(db, sql: "SELECT name FROM pragma_index_list(?) WHERE \"unique\" = 1 AND origin != 'pk'",
                                                     arguments: [kind.table])
                let keys = try uniqueIndexes.map { index in
                    try String.fetchAll(db, sql: "SELECT name FROM pragma_index_info(?) ORDER BY seqno", arguments: [index["name"] as String])
                }
                #expect(keys.sorted { $0.description < $1.description } == kind.uniqueKeys.sorted { $0.description < $1.description },
                        "\(kind.entity)")
                let notNull = try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info(?) WHERE \"notnull\" = 1", arguments: [kind.table])
                #expect(Set(notNull).subtracting(["id", "version", "search_text"]) == Set(kind.requiredColumns), "\(kind.entity)")
            }
        }
    }

    /// The migration SQL is written out; the declarations are what every layer derives from. After all migrations, each
    /// declared column is in its kind's table, NOT NULL exactly when not optional, with the declared foreign key, and the
    /// table holds no column the declaration lacks but `undeclaredColumns`.
    /// A delete's check follows cascading references from kind to kind; a cycle would follow them forever.
    @Test func cascadingReferencesFormNoCycle() {
        func cascadeReferrers(of entity: String) -> [String] {
            RecordKind.all.filter { kind in kind.references.contains { $0.entity == entity && $0.onDelete == .cascade } }.map(\.entity)
        }
        func reachesItself(_ start: String) -> Bool {
            var seen: Set<String> = []
            var next = cascadeReferrers(of: start)
            while let entity = next.popLast() {
                if entity == start { return true }
                if seen.insert(entity).inserted { next += cascadeReferrers(of: entity) }
            }
            return false
        }
        for kind in RecordKind.all { #expect(!reachesItself(kind.entity), "\(kind.entity) cascades back to itself") }
    }

    @Test func theMigratedSchemaIsTheDeclarations() throws {
        let given = try TestDatabase(linked: false)
        let entities = Dictionary(uniqueKeysWithValues: RecordKind.all.map { ($0.table, $0.entity) })
        try given.database.read { db in
            for kind in RecordKind.all {
                let notNull = Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT name, \"notnull\" FROM pragma_table_info(?)",
                                                                                arguments: [kind.table]).map { ($0["name"] as String, $0["notnull"] as Bool) })
                let foreignKeys = Dictionary(uniqueKeysWithValues: try Row.fetchAll(
                    db, sql: "SELECT \"from\", \"table\", on_delete FROM pragma_foreign_key_list(?)", arguments: [kind.table]
                ).map { ($0["from"] as String, "\(entities[$0["table"] as String] ?? $0["table"] as String) \($0["on_delete"] as String)") })
                for field in kind.fields {
                    let place = "\(kind.table).\(field.column)"
                    #expect(notNull[field.column] != nil, "\(place) is declared but not in the table")
                    #expect(notNull[field.column].map { !$0 } ?? field.isOptional == field.isOptional,
                            "\(place) is declared \(field.isOptional ? "optional" : "required") but is \(field.isOptional ? "NOT NULL" : "nullable")")
                    #expect(foreignKeys[field.column] == field.reference.map { "\($0.entity) \($0.onDelete.rawValue)" },
                            "\(place): foreign key \(foreignKeys[field.column] ?? "none"), declared \(field.reference.map { "\($0.entity) \($0.onDelete.rawValue)" } ?? "none")")
                }
                let undeclared = Set(notNull.keys).subtracting(kind.fields.map(\.column)).subtracting(Self.undeclaredColumns)
                #expect(undeclared.isEmpty, "\(kind.table) has columns no field declares: \(undeclared.sorted())")
                #expect(Set(foreignKeys.keys).isSubset(of: kind.fields.map(\.column)), "\(kind.table): a foreign key on an undeclared column")
            }
        }
    }

    /// Columns every synced table has that are no field of its kind: the key, the version sync compares, and the search
    /// text the row writer derives from the searched fields.
    static let undeclaredColumns: Set<String> = ["id", "version", "search_text"]

    /// Every kind's record, read from its stored row and encoded again, gives back exactly the row's values: the row
    /// coding derived from the declarations loses and changes nothing.
    @Test func eachRecordTypeWritesBackTheRowItRead() throws {
        let given = try TestDatabase(linked: false)
        _ = try given.database.importDemoCommunity(size: DemoCommunity.Size(venues: 3, participants: 5, activities: 3), seed: 7)
        try given.database.createUser(NewUserInput(name: "Ada", email: "ada@example.org", role: "editor", password: "correct horse 1",
                                                   passwordConfirmation: "correct horse 1"), by: .system("test"))
        try writeAVisit(given.database)
        try addAPhoto(given.database)
        try mergeTwo(given.database)
        try given.database.read { db in
            func check<Record: SyncedRecord>(_ table: String, _ read: (Row) -> Record) throws {
                let rows = try Row.fetchAll(db, sql: "SELECT * FROM \(table)")
                #expect(!rows.isEmpty, "\(table) has rows to read")
                for row in rows {
                    let written = try read(row).databaseDictionary
                    for column in row.columnNames where column != "search_text" {
                        #expect(written[column] == row[column] as DatabaseValue, "\(table).\(column)")
                    }
                }
            }
            try check("participants", Participant.init(row:))
            try check("venues", Venue.init(row:))
            try check("geographic_areas", GeographicArea.init(row:))
            try check("activities", Activity.init(row:))
            try check("assignments", AssignmentRow.init(row:))
            try check("users", UserRow.init(row:))
            try check("visit_lists", VisitList.init(row:))
            try check("visit_stops", VisitStop.init(row:))
            try check("contact_logs", ContactLog.init(row:))
            try check("notifications", NotificationRow.init(row:))
            try check("notification_preferences", NotificationPreferences.init(row:))
            try check("photos", Photo.init(row:))
            try check("participant_merges", ParticipantMergeRow.init(row:))
            try check("participant_address_history", PeriodRow.init(row:))
            try check("activity_venue_history", PeriodRow.init(row:))
            for category in CategoryKind.allCases { try check(category.table) { Category(row: $0, kind: category) } }
        }
    }

    /// The hub checks a pushed record with its kind's declared rules and own check; it says what the page's form says
    /// about the same values, in the same order.
    @Test func theHubsCheckSaysWhatTheFormSays() throws {
        let given = try TestDatabase(linked: false)
        func hub(_ kind: RecordKind, _ fields: [String: JSONValue]) throws -> [FieldError] {
            do {
                try given.database.read { db in try kind.check(db, UUID(), fields) }
                return []
            } catch let error as ValidationError { return error.fieldErrors }
        }
        func form(_ validate: () throws -> Any) -> [FieldError] {
            do {
                _ = try validate()
                return []
            } catch { return (error as? ValidationError)?.fieldErrors ?? [] }
        }
        let long = String(repeating: "x", count: 600)
        let venues: [[String: String]] = [
            ["name": "", "address": "1 Road", "geographic_area_id": "nope", "latitude": "91", "longitude": "", "venue_type": "CASTLE"],
            ["name": "Hall", "address": "", "geographic_area_id": UUID().uuidString, "latitude": "1.5", "longitude": ""],
            ["name": "Hall", "address": "1 Road", "geographic_area_id": UUID().uuidString, "latitude": "", "longitude": "x"],
        ]
        for venue in venues {
            let fields = venue.mapValues(JSONValue.string)
            #expect(try hub(Venue.kind, fields) == form {
                try VenueInput(name: fields.text("name"), address: fields.text("address"), areaId: fields.text("geographic_area_id"),
                               latitude: fields.text("latitude"), longitude: fields.text("longitude"), venueType: fields.text("venue_type")).validated()
            })
        }
        let activities: [[String: String]] = [
            ["name": long, "activity_type_id": UUID().uuidString, "start_date": "2025-03-12", "end_date": "2025-03-01", "status": "ACTIVE"],
            ["name": "", "activity_type_id": "", "start_date": "12/03/2025", "end_date": "2025-02-30", "status": "DONE"],
            ["name": "Choir", "activity_type_id": UUID().uuidString, "start_date": "2025-03-12", "end_date": "", "status": "ACTIVE"],
        ]
        for activity in activities {
            let fields = activity.mapValues(JSONValue.string)
            let end = fields.text("end_date")
            #expect(try hub(Activity.kind, fields) == form {
                try ActivityInput(name: fields.text("name"), description: fields.text("description"), typeId: fields.text("activity_type_id"),
                                  startDate: fields.text("start_date"), duration: end.isEmpty ? "ongoing" : "finite", endDate: end,
                                  status: fields.text("status")).validated()
            })
        }
        let logs: [[String: String]] = [
            ["result": "OTHER", "note": " ", "latitude": "1.5", "longitude": ""],
            ["result": "NOPE", "note": long + long + long + long, "latitude": "x", "longitude": "200", "accuracy_m": "-1"],
        ]
        for log in logs {
            let fields = log.mapValues(JSONValue.string)
            #expect(try hub(ContactLog.kind, fields) == form {
                try ContactLogInput(result: fields.text("result"), note: fields.text("note"), latitude: fields.text("latitude"),
                                    longitude: fields.text("longitude"), accuracy: fields.text("accuracy_m")).validated()
            })
        }
        let people: [[String: String]] = [
            ["name": "", "email": "not an address", "phone": "12", "notes": long, "home_venue_id": "nope"],
            ["name": "Ama", "email": "ama@example.org", "phone": "+254 712 345 678"],
        ]
        for person in people {
            let fields = person.mapValues(JSONValue.string)
            #expect(try hub(Participant.kind, fields) == form {
                try ParticipantInput(name: fields.text("name"), email: fields.text("email"), phone: fields.text("phone"),
                                     notes: fields.text("notes"), homeVenueId: fields.text("home_venue_id")).validated()
            })
        }
        let list = ["name": "", "visit_date": "soon", "purpose": long, "assigned_user_id": "", "status": "LATER"].mapValues(JSONValue.string)
        #expect(try hub(VisitList.kind, list) == form {
            try VisitListInput(name: list.text("name"), visitDate: list.text("visit_date"), purpose: list.text("purpose"), script: list.text("script"),
                               assigneeId: list.text("assigned_user_id"), status: list.text("status")).validated()
        })
        #expect(try hub(Category.kind(.participantRole), ["name": .string(" ")]) == form { try CategoryInput(name: " ").validated(kind: .participantRole) })
        #expect(try hub(GeographicArea.kind, ["name": .string(""), "area_type": .string("PLANET")])
                == form { try AreaInput(name: "", areaType: "PLANET", parentId: "").validated() })
    }

    @Test func eachRecordTypeEncodesExactlyItsTablesColumns() throws {
        let given = try TestDatabase(linked: false)
        _ = try given.database.importDemoCommunity(size: DemoCommunity.Size(venues: 3, participants: 5, activities: 3), seed: 7)
        try given.database.createUser(NewUserInput(name: "Ada", email: "ada@example.org", role: "editor", password: "correct horse 1",
                                                   passwordConfirmation: "correct horse 1"), by: .system("test"))
        try given.database.createCategory(.participantRole, CategoryInput(name: "Cook"), by: .system("test"))
        try writeAVisit(given.database)
        try addAPhoto(given.database)
        try mergeTwo(given.database)
        try given.database.read { db in
            func check(_ record: (some SyncedRecord)?) throws {
                let record = try #require(record)
                let kind = record.recordKind
                let stored = Set(try db.columns(in: kind.table).map(\.name)).subtracting(["search_text"])
                #expect(Set(try record.databaseDictionary.keys) == stored, "\(kind.entity)")
            }
            try check(Participant.fetchOne(db))
            try check(Venue.fetchOne(db))
            try check(GeographicArea.fetchOne(db))
            try check(Activity.fetchOne(db))
            try check(AssignmentRow.fetchOne(db))
            try check(UserRow.fetchOne(db))
            try check(VisitList.fetchOne(db))
            try check(VisitStop.fetchOne(db))
            try check(ContactLog.fetchOne(db))
            try check(NotificationRow.fetchOne(db))
            try check(NotificationPreferences.fetchOne(db))
            try check(Photo.fetchOne(db))
            try check(ParticipantMergeRow.fetchOne(db))
            try check(PeriodRow.fetchOne(db, sql: "SELECT * FROM participant_address_history"))
            try check(PeriodRow.fetchOne(db, sql: "SELECT * FROM activity_venue_history"))
            for category in CategoryKind.allCases {
                try check(Row.fetchOne(db, sql: "SELECT * FROM \(category.table)").map { Category(row: $0, kind: category) })
            }
        }
    }

    @Test func aRowWrittenFromTheWireIsFoundBySearchLikeOneTypedIn() throws {
        let node = try TestDatabase(linked: false)
        let id = UUID()
        let state = RecordState(entity: "participant", entityId: id, deleted: false, version: 1, fields: [
            "name": .string("Émile Zola"), "email": .string("emile@example.org"), "phone": .null, "notes": .null,
            "home_venue_id": .null, "created_at": .string(Date().storedText), "updated_at": .string(Date().storedText),
        ])
        try node.database.pool.write { db in try RecordStates.write(db, Participant.kind, state) }
        let found = try node.database.participants(ParticipantQuery(text: "emile"))
        #expect(found.items.map(\.participant.id) == [id])
    }

    @Test func everyCreateQueuedCarriesExactlyItsKindsSyncedColumns() throws {
        let given = try TestDatabase()
        let summary = try given.database.importDemoCommunity(size: DemoCommunity.Size(venues: 4, participants: 12, activities: 6), seed: 3)
        #expect(summary.assignments > 0 && summary.addressPeriods > summary.participants / 2)
        try given.database.createUser(NewUserInput(name: "Ada", email: "ada@example.org", role: "editor", password: "correct horse 1",
                                                   passwordConfirmation: "correct horse 1"), by: .system("test"))
        for kind in CategoryKind.allCases { try given.database.createCategory(kind, CategoryInput(name: "Picnic"), by: .system("test")) }
        try writeAVisit(given.database)
        try addAPhoto(given.database)
        try mergeTwo(given.database)
        _ = try given.database.create(FieldTexts(Note.declaration) { ["noted_on": "2025-03-12", "text": "A note"][$0] ?? "" }, by: .system("test"))
        let creates = try given.database.outboxEntries(limit: 10_000).map(\.change).filter { $0.operation == .create }
        #expect(Set(creates.map(\.entity)) == Set(RecordKind.all.map(\.entity)), "every kind was written")
        for change in creates {
            let kind = try #require(RecordKind.named(change.entity))
            #expect(Set(change.fields.keys) == Set(kind.columns), "\(change.entity)")
        }
    }

    /// Sync, history and the sync pages' names take every kind from `RecordKind.all`: each kind written here reaches a
    /// hub and a second node, and each record's page can show its history, with no list of kinds of their own.
    @Test func everyKindTravelsToOtherNodesAndKeepsAHistory() throws {
        let node = try TestDatabase(), hub = try TestDatabase(linked: false), other = try TestDatabase()
        _ = try node.database.importDemoCommunity(size: DemoCommunity.Size(venues: 2, participants: 4, activities: 2), seed: 3, by: .system("test"))
        for kind in CategoryKind.allCases { try node.database.createCategory(kind, CategoryInput(name: "Picnic"), by: .system("test")) }
        try writeAVisit(node.database)
        try addAPhoto(node.database)
        try mergeTwo(node.database)
        _ = try node.database.create(FieldTexts(Note.declaration) { ["noted_on": "2025-03-12", "text": "A note"][$0] ?? "" }, by: .system("test"))
        try SyncExchange.push(node.database, to: hub.database)
        try SyncExchange.pull(other.database, from: hub.database)
        let written = try SyncExchange.snapshot(node.database)
        let (atHub, atOther) = (try SyncExchange.snapshot(hub.database), try SyncExchange.snapshot(other.database))
        for kind in RecordKind.all {
            let ids = Set(written[kind.table]?.keys ?? [:].keys)
            #expect(!ids.isEmpty, "\(kind.entity) was written")
            #expect(Set(atHub[kind.table]?.keys ?? [:].keys) == ids, "\(kind.entity) reached the hub")
            #expect(Set(atOther[kind.table]?.keys ?? [:].keys) == ids, "\(kind.entity) reached another node")
            let id = try #require(ids.first.flatMap(UUID.init(uuidString:)))
            let history = try node.database.history(of: kind, id: id)
            #expect(history.last?.operation == .create, "\(kind.entity) has a history")
        }
    }

    /// Lists and the home page read each table's size from `row_counts`: it must stay the table's size through creates,
    /// deletes that cascade, and rows written from the wire, for every kind.
    @Test func everyKindsKeptRowCountIsItsTablesSize() throws {
        let given = try TestDatabase(linked: false)
        _ = try given.database.importDemoCommunity(size: DemoCommunity.Size(venues: 4, participants: 12, activities: 6), seed: 5)
        try writeAVisit(given.database)
        let activity = try #require(try given.database.read { db in
            try Activity.fetchOne(db, sql: "SELECT * FROM activities WHERE id IN (SELECT activity_id FROM assignments)")
        })
        try given.database.deleteActivity(id: activity.id, by: .system("test"))
        let participant = try #require(try given.database.read { db in try Participant.fetchOne(db) })
        try given.database.deleteParticipant(id: participant.id, by: .system("test"))
        let state = RecordState(entity: "participant", entityId: UUID(), deleted: false, version: 1, fields: [
            "name": .string("Wire Person"), "email": .string("wire@example.org"), "phone": .null, "notes": .null,
            "home_venue_id": .null, "created_at": .string(Date().storedText), "updated_at": .string(Date().storedText),
        ])
        try given.database.pool.write { db in try RecordStates.write(db, Participant.kind, state) }
        try given.database.read { db in
            for kind in RecordKind.all {
                let kept = try Int.fetchOne(db, sql: "SELECT row_count FROM row_counts WHERE table_name = ?", arguments: [kind.table])
                #expect(kept == (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(kind.table)")), "\(kind.table): kept \(kept.map(String.init) ?? "none")")
            }
        }
    }

    /// Lists filtered by a status alone read their total from `row_counts` too: on a hub (creates, a delete, status
    /// changes in place) and on a node that pulled it all in pages, each value's kept count is its rows' count.
    @Test func everyCountKeptByValueIsItsRowsCount() throws {
        let hub = try TestDatabase(linked: false), node = try TestDatabase()
        _ = try hub.database.importDemoCommunity(size: DemoCommunity.Size(venues: 4, participants: 12, activities: 30), seed: 7)
        try SyncExchange.pull(node.database, from: hub.database, page: 9)
        let activity = try #require(try hub.database.read { db in try Activity.fetchOne(db) })
        try hub.database.deleteActivity(id: activity.id, by: .system("test"))
        try hub.database.pool.write { db in
            try db.execute(sql: "UPDATE activities SET status = 'CANCELLED' WHERE rowid IN (SELECT rowid FROM activities WHERE status <> 'CANCELLED' LIMIT 5)")
            try db.execute(sql: "UPDATE activities SET status = 'PLANNED' WHERE status = 'COMPLETED'")
        }
        try SyncExchange.pull(node.database, from: hub.database, page: 4)
        for database in [hub.database, node.database] {
            try database.read { db in
                for counted in RowCounts.countedByValue {
                    let counts = Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT \(counted.column), COUNT(*) FROM \(counted.table) GROUP BY 1")
                        .map { ($0[0] as String, $0[1] as Int) })
                    #expect(counts.count >= 2, "the demo has several values of \(counted.column)")
                    for value in ActivityStatus.allCases.map(\.rawValue) {
                        #expect(try RowCounts.count(db, table: counted.table, column: counted.column, value: value) == counts[value] ?? 0, "\(value)")
                    }
                }
            }
        }
    }

    /// A visit list with one stop and one contact log, made by an editor (needs a venue and no other user named Vera).
    /// A photo of the first participant, from a real image file.
    private func addAPhoto(_ database: AppDatabase) throws {
        let participant = try #require(try database.read { db in try Participant.fetchOne(db) })
        let kept = try database.keepUpload(try PhotoProcessor.prepare(path: PhotoFixtures.url(PhotoFixtures.withGPS).path))
        try database.addPhoto(to: .participant(participant.id), PhotoInput(caption: "At the door"), display: kept.display,
                              thumbnail: kept.thumbnail, by: .system("test"))
    }

    /// Two records of one person merged: a participant merge.
    private func mergeTwo(_ database: AppDatabase) throws {
        let first = try database.createParticipant(ParticipantInput(name: "Kwame Mensah", email: "kwame@example.org"), by: .system("test"))
        let second = try database.createParticipant(ParticipantInput(name: "Kwame Mensa", email: "mensa@example.org"), by: .system("test"))
        try database.mergeParticipants(ParticipantMerge(kept: first.id, removed: second.id), by: .system("test"))
    }

    private func writeAVisit(_ database: AppDatabase) throws {
        let organizer = try database.createUser(NewUserInput(name: "Vera", email: "vera@example.org", role: "editor", password: "correct horse 1",
                                                             passwordConfirmation: "correct horse 1"), by: .system("test"))
        let venue = try #require(try database.read { db in try Venue.fetchOne(db) })
        let list = try database.createVisitList(VisitListInput(name: "Round", visitDate: "2025-06-01", assigneeId: organizer.id.uuidString),
                                                stops: .picked([StopTarget(venueId: venue.id, participantId: nil).token]), by: .system("test"))
        let stop = try #require(try database.visitSheet(id: list.id, seen: .everything).stops.first)
        try database.logContact(ContactLogInput(result: "MET", latitude: "1.5", longitude: "36.8", accuracy: "9"), atStop: stop.stop.id,
                                onList: list.id, by: organizer)
        // The list was assigned to Vera by someone else: she is told, and she chooses what she is told from now on.
        #expect(try database.deliverNotifications().map(\.userId) == [organizer.id])
        try database.saveNotificationPreferences(NotificationPreferences(userId: organizer.id, mutedKinds: [.nodeLinked]), by: organizer)
    }
}
