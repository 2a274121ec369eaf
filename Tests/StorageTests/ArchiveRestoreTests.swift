import Domain
import Foundation
import Imaging
@testable import Storage
import TestSupport
import Testing

/// Restoring an export of everything into an empty Fieldbook (issue 14's round trip): the same records, written
/// through the one row writer and recorded for sync; records already here kept; nothing kept when a record fails.
@Suite struct ArchiveRestoreTests {
    let actor = Actor.system("test")

    /// An export's files in memory, read as the runner reads an uploaded archive.
    struct MemoryArchive: ArchiveFiles {
        let files: [String: [UInt8]]
        var fileNames: [String] { Array(files.keys) }

        func read(_ name: String, _ emit: ([UInt8]) throws -> Void) throws {
            let bytes = files[name] ?? []
            // In uneven parts, so records and strings are cut across parts.
            var start = 0
            while start < bytes.count {
                try emit(Array(bytes[start..<min(start + 777, bytes.count)]))
                start += 777
            }
        }
    }

    func user(_ database: AppDatabase, _ email: String) throws -> User {
        try database.createUser(NewUserInput(name: "Ada", email: email, role: "administrator", password: "correct horse battery staple",
                                             passwordConfirmation: "correct horse battery staple"), by: actor)
    }

    /// A community with every kind of record the export holds: demo data, a visit list with a stop and a contact log.
    func community() throws -> (TestDatabase, MemoryArchive) {
        let given = try TestDatabase()
        let organizer = try user(given.database, "organizer@example.org")
        _ = try given.database.importDemoCommunity(size: DemoCommunity.Size(venues: 6, participants: 30, activities: 8), seed: 11)
        let venue = try given.database.venues(VenueQuery()).items[0].venue
        let list = try given.database.createVisitList(VisitListInput(name: "Doors on \"Quay\" Street", visitDate: "2026-12-01",
                                                                     assigneeId: organizer.id.databaseText), stops: .picked([]), by: actor)
        let stop = try given.database.addStop(venue: venue.id.databaseText, participant: "", toList: list.id, by: actor)
        try given.database.logContact(ContactLogInput(result: "MET", note: "Said: \"call back\" {soon} \\o/"), atStop: stop.id, onList: list.id, by: organizer)
        let kept = try given.database.keepUpload(try PhotoProcessor.prepare(path: PhotoFixtures.url(PhotoFixtures.withGPS).path))
        try given.database.addPhoto(to: .venue(venue.id), PhotoInput(caption: "The front door", takenOn: "2026-11-02"),
                                    display: kept.display, thumbnail: kept.thumbnail, by: actor)
        var archive = ExportEverythingTests.CollectedArchive()
        try given.database.exportArchive(.everything, as: .json, into: &archive)
        return (given, MemoryArchive(files: Dictionary(uniqueKeysWithValues: archive.files.map { ($0.name, $0.bytes) })))
    }

    func restore(_ target: TestDatabase, _ archive: MemoryArchive, by user: UUID) throws -> ImportJob {
        let upload = target.directory.appendingPathComponent("upload.zip").path
        try Data("stands for the ZIP file".utf8).write(to: URL(fileURLWithPath: upload))
        let job = try target.database.createArchiveImport(fromFile: upload, named: "fieldbook.zip", by: user) { _ in archive }
        try target.database.queueImport(job.id)
        #expect(ImportRunner(database: target.database, logger: .init(label: "test"), openArchive: { _ in archive }).runOnce() == 1)
        return try target.database.importJob(id: job.id)
    }

    /// Each exported file's records by id, as the export writes them, less the columns named.
    func records(_ archive: MemoryArchive, leaving left: Set<String> = []) throws -> [String: [String: NSDictionary]] {
        var all: [String: [String: NSDictionary]] = [:]
        for name in archive.fileNames where name != AppDatabase.manifestFile && !name.hasPrefix("photos/") {
            let rows = try JSONSerialization.jsonObject(with: Data(archive.files[name]!)) as! [[String: Any]]
            all[name] = Dictionary(uniqueKeysWithValues: rows.map { row in
                (row["id"] as! String, NSDictionary(dictionary: row.filter { !left.contains($0.key) }))
            })
        }
        return all
    }

    @Test func everythingExportedIsRestoredTheSameIntoAnEmptyFieldbook() throws {
        let (source, archive) = try community()
        let target = try TestDatabase()
        let restorer = try user(target.database, "restorer@example.org")
        let job = try restore(target, archive, by: restorer.id)
        #expect(job.state == .done, "\(job.failure ?? "")")
        let predefined = CategoryKind.allCases.reduce(0) { $0 + $1.predefined.count }
        #expect(job.skipped == predefined, "the predefined categories are already here")
        #expect(job.created + job.skipped == job.rowCount)
        #expect(job.note == "1 visit list was assigned to you: the people they were assigned to have no account here. Reassign them on their pages.")

        var again = ExportEverythingTests.CollectedArchive()
        try target.database.exportArchive(.everything, as: .json, into: &again)
        let copy = MemoryArchive(files: Dictionary(uniqueKeysWithValues: again.files.map { ($0.name, $0.bytes) }))
        var expected = try records(archive), restored = try records(copy)
        // The visit list now belongs to the person restoring; contact logs name who logged them as they were.
        let listId = try #require(expected["visit_lists.json"]?.keys.first)
        #expect((restored["visit_lists.json"]?[listId]?["assigned_user_id"] as? String) == restorer.id.databaseText)
        expected["visit_lists.json"]?[listId] = nil
        restored["visit_lists.json"]?[listId] = nil
        // Predefined categories were kept, not restored: each Fieldbook made its own at its own moment.
        for file in ["activity_types.json", "participant_roles.json"] {
            expected[file] = expected[file]?.filter { $0.value["is_predefined"] as? Int != 1 }
            restored[file] = restored[file]?.filter { $0.value["is_predefined"] as? Int != 1 }
        }
        #expect(expected == restored)
        #expect(try target.outboxCount() == job.created + 1, "every record restored is queued for the hub, as is the account made first")

        // Photos come back with their files, the same bytes under the same hashes.
        let photo = try #require(try source.database.read { db in try Photo.fetchOne(db) })
        #expect(try target.database.photo(id: photo.id).isHere)
        for sha in [photo.display.sha256, photo.thumbnail.sha256] {
            #expect(archive.files[PhotoFiles.archiveMember(sha)] == (try PhotoFixtures.bytesAt(source.database.photoFiles.path(sha))))
            #expect(try PhotoFixtures.bytesAt(target.database.photoFiles.path(sha)) == archive.files[PhotoFiles.archiveMember(sha)])
        }
        #expect(again.files.contains { $0.name == PhotoFiles.archiveMember(photo.display.sha256) })
    }

    @Test func aRestoreRunTwiceKeepsWhatIsHereAndAFailingRecordKeepsNothing() throws {
        let (_, archive) = try community()
        let target = try TestDatabase()
        let restorer = try user(target.database, "restorer@example.org")
        let first = try restore(target, archive, by: restorer.id)
        let second = try restore(target, archive, by: restorer.id)
        #expect(second.state == .done && second.created == 0 && second.skipped == first.rowCount)

        var broken = archive.files
        let text = String(decoding: broken["participants.json"]!, as: UTF8.self)
        broken["participants.json"] = Array(text.replacingOccurrences(of: "\"email\":\"", with: "\"email\":\"@@").utf8)
        let empty = try TestDatabase()
        let failed = try restore(empty, MemoryArchive(files: broken), by: try user(empty.database, "r@example.org").id)
        #expect(failed.state == .failed)
        #expect(failed.failure?.hasPrefix("participants.json, record 1: Enter an email address") == true, "\(failed.failure ?? "")")
        #expect(try empty.database.participants(ParticipantQuery.unfiltered).total == 0)
        #expect(try empty.database.venues(VenueQuery()).total == 0, "the venues written before the failure are rolled back")
    }

    @Test func recordsDeletedHereStayDeletedAndAPartOfACommunityNeedsWhatItRefersTo() throws {
        let (source, archive) = try community()
        let target = try TestDatabase()
        let restorer = try user(target.database, "restorer@example.org")
        _ = try restore(target, archive, by: restorer.id)
        let gone = try target.database.participants(ParticipantQuery.unfiltered).items[0].participant
        try target.database.deleteParticipant(id: gone.id, by: actor)
        let again = try restore(target, archive, by: restorer.id)
        // The participant, and with them their assignments and address history.
        #expect(again.created == 0 && again.note?.hasSuffix("records were deleted here after the export was made, so they were not restored.") == true,
                "\(again.note ?? "")")
        #expect(throws: DomainError.self) { try target.database.participant(id: gone.id) }

        // An area inside another, exported alone, restored where its parent area is not.
        let parent = try source.database.createArea(AreaInput(name: "Region", areaType: "CITY", parentId: ""), by: actor)
        let child = try source.database.createArea(AreaInput(name: "Town", areaType: "NEIGHBOURHOOD", parentId: parent.id.uuidString), by: actor)
        var part = ExportEverythingTests.CollectedArchive()
        try source.database.exportArchive(.area(child.id), as: .json, into: &part)
        let empty = try TestDatabase()
        let failed = try restore(empty, MemoryArchive(files: Dictionary(uniqueKeysWithValues: part.files.map { ($0.name, $0.bytes) })),
                                 by: try user(empty.database, "r@example.org").id)
        #expect(failed.state == .failed)
        #expect(failed.failure?.hasPrefix("An area in the export refers to an area that is neither in the export nor here.") == true,
                "\(failed.failure ?? "")")
        #expect(try empty.database.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM geographic_areas") } == 0)
    }

    @Test func anExportCannotBringAccountsOrOversizedRecords() throws {
        let target = try TestDatabase()
        let upload = target.directory.appendingPathComponent("upload.zip").path
        let manifest = Array("{\"format\":\"fieldbook-export\",\"version\":1,\"files\":[{\"file\":\"users.json\",\"entity\":\"user\",\"count\":1}]}".utf8)
        try Data().write(to: URL(fileURLWithPath: upload))
        #expect {
            try target.database.createArchiveImport(fromFile: upload, named: "x.zip", by: UUID()) { _ in
                MemoryArchive(files: [AppDatabase.manifestFile: manifest, "users.json": Array("[{\"id\":\"x\",\"role\":\"administrator\"}]".utf8)])
            }
        } throws: { ($0 as? ImportRefusal)?.message.contains("holds records an export never holds (user)") == true }

        var splitter = JSONObjectSplitter()
        #expect(throws: ImportRefusal.self) {
            try splitter.read(Array("[{\"notes\":\"".utf8) + [UInt8](repeating: 65, count: JSONObjectSplitter.maxRecordBytes)) { _ in }
        }
        var records: [String] = []
        var cut = JSONObjectSplitter()
        for part in ["[{\"a\":\"}{\\\"", "\"},", "{\"b\":1}]"] { try cut.read(Array(part.utf8)) { records.append(String(decoding: $0, as: UTF8.self)) } }
        #expect(records == ["{\"a\":\"}{\\\"\"}", "{\"b\":1}"] && cut.isComplete)
    }

    @Test func archivesThatAreNotFieldbookExportsAreRefused() throws {
        let target = try TestDatabase()
        let upload = target.directory.appendingPathComponent("upload.zip").path
        for (files, words) in [(["notes.txt": [UInt8]()], "not a Fieldbook export"),
                               ([AppDatabase.manifestFile: Array("{\"format\":\"fieldbook-export\",\"version\":1,\"files\":[{\"file\":\"participants.csv\",\"entity\":\"participant\",\"count\":1}]}".utf8),
                                 "participants.csv": []], "holds CSV files")] {
            try Data().write(to: URL(fileURLWithPath: upload))
            #expect {
                try target.database.createArchiveImport(fromFile: upload, named: "x.zip", by: UUID()) { _ in MemoryArchive(files: files) }
            } throws: { ($0 as? ImportRefusal)?.message.contains(words) == true }
        }
    }
}
