import Domain
import Foundation
import GRDB
import Records
@testable import Storage
import Testing

/// Notes, a kind declared in Records alone: its migration, and the generic reads and writes its pages use.
@Suite struct NoteKindTests {
    let actor = Actor.system("test")

    func texts(_ values: [String: String]) -> FieldTexts<Note> { FieldTexts(Note.declaration) { values[$0] ?? "" } }

    @Test func theMigrationAddsTheNotesTableWithItsTriggersToADatabaseFromBeforeIt() throws {
        let queue = try DatabaseQueue()
        try Migrations.migrator.migrate(queue, upTo: "v21-node-credentials")
        #expect(try queue.read { try $0.tableExists("notes") } == false)
        try Migrations.migrator.migrate(queue)
        try queue.read { db in
            #expect(try db.tableExists("notes"))
            let triggers = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'notes'")
            #expect(triggers.contains("notes_row_count_insert") && triggers.count > 2, "change-log and row-count triggers: \(triggers)")
            #expect(try Int.fetchOne(db, sql: "SELECT row_count FROM row_counts WHERE table_name = 'notes'") == 0)
        }
    }

    @Test func aNoteIsCreatedEditedAndDeletedThroughTheGenericWriterEachChangeQueuedForSync() throws {
        let given = try TestDatabase()
        let note = try given.database.create(texts(["noted_on": "2025-03-12", "text": "  Asked about the choir  "]), by: actor)
        #expect(note.text == "Asked about the choir" && note.participantId == nil && note.version == 1)
        let edited = try given.database.update(Note.self, id: note.id, texts(["noted_on": "2025-03-13", "text": "Will come"]),
                                               expectedVersion: 1, by: actor)
        #expect(edited.version == 2 && edited.notedOn.description == "2025-03-13" && edited.createdAt == note.createdAt)
        #expect(throws: DomainError.staleVersion(entity: "note")) {
            try given.database.update(Note.self, id: note.id, texts(["noted_on": "2025-03-13", "text": "Mine"]), expectedVersion: 1, by: actor)
        }
        #expect(try given.database.records(Note.self, matching: "choir", page: PageRequest()).total == 0)
        #expect(try given.database.records(Note.self, matching: "come", page: PageRequest()).items.map(\.id) == [note.id])
        try given.database.remove(Note.self, id: note.id, by: actor)
        let changes = try given.database.outboxEntries().map(\.change).filter { $0.entity == "note" }
        #expect(changes.map(\.operation) == [.create, .update, .delete])
        #expect(Set(changes[0].fields.keys) == Set(Note.kind.columns))
    }

    @Test func theRulesRefuseAndAReferenceIsEmptiedWhenItsRecordIsDeleted() throws {
        let given = try TestDatabase(linked: false)
        #expect(throws: ValidationError.self) { try given.database.create(texts(["noted_on": "12 March", "text": ""]), by: actor) }
        let ann = try given.database.createParticipant(ParticipantInput(name: "Ann", email: "ann@example.org"), by: actor)
        let note = try given.database.create(texts(["noted_on": "2025-03-12", "text": "Prefers evenings",
                                                    "participant_id": ann.id.uuidString.lowercased()]), by: actor)
        #expect(note.participantId == ann.id)
        try given.database.deleteParticipant(id: ann.id, by: actor)
        #expect(try given.database.record(Note.self, id: note.id).participantId == nil)
    }
}
