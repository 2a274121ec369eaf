import Domain
import Foundation
@testable import Storage
import Testing

/// Importing participants from CSV (issue 14): files as spreadsheets write them, each row checked as the form checks
/// it, duplicates found against stored records and inside the file, and the import written in one transaction.
@Suite struct ParticipantImportTests {
    let actor = Actor.system("test")
    let user = UUID()

    func file(_ given: TestDatabase, _ bytes: [UInt8], name: String = "people.csv") throws -> String {
        let path = given.directory.appendingPathComponent(UUID().uuidString + ".csv").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    func imported(_ given: TestDatabase, _ text: String) throws -> ImportJob {
        try given.database.createImport(fromFile: file(given, Array(text.utf8)), named: "people.csv", by: user)
    }

    func rows(_ given: TestDatabase, _ job: ImportJob, _ filter: ImportRowFilter = .all) throws -> [ImportRow] {
        try given.database.importRows(of: job.id, filter, page: PageRequest(page: 1, perPage: 500)).items
    }

    func run(_ given: TestDatabase, _ job: ImportJob) throws -> ImportJob {
        try given.database.queueImport(job.id)
        let runner = ImportRunner(database: given.database, logger: .init(label: "test"))
        #expect(runner.runOnce() == 1)
        return try given.database.importJob(id: job.id)
    }

    @Test func excelFileWithByteOrderMarkSemicolonsAndWindowsLineEndsImports() throws {
        let given = try TestDatabase()
        let text = "Full name;E-mail address;Telephone;Comments\r\nÉmile Dubois;emile@example.org;+33 1 23 45 67 89;\"Evenings; not Sundays\"\r\nAda Lovelace;ADA@example.org;;\r\n"
        let job = try given.database.createImport(fromFile: file(given, CSV.byteOrderMark + Array(text.utf8)), named: "people.csv", by: user)
        #expect(job.separator == .semicolon)
        #expect(job.mapping.fields == [.name, .email, .phone, .notes])
        #expect(job.rowCount == 2)
        #expect(try rows(given, job).map(\.decision) == [.create, .create])
        let done = try run(given, job)
        #expect(done.state == .done)
        #expect((done.created, done.merged, done.skipped) == (2, 0, 0))
        let stored = try given.database.participantMatches("Dubois").items
        #expect(stored.count == 1)
        let emile = try given.database.participant(id: stored[0].participant.id)
        #expect(emile.notes == "Evenings; not Sundays")
        #expect(try given.database.participant(id: try given.database.participantMatches("Lovelace").items[0].participant.id).email == "ada@example.org")
        #expect(try given.outboxCount() == 2)
    }

    @Test func rowsAreCheckedWithTheFormsMessages() throws {
        let given = try TestDatabase()
        let job = try imported(given, "name,email,home venue\n,nobody@example.org,\nBea,not-an-email,\nCy,cy@example.org,Atlantis\n")
        let found = try rows(given, job)
        #expect(found.map(\.decision) == [.skip, .skip, .skip])
        #expect(found[0].errors.map(\.field) == ["name"])
        #expect(found[1].errors.map(\.field) == ["email"])
        #expect(found[2].errors.first?.message.contains("No venue is named “Atlantis”") == true)
        #expect(try given.database.importSummary(of: job.id).withProblems == 3)
        #expect(throws: ValidationError.self) { try given.database.setImportDecisions(of: job.id, [2: .create]) }
    }

    @Test func duplicatesAgainstStoredRecordsAndInsideTheFile() throws {
        let given = try TestDatabase()
        let stored = try given.database.createParticipant(ParticipantInput(name: "Émile Dubois", email: "emile@example.org", phone: "+33 1 23 45 67 89"), by: actor)
        let namesake = try given.database.createParticipant(ParticipantInput(name: "Zoë Martin", email: "zoe@example.org"), by: actor)
        let job = try imported(given, """
            name,email,phone,notes
            Emile Dubois,EMILE@example.org,,Moved in March
            ZOE MARTIN,zoe.martin@example.org,,
            Ann Lee,ann@example.org,,
            Ann Lee,ann@example.org,,
            Ann Lee,ann@example.org,+44 20 7946 0000,
            Bo Ek,bo@example.org,,
            Bo Ek,bo.ek@example.org,,
            """)
        let found = try rows(given, job)
        #expect(found.map(\.matchReason) == [.sameKey, .sameName, nil, .sameAsRow, .keyOfRow, nil, .nameOfRow])
        #expect(found.map(\.decision) == [.merge, .create, .create, .skip, .merge, .create, .create])
        #expect(found[0].matchId == stored.id && found[0].matchName == "Émile Dubois")
        #expect(found[1].matchId == namesake.id)
        #expect(found[3].matchLine == 4 && found[4].matchLine == 4)
        #expect(try rows(given, job, .duplicates).count == 5)

        let done = try run(given, job)
        #expect((done.created, done.merged, done.skipped) == (4, 2, 1))
        let emile = try given.database.participant(id: stored.id)
        #expect(emile.notes == "Moved in March")
        #expect(emile.phone == "+33 1 23 45 67 89", "an empty cell keeps the stored value")
        let ann = try given.database.participantMatches("Ann Lee").items
        #expect(ann.count == 1)
        #expect(try given.database.participant(id: ann[0].participant.id).phone == "+44 20 7946 0000")
        #expect(try given.database.participantMatches("Martin").items.count == 2)
    }

    @Test func namesTypedDifferentlyAreShownAsPossibleDuplicates() throws {
        let given = try TestDatabase()
        let john = try given.database.createParticipant(ParticipantInput(name: "John Smith", email: "john@example.org"), by: actor)
        let job = try imported(given, """
            name,email
            Jon Smith,jon@example.org
            Amina Odhiambo,amina@example.org
            Amina Odhimabo,amina.o@example.org
            Grace Hopper,grace@example.org
            """)
        let found = try rows(given, job)
        #expect(found.map(\.matchReason) == [.similarName, nil, .similarToRow, nil])
        #expect(found.map(\.decision) == [.create, .create, .create, .create], "a close name is added unless a person says otherwise")
        #expect(found[0].matchId == john.id && found[0].matchName == "John Smith" && found[0].comparesWithStored)
        #expect(found[0].choices == ImportDecision.allCases, "it may be merged into the stored record")
        #expect(found[2].matchLine == 3)
        #expect(try rows(given, job, .duplicates).count == 2)
    }

    @Test func aMergeKeepsTheStoredValuesChosenFieldByField() throws {
        let given = try TestDatabase()
        let stored = try given.database.createParticipant(ParticipantInput(name: "Émile Dubois", email: "emile@example.org", phone: "+33 1 23 45 67 89",
                                                                           notes: "Evenings"), by: actor)
        let job = try imported(given, "name,email,phone,notes\nEmile DUBOIS,emile@example.org,+33 9 99 99 99 99,Mornings\n")
        let compared = try given.database.importRow(of: job.id, line: 2)
        #expect(compared.row.comparesWithStored)
        #expect(compared.stored[.phone] == "+33 1 23 45 67 89" && compared.stored[.notes] == "Evenings" && compared.stored[.name] == "Émile Dubois")
        try given.database.setImportMerge(of: job.id, line: 2, keeping: [.name, .phone])
        #expect(try rows(given, job)[0].keptFields == [.name, .phone])
        let done = try run(given, job)
        #expect(done.merged == 1)
        let merged = try given.database.participant(id: stored.id)
        #expect((merged.name, merged.phone, merged.notes) == ("Émile Dubois", "+33 1 23 45 67 89", "Mornings"))
    }

    @Test func choosingAnotherDecisionForgetsTheFieldsKept() throws {
        let given = try TestDatabase()
        _ = try given.database.createParticipant(ParticipantInput(name: "Ada", email: "ada@example.org"), by: actor)
        let job = try imported(given, "name,email,phone\nAda King,ada@example.org,+44 20 7946 0000\n")
        try given.database.setImportMerge(of: job.id, line: 2, keeping: [.name])
        try given.database.setImportDecisions(of: job.id, [2: .create])
        #expect(try rows(given, job)[0].keptFields.isEmpty)
    }

    @Test func changedColumnsCheckEveryRowAgain() throws {
        let given = try TestDatabase()
        let job = try imported(given, "Person,Contact\nAda,ada@example.org\n")
        #expect(job.mapping.fields == [.name, nil])
        #expect(try rows(given, job)[0].errors.map(\.field) == ["email"])
        #expect(throws: ValidationError.self) { try given.database.setImportMapping(of: job.id, ImportMapping(fields: [.email, .email])) }
        try given.database.setImportMapping(of: job.id, ImportMapping(fields: [.name, .email]))
        let row = try rows(given, job)[0]
        #expect(row.errors.isEmpty && row.decision == .create && row.values[.email] == "ada@example.org")
    }

    @Test func aFileOfIdsAndPhonesUpdatesThePhonesAlone() throws {
        let given = try TestDatabase()
        let ada = try given.database.createParticipant(ParticipantInput(name: "Ada", email: "ada@example.org", notes: "Evenings"), by: actor)
        let job = try imported(given, """
            id,phone
            \(ada.id.lowercaseText),+44 20 7946 0000
            \(UUID().uuidString),+44 20 7946 0001
            """)
        #expect(job.mapping.problems(headers: job.headers, target: .participants).isEmpty, "ids stand for the names")
        let found = try rows(given, job)
        #expect(found[0].errors.isEmpty && found[0].decision == .merge)
        #expect(found[1].errors.map(\.field).contains("name"), "an id that is not here is someone new, who needs a name")
        #expect(try run(given, job).merged == 1)
        let updated = try given.database.participant(id: ada.id)
        #expect((updated.name, updated.email, updated.phone, updated.notes) == ("Ada", "ada@example.org", "+44 20 7946 0000", "Evenings"))
    }

    @Test func rowsNamingATakenIdAreNeverAddedTwice() throws {
        let given = try TestDatabase()
        let stored = try given.database.createParticipant(ParticipantInput(name: "Ada", email: "ada@example.org"), by: actor)
        let fresh = UUID()
        let job = try imported(given, """
            id,name,email
            \(stored.id.lowercaseText),Ada King,ada@example.org
            \(fresh.lowercaseText),Bea,bea@example.org
            \(fresh.lowercaseText),Bea Smith,bea.smith@example.org
            ,,
            """)
        let found = try rows(given, job)
        #expect(found.map(\.matchReason) == [.sameID, nil, .idOfRow])
        #expect(found.map(\.decision) == [.merge, .create, .merge])
        #expect(found[0].choices == [.merge, .skip] && found[2].choices == [.merge, .skip])
        #expect(job.rowCount == 3, "a row of empty cells is nobody")
        try given.database.setImportDecisionForMatches(of: job.id, .create)
        #expect(try rows(given, job).map(\.decision) == [.merge, .create, .merge])
        let done = try run(given, job)
        #expect((done.state, done.created, done.merged) == (.done, 1, 2))
        #expect(try given.database.participant(id: stored.id).name == "Ada King")
        #expect(try given.database.participant(id: fresh).name == "Bea Smith")
    }

    @Test func aRowWhoseIdWasTakenAfterTheReviewIsRefusedNotWrittenOver() throws {
        let given = try TestDatabase()
        let id = UUID()
        let job = try imported(given, "id,name,email\n\(id.lowercaseText),Bea,bea@example.org\n")
        #expect(try rows(given, job).map(\.decision) == [.create])
        // Before the import runs, a record with the file's id arrives (as another node's does, by sync).
        _ = try given.database.transaction(by: actor) { transaction in
            try transaction.create(Participant.self, ParticipantInput(name: "Cy", email: "cy@example.org").validated(), id: id)
        }
        let outbox = try given.outboxCount()
        let done = try run(given, job)
        #expect(done.state == .failed)
        #expect(done.failure?.contains("Row 2 could not be imported: Another participant already has the id \(id.lowercaseText)") == true,
                "\(done.failure ?? "")")
        #expect(try given.database.participant(id: id).name == "Cy" && given.outboxCount() == outbox)
    }

    @Test func filesThatAreNotParticipantListsAreRefusedWithAReason() throws {
        let given = try TestDatabase()
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D]
        for (bytes, words) in [([UInt8](), "empty"), (png, "not a CSV file"), (Array("name,email\n".utf8), "no participants under it"),
                              (Array("name,email\nAda,ada@example.org\n\"Bea,bea@example.org\nCy,cy@example.org\n".utf8), "opened on row 3 is never closed")] {
            #expect {
                try given.database.createImport(fromFile: file(given, bytes), named: "x.csv", by: user)
            } throws: { ($0 as? ImportRefusal)?.message.contains(words) == true }
        }
    }

    @Test func aRowThatFailsWhenWrittenKeepsNothingOfTheImport() throws {
        let given = try TestDatabase()
        let area = try given.database.createArea(AreaInput(name: "City", areaType: "CITY", parentId: ""), by: actor)
        let hall = try given.database.createVenue(VenueInput(name: "Hall", address: "1 Road", areaId: area.id.uuidString), by: actor)
        let job = try imported(given, "name,email,home venue\nAda,ada@example.org,\nBea,bea@example.org,hall\n")
        #expect(try rows(given, job).map(\.errors.isEmpty) == [true, true])
        try given.database.deleteVenue(id: hall.id, by: actor)
        let outbox = try given.outboxCount()
        let done = try run(given, job)
        #expect(done.state == .failed)
        #expect(done.failure?.contains("Row 3 could not be imported: No venue is named “hall”") == true)
        #expect(try given.database.participantMatches("Ada").items.isEmpty)
        #expect(try given.outboxCount() == outbox)
    }

    @Test func aCancelledImportKeepsNothingAndAQueuedOneNeverStarts() throws {
        let given = try TestDatabase()
        let job = try imported(given, "name,email\n" + (1...600).map { "Person \($0),p\($0)@example.org\n" }.joined())
        try given.database.queueImport(job.id)
        let runner = ImportRunner(database: given.database, logger: .init(label: "test"))
        try runner.cancel(job.id)
        #expect(runner.runOnce() == 0)
        #expect(try given.database.importJob(id: job.id).state == .cancelled)
        #expect(try given.database.participantMatches("Person").items.isEmpty)
    }

    @Test func anImportCancelledPartWayIsRolledBack() throws {
        let given = try TestDatabase()
        let job = try imported(given, "name,email\n" + (1...600).map { "Person \($0),p\($0)@example.org\n" }.joined())
        var asked = 0, reported: [Int] = []
        // Asked before rows 1, 257 and 513: the cancel comes with 256 rows written inside the transaction.
        #expect(throws: ImportCancelled.self) {
            try given.database.writeImport(given.database.importJob(id: job.id), by: actor, progress: { reported.append($0) },
                                           isCancelled: { asked += 1; return asked == 2 })
        }
        #expect(reported == [0])
        #expect(try given.database.participantMatches("Person").items.isEmpty)
        #expect(try given.outboxCount() == 0)
    }

    @Test func fieldbooksOwnExportImportsIntoAnEmptyFieldbookWithItsIds() throws {
        let source = try TestDatabase()
        var people: [Participant] = []
        for (name, notes) in [("Ada", "=1+2"), ("Émile \"Le Grand\"", "line one\nline two"), ("Zoë", "")] {
            people.append(try source.database.createParticipant(ParticipantInput(name: name, email: "\(people.count)@example.org", notes: notes), by: actor))
        }
        var csv: [UInt8] = []
        _ = try source.database.exportParticipants(ParticipantQuery(), seen: .everything, as: .csv) { csv += $0; return true }
        let target = try TestDatabase()
        let job = try target.database.createImport(fromFile: file(target, csv), named: "participants.csv", by: user)
        #expect(job.mapping.fields.compactMap { $0 } == [.id, .name, .email, .phone, .notes, .homeVenue])
        #expect(try run(target, job).created == 3)
        for person in people {
            let copy = try target.database.participant(id: person.id)
            #expect((copy.name, copy.email, copy.phone, copy.notes) == (person.name, person.email, person.phone, person.notes))
        }
        // The same file again: every row is the participant it names, merged, and nothing changes.
        let again = try target.database.createImport(fromFile: file(target, csv), named: "participants.csv", by: user)
        #expect(try rows(target, again).map(\.matchReason) == [.sameID, .sameID, .sameID])
        #expect(try run(target, again).merged == 3)
        #expect(try target.database.participant(id: people[0].id).version == 1)
    }
}
