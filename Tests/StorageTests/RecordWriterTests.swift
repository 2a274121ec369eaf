import Domain
import Foundation
import GRDB
import Records
import Testing
@testable import Storage

/// The generic writer (`RecordTransaction.create`, `update`, `remove`): references checked and deletions followed as
/// the kinds declare them, every write recorded for sync in its transaction.
@Suite struct RecordWriterTests {
    let actor = Actor.system("test")

    private func place(_ database: AppDatabase) throws -> (area: GeographicArea, venue: Venue) {
        let area = try database.createArea(AreaInput(name: "Town", areaType: "CITY", parentId: ""), by: actor)
        return (area, try database.createVenue(VenueInput(name: "Hall", address: "1 Road", areaId: area.id.uuidString), by: actor))
    }

    /// A list given to a new organizer, with one stop, at `venue`.
    private func round(_ database: AppDatabase, at venue: Venue) throws -> (organizer: User, list: VisitList) {
        let user = try database.createUser(NewUserInput(name: "Organizer", email: "org@example.org", role: "editor",
                                                        password: "correct horse 1", passwordConfirmation: "correct horse 1"), by: actor)
        let list = try database.createVisitList(VisitListInput(name: "Round", visitDate: "2025-06-01", assigneeId: user.id.uuidString,
                                                               status: "PLANNED"),
                                                stops: .picked([StopTarget(venueId: venue.id, participantId: nil).token]), by: actor)
        return (user, list)
    }

    private func clash(_ write: () throws -> Void) -> FieldError? {
        do { try write() } catch let error as ValidationError { return error.fieldErrors.first } catch { return nil }
        return nil
    }

    /// What the surfaces write any editable kind through (`EditableRecord`), named by its kind alone: a category's
    /// kind says which of the two lists, so an activity type is no role.
    @Test func anyEditableKindIsReadCreatedChangedAndDeletedByItsKind() throws {
        let given = try TestDatabase()
        let database = given.database
        let area: GeographicArea = try database.create(GeographicArea.kind, AreaInput(name: "City", areaType: "CITY", parentId: ""), by: actor)
        let renamed: GeographicArea = try database.update(GeographicArea.kind, id: area.id, AreaInput(name: "Town", areaType: "CITY", parentId: ""),
                                                          expectedVersion: 1, by: actor)
        #expect(renamed.version == 2)
        #expect((try database.record(GeographicArea.kind, id: area.id) as GeographicArea).name == "Town")
        #expect(throws: DomainError.staleVersion(entity: "area")) {
            let _: GeographicArea = try database.update(GeographicArea.kind, id: area.id, AreaInput(name: "Village", areaType: "CITY", parentId: ""),
                                                        expectedVersion: 1, by: actor)
        }
        for category in CategoryKind.allCases {
            let made: Domain.Category = try database.create(Category.kind(category), CategoryInput(name: "Picnic"), by: actor)
            #expect(made.kind == category)
            let other = Category.kind(category == .activityType ? .participantRole : .activityType)
            #expect(throws: DomainError.self) { let _: Domain.Category = try database.record(other, id: made.id) }
            try database.delete(Domain.Category.self, Category.kind(category), id: made.id, by: actor)
            #expect(throws: DomainError.notFound(entity: category.singular)) { let _: Domain.Category = try database.record(Category.kind(category), id: made.id) }
        }
        try database.delete(GeographicArea.self, GeographicArea.kind, id: area.id, by: actor)
        let changes = try database.outboxEntries().map { "\($0.change.operation.rawValue) \($0.change.entity)" }
        #expect(changes == ["create geographic_area", "update geographic_area", "create activity_type", "delete activity_type",
                            "create participant_role", "delete participant_role", "delete geographic_area"])
    }

    /// A kind the venue's words do not name still refuses its deletion, in that kind's words, so the delete page never
    /// offers what the writer would refuse.
    @Test func aVenueReferredToByAnyOtherKindIsRefusedNamingThatKind() {
        let memo = RecordKind(entity: "memo", table: "memos", VisitStop.declaration, label: ("memo", "memos"))
        let counts = VenueReferenceCounts([
            Blocker(kind: Participant.kind, reference: Reference(Participant.homeVenueColumn, Venue.kind.entity), count: 1),
            Blocker(kind: memo, reference: Reference("venue_id", Venue.kind.entity), count: 2),
        ])
        #expect(counts.total == 3)
        #expect(counts.refusal(name: "Hall")
            == "“Hall” cannot be deleted because 1 participant lives there, and 2 memos refer to it. Its history would be lost; edit the venue instead.")
    }

    @Test func aWriteNamingARecordThatIsGoneIsToldSoAtTheDeclaredFieldInItsWords() throws {
        let given = try TestDatabase()
        let gone = UUID().uuidString
        let home = clash { try given.database.createParticipant(ParticipantInput(name: "Ann", email: "ann@example.org", homeVenueId: gone), by: actor) }
        #expect(home == FieldError(field: Participant.declaration.column(\.homeVenueId), Venue.missing))
        let area = clash { try given.database.createVenue(VenueInput(name: "Hall", address: "1 Road", areaId: gone), by: actor) }
        // Without a message of its own, a field's is made from its label.
        #expect(area == FieldError(field: "geographic_area_id", message: "The chosen area no longer exists; choose another"))
        #expect(try given.outboxCount() == 0)
    }

    @Test func aCreateWithAnIdAlreadyStoredIsRefusedAndReplacesNothing() throws {
        let given = try TestDatabase()
        let (area, venue) = try place(given.database)
        let outbox = try given.outboxCount()
        let taken = clash {
            try given.database.transaction(by: actor) { transaction in
                _ = try transaction.create(Venue.self, VenueInput(name: "Impostor", address: "2 Lane", areaId: area.id.uuidString).validated(),
                                           id: venue.id)
            }
        }
        #expect(taken?.field == "id" && taken?.message.contains("Another venue already has the id \(venue.id.databaseText)") == true)
        #expect(try given.database.venue(id: venue.id).name == "Hall" && given.database.venue(id: venue.id).address == "1 Road")
        #expect(try given.outboxCount() == outbox, "no change queued for the hub")
        // Another kind's record with the same id is no clash: ids are per kind's table.
        let sameId = try given.database.transaction(by: actor) { transaction in
            try transaction.create(GeographicArea.self, AreaInput(name: "Other", areaType: "CITY", parentId: "").validated(), id: venue.id)
        }
        #expect(sameId.id == venue.id)
    }

    @Test func anEditOfAVersionNoLongerCurrentIsRefusedAndAnEditKeepsWhatTheHubCarries() throws {
        let given = try TestDatabase()
        let area = try given.database.area(id: place(given.database).area.id)
        let renamed = try given.database.updateArea(id: area.id, AreaInput(name: "City", areaType: "CITY", parentId: ""),
                                                    expectedVersion: 1, by: actor)
        #expect(renamed.version == 2)
        #expect(renamed.createdAt == area.createdAt)
        #expect(throws: DomainError.staleVersion(entity: "area")) {
            try given.database.updateArea(id: area.id, AreaInput(name: "Village", areaType: "CITY", parentId: ""), expectedVersion: 1, by: actor)
        }
        #expect(try given.database.area(id: area.id).name == "City")
    }

    @Test func whatRefusesADeletionIsFoundThroughTheRecordsItWouldTakeAlong() throws {
        let given = try TestDatabase()
        let database = given.database
        let (_, venue) = try place(database)
        let (user, list) = try round(database, at: venue)
        let stop = try database.visitSheet(id: list.id, seen: .everything).stops[0].stop
        _ = try database.logContact(ContactLogInput(result: ContactResult.allCases[0].rawValue, note: "see"), atStop: stop.id,
                                    onList: list.id, by: user)
        let blockers = try database.pool.read { db in try db.blockers(of: VisitList.kind, id: list.id) }
        #expect(blockers == [Blocker(kind: ContactLog.kind, reference: Reference("visit_stop_id", "visit_stop", .restrict), count: 1)])
        #expect(throws: DomainError.self) { try database.deleteVisitList(id: list.id, by: actor) }
        #expect(try database.visitList(id: list.id).name == "Round")
    }

    // A venue that is a stop on a visit list (a restricting reference no kind's own message covers) is refused in words,
    // not by the database's foreign key.
    @Test func aVenueOnAVisitListIsRefusedInWords() throws {
        let given = try TestDatabase()
        let database = given.database
        let (_, venue) = try place(database)
        _ = try round(database, at: venue)
        #expect(throws: DomainError.stillReferenced(message: "“Hall” cannot be deleted because it is a stop on a visit list. Its history would be lost; edit the venue instead.", references: [])) {
            try database.deleteVenue(id: venue.id, by: actor)
        }
        #expect(try database.venue(id: venue.id).name == "Hall")
    }

    @Test func aDeletionTakesAlongWhatBelongsToTheRecordAndRecordsOneChange() throws {
        let given = try TestDatabase()
        let database = given.database
        let (_, venue) = try place(database)
        let ann = try database.createParticipant(ParticipantInput(name: "Ann", email: "ann@example.org", homeVenueId: venue.id.uuidString), by: actor)
        let before = try given.outboxCount()
        try database.deleteParticipant(id: ann.id, by: actor)
        #expect(try given.outboxCount() == before + 1)
        #expect(try database.addressHistory(of: ann.id).isEmpty)
        // The venue no longer has a resident, nor one in its history: it may go now.
        try database.deleteVenue(id: venue.id, by: actor)
    }

    // The reference check reads a record's reference fields alone, and the row a write stores is the one built from
    // its declaration.
    @Test func aWriteChecksTheReferenceFieldsAloneAndStoresTheDeclaredRow() throws {
        let given = try TestDatabase()
        let (_, venue) = try place(given.database)
        let ann = try given.database.createParticipant(ParticipantInput(name: "Ann", email: "ann@example.org", homeVenueId: venue.id.uuidString), by: actor)
        #expect(ann.referencedIds().map(\.field.column) == [Participant.homeVenueColumn])
        #expect(ann.referencedIds().map(\.id) == [venue.id])
        let bob = try given.database.createParticipant(ParticipantInput(name: "Bob", email: "bob@example.org"), by: actor)
        #expect(bob.referencedIds().isEmpty)
        let stored = try given.database.pool.read { db in
            try #require(try Row.fetchOne(db, sql: "SELECT * FROM participants WHERE id = ?", arguments: [ann.id.databaseText]))
        }
        #expect(Set(ann.storedRow().keys) == Set(stored.columnNames).subtracting(["search_text"]))
        for (column, value) in ann.storedRow() { #expect(stored[column] as DatabaseValue == value, "\(column)") }
    }

    // `assign` finds the activity itself and the writer does not look for it again; the references it does not find
    // are still checked.
    @Test func anAssignmentNamingAParticipantRoleOrActivityThatIsGoneIsRefused() throws {
        let given = try TestDatabase()
        let database = given.database
        let (_, venue) = try place(database)
        let ann = try database.createParticipant(ParticipantInput(name: "Ann", email: "ann@example.org"), by: actor)
        let type = try #require(try database.categories(.activityType).first)
        let role = try #require(try database.categories(.participantRole).first)
        let choir = try database.createActivity(ActivityInput(name: "Choir", typeId: type.id.uuidString, startDate: "2025-01-01",
                                                              duration: "ongoing", status: "ACTIVE", venueIds: [venue.id.uuidString]), by: actor)
        let gone = UUID().uuidString
        #expect(clash { _ = try database.assign(participant: gone, role: role.id.uuidString, toActivity: choir.id, by: actor) }
                == FieldError(field: "participant_id", message: "That participant no longer exists; search again"))
        #expect(clash { _ = try database.assign(participant: ann.id.uuidString, role: gone, toActivity: choir.id, by: actor) }
                == FieldError(field: "role_id", message: "That role no longer exists; choose another"))
        #expect(throws: DomainError.notFound(entity: "activity")) {
            try database.assign(participant: ann.id.uuidString, role: role.id.uuidString, toActivity: UUID(), by: actor)
        }
        _ = try database.assign(participant: ann.id.uuidString, role: role.id.uuidString, toActivity: choir.id, by: actor)
    }

    /// A bulk write's statement journals (triggers make every insert keep one) stay in memory: in a file one was written
    /// page by page for every row of a large transaction. Every other write, and every reader, keeps SQLite's default,
    /// files, so that a large sort (an index build) spills to disk rather than filling the heap.
    @Test func onlyBulkWritesKeepTheirStatementJournalsInMemory() throws {
        let given = try TestDatabase()
        func tempStore(_ db: Database) throws -> Int? { try Int.fetchOne(db, sql: "PRAGMA temp_store") }
        #expect(try given.database.transaction(by: actor, statementJournalsInMemory: true) { try tempStore($0.db) } == 2)
        #expect(try given.database.transaction(by: actor) { try tempStore($0.db) } == 0)
        #expect(try given.database.pool.write(tempStore) == 0)
        #expect(try given.database.pool.read(tempStore) == 0)
    }
}
