import Domain
import Foundation
import HTTPServer
import Hub
import Imaging
import Storage
import TestSupport
import Testing

/// Photos from the pages (issue 14): uploads judged by content and stripped of metadata, a form sent back without losing
/// the upload, the gallery, the files by hash, and files removed once nobody shows them.
@Suite struct PhotoPageTests {
    func editor() async throws -> (WebHarness, Participant) {
        let given = try await WebHarness()
        try given.createUser("ed@example.org", .editor)
        given.signIn("ed@example.org")
        let ada = try given.database.createParticipant(ParticipantInput(name: "Ada Lovelace", email: "ada@example.org"), by: .system("test"))
        return (given, ada)
    }

    func uploadForm(_ ada: Participant) -> String { "/photos/new?participant_id=\(ada.id.lowercaseText)" }

    @Test func aPhotoWithGPSIsKeptUprightWithoutItsMetadataAndShownInTheGallery() async throws {
        let (given, ada) = try await editor()
        let answer = try given.upload("/photos", field: "photo", filename: "IMG_0001.jpg", try PhotoFixtures.bytes(PhotoFixtures.withGPS),
                                      fields: [("participant_id", ada.id.lowercaseText), ("caption", "Ada at the community garden")],
                                      formPath: uploadForm(ada))
        #expect(answer.status == .seeOther)
        #expect(answer.header("Location") == "/participants/\(ada.id.lowercaseText)#photos")
        let photo = try #require(try given.database.photos(of: .participant(ada.id)).first?.photo)
        #expect(photo.caption == "Ada at the community garden")
        #expect(photo.takenOn == CalendarDate("2024-05-01"))
        #expect(photo.display.width == 80 && photo.display.height == 120)
        let stored = try PhotoFixtures.bytesAt(given.database.photoFiles.path(photo.display.sha256))
        #expect(!PhotoFixtures.carriesMetadata(stored))
        #expect(PhotoFileRules.sha256(stored) == photo.display.sha256)

        let page = given.get("/participants/\(ada.id.lowercaseText)").bodyText
        #expect(page.contains("<img class=\"gallery__image\" src=\"/photo-files/\(photo.thumbnail.sha256)\""))
        #expect(page.contains("<span class=\"gallery__caption\">Ada at the community garden</span>"))
        let shown = given.get("/photos/\(photo.id.lowercaseText)").bodyText
        #expect(shown.contains("alt=\"Ada at the community garden\" width=\"80\" height=\"120\""))

        let file = given.get("/photo-files/\(photo.display.sha256)")
        #expect(file.status == .ok && file.file?.size == stored.count)
        #expect(file.header("ETag") == "\"\(photo.display.sha256)\"" && file.header("Content-Type") == "image/jpeg")
        var again = Request(method: .get, path: "/photo-files/\(photo.display.sha256)", cookies: given.cookies)
        again.headers["if-none-match"] = "\"\(photo.display.sha256)\""
        #expect(given.send(again).status == .notModified)
        #expect(given.get("/photo-files/" + String(repeating: "0", count: 64)).status == .notFound)
    }

    @Test func aFormSentBackForItsCaptionKeepsTheUpload() async throws {
        let (given, ada) = try await editor()
        let answer = try given.upload("/photos", field: "photo", filename: "garden.jpg", try PhotoFixtures.bytes(PhotoFixtures.pngNamedJPEG),
                                      fields: [("participant_id", ada.id.lowercaseText), ("taken_on", "2025-02-30")], formPath: uploadForm(ada))
        #expect(answer.status == .unprocessableContent)
        let html = answer.bodyText
        #expect(html.contains("Describe the photo in a few words"))
        #expect(html.contains("Enter the day the photo was taken as a real day"))
        #expect(html.contains("Your photo is uploaded and kept"))
        let kept = try #require(html.range(of: "name=\"kept_display\" value=\"")).upperBound
        let display = String(html[kept...].prefix(64))
        let thumbnailStart = try #require(html.range(of: "name=\"kept_thumbnail\" value=\"")).upperBound
        let thumbnail = String(html[thumbnailStart...].prefix(64))
        let saved = given.post("/photos", [("participant_id", ada.id.lowercaseText), ("caption", "The garden gate"), ("taken_on", ""),
                                           ("kept_display", display), ("kept_thumbnail", thumbnail)], formPath: uploadForm(ada))
        #expect(saved.status == .seeOther)
        let photo = try #require(try given.database.photos(of: .participant(ada.id)).first?.photo)
        #expect(photo.display.sha256 == display && photo.display.width == 64 && photo.takenOn == nil)
        // So small a photo is its own thumbnail (one file), and is here, not waiting for a sync.
        #expect(try given.database.photo(id: photo.id).isHere)
        #expect(!given.get("/participants/\(ada.id.lowercaseText)").bodyText.contains("Arrives with the next sync"))
    }

    @Test func filesThatAreNotWholePhotosAreRefusedWithWhatToDo() async throws {
        let (given, ada) = try await editor()
        func send(_ bytes: [UInt8]) throws -> String {
            let answer = try given.upload("/photos", field: "photo", filename: "photo.jpg", bytes,
                                          fields: [("participant_id", ada.id.lowercaseText), ("caption", "Typed caption")], formPath: uploadForm(ada))
            #expect(answer.status == .unprocessableContent)
            return answer.bodyText
        }
        let html = try send(Array("<html><script>alert(1)</script></html>".utf8))
        #expect(html.contains("This file is not a photo Fieldbook can read"))
        #expect(html.contains("value=\"Typed caption\""))
        #expect(try send(try PhotoFixtures.truncatedJPEG()).contains("This photo is damaged or incomplete"))
        #expect(try send([]).contains("Choose a photo to upload"))
        #expect(try send([UInt8](repeating: 0xFF, count: PhotoLimits.uploadBytes + 1)).contains("photos may be up to 40 MB"))
        #expect(try given.database.photos(of: .participant(ada.id)).isEmpty)
    }

    @Test func aReaderSeesPhotosButCannotAddOrDeleteThem() async throws {
        let (given, ada) = try await editor()
        let photo = try given.addPhoto(to: ada)
        try given.createUser("reader@example.org", .readOnly)
        given.signIn("reader@example.org")
        #expect(given.get("/photos/\(photo.id.lowercaseText)").status == .ok)
        #expect(given.get("/photo-files/\(photo.thumbnail.sha256)").status == .ok)
        #expect(given.get(uploadForm(ada)).status == .forbidden)
        #expect(given.get("/photos/\(photo.id.lowercaseText)/delete").status == .forbidden)
        #expect(!given.get("/participants/\(ada.id.lowercaseText)").bodyText.contains("Add a photo"))
    }

    @Test func filesGoOnceNoPhotoShowsThem() async throws {
        let (given, ada) = try await editor()
        let first = try given.addPhoto(to: ada)
        let other = try given.database.createParticipant(ParticipantInput(name: "Grace Hopper", email: "grace@example.org"), by: .system("test"))
        let second = try given.addPhoto(to: other)
        #expect(first.display.sha256 == second.display.sha256)
        let files = given.database.photoFiles
        let sweeper = PhotoFileSweeper.chore(database: given.database, logger: .init(label: "test"))

        #expect(given.post("/photos/\(first.id.lowercaseText)/delete", [], formPath: "/photos/\(first.id.lowercaseText)/delete").status == .seeOther)
        #expect(sweeper.runOnce() == 0)
        #expect(files.exists(first.display.sha256), "Grace's photo still shows the same image")

        try given.database.deleteParticipant(id: other.id, by: .system("test"))
        #expect(try given.database.photos(of: .participant(other.id)).isEmpty)
        #expect(sweeper.runOnce() == 2)
        #expect(!files.exists(second.display.sha256) && !files.exists(second.thumbnail.sha256))
    }

    @Test func aLoggedVisitTakesPhotosShownOnItsStop() async throws {
        let (given, _) = try await editor()
        let editor = try #require(try given.database.users().first { $0.email == "ed@example.org" })
        let area = try given.database.createArea(AreaInput(name: "Riverside", areaType: "CITY", parentId: ""), by: .system("test"))
        let venue = try given.database.createVenue(VenueInput(name: "Green house", address: "4 River Road", areaId: area.id.uuidString), by: .system("test"))
        let list = try given.database.createVisitList(VisitListInput(name: "Doors", visitDate: "2026-12-01", assigneeId: editor.id.lowercaseText),
                                                      stops: .picked([]), by: .system("test"))
        let stop = try given.database.addStop(venue: venue.id.lowercaseText, participant: "", toList: list.id, by: .system("test"))
        let log = try given.database.logContact(ContactLogInput(result: "MET"), atStop: stop.id, onList: list.id, by: editor)
        let stopPage = "/visit-lists/\(list.id.lowercaseText)/stops/\(stop.id.lowercaseText)"
        let form = "/photos/new?contact_log_id=\(log.id.lowercaseText)"
        #expect(given.get(stopPage).bodyText.contains("href=\"\(form)\""))
        let answer = try given.upload("/photos", field: "photo", filename: "door.jpg", try PhotoFixtures.bytes(PhotoFixtures.withGPS),
                                      fields: [("contact_log_id", log.id.lowercaseText), ("caption", "The flyer left at the door")], formPath: form)
        #expect(answer.status == .seeOther && answer.header("Location") == stopPage + "#photos")
        #expect(given.get(stopPage).bodyText.contains("<span class=\"gallery__caption\">The flyer left at the door</span>"))
        let photo = try #require(try given.database.photos(of: .contactLog(log.id)).first?.photo)
        let shown = given.get("/photos/\(photo.id.lowercaseText)").bodyText
        #expect(shown.contains("the visit to Green house") && shown.contains("(logged visit)"))
        // Another editor, not the list's organizer, sees the photo but cannot add or change the visit's photos.
        try given.createUser("other@example.org", .editor)
        given.signIn("other@example.org")
        #expect(given.get(form).status == .forbidden)
        #expect(given.get("/photos/\(photo.id.lowercaseText)/delete").status == .forbidden)
        #expect(!given.get("/photos/\(photo.id.lowercaseText)").bodyText.contains("Delete photo"))
    }

    @Test func filesReceivedFromAnotherFieldbookWaitForTheirPhotoAndAnUploadLeftTooLongIsAskedForAgain() async throws {
        let (given, ada) = try await editor()
        let kept = try given.database.keepUpload(try PhotoProcessor.prepare(path: PhotoFixtures.url(PhotoFixtures.pngNamedJPEG).path))
        let received = try PhotoProcessor.prepare(path: PhotoFixtures.url(PhotoFixtures.withGPS).path).display.bytes
        try given.database.keepReceivedPhotoFile(received, sha256: PhotoFileRules.sha256(received), onHub: true)
        // Long after: the upload whose form was left goes; the file a node sent ahead of its photo stays.
        #expect(try given.database.sweepPhotoFiles(unattachedFor: -1) == 1)
        #expect(!given.database.photoFiles.exists(kept.display.sha256))
        #expect(given.database.photoFiles.exists(PhotoFileRules.sha256(received)))
        let saved = given.post("/photos", [("participant_id", ada.id.lowercaseText), ("caption", "Late"),
                                           ("kept_display", kept.display.sha256), ("kept_thumbnail", kept.thumbnail.sha256)],
                               formPath: uploadForm(ada))
        #expect(saved.status == .unprocessableContent && saved.bodyText.contains("Choose a photo to upload"))
        #expect(throws: ValidationError.self) {
            try given.database.addPhoto(to: .participant(ada.id), PhotoInput(caption: "Late"), display: kept.display, thumbnail: kept.thumbnail,
                                        by: .system("test"))
        }
    }

    @Test func mergingParticipantsKeepsThePhotosOfBoth() async throws {
        let (given, ada) = try await editor()
        let twin = try given.database.createParticipant(ParticipantInput(name: "Ada L.", email: "ada.l@example.org"), by: .system("test"))
        let photo = try given.addPhoto(to: twin)
        let merged = try given.database.mergeParticipants(ParticipantMerge(kept: ada.id, removed: twin.id), by: .system("test"))
        #expect(try given.database.photos(of: .participant(merged.id)).map(\.photo.id) == [photo.id])
    }
}

extension WebHarness {
    /// A photo added as the upload form would add it, from the GPS fixture.
    func addPhoto(to participant: Participant, caption: String = "At the garden") throws -> Photo {
        try addPhoto(to: .participant(participant.id), caption: caption)
    }

    func addPhoto(to subject: PhotoSubject, caption: String) throws -> Photo {
        let path = directory.appendingPathComponent("fixture-\(UUID().uuidString).jpg").path
        try Data(try PhotoFixtures.bytes(PhotoFixtures.withGPS)).write(to: URL(fileURLWithPath: path))
        let kept = try database.keepUpload(try PhotoProcessor.prepare(path: path))
        return try database.addPhoto(to: subject, PhotoInput(caption: caption), display: kept.display, thumbnail: kept.thumbnail, by: .system("test"))
    }
}
