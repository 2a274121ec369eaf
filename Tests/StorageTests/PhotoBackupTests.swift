import Domain
import Foundation
import Imaging
@testable import Storage
import TestSupport
import Testing

/// `fieldbook backup` copies the photo files its database copy shows (nothing is lost: not a photo).
@Suite struct PhotoBackupTests {
    @Test func theFilesTheCopyShowsAreCopiedOnceAndTheUnshownAreNot() throws {
        let given = try TestDatabase(linked: false)
        let ada = try given.database.createParticipant(ParticipantInput(name: "Ada", email: "ada@example.org"), by: .system("test"))
        let kept = try given.database.keepUpload(try PhotoProcessor.prepare(path: PhotoFixtures.url(PhotoFixtures.withGPS).path))
        try given.database.addPhoto(to: .participant(ada.id), PhotoInput(caption: "Ada"), display: kept.display, thumbnail: kept.thumbnail,
                                    by: .system("test"))
        let waiting = try given.database.keepUpload(try PhotoProcessor.prepare(path: PhotoFixtures.url(PhotoFixtures.pngNamedJPEG).path))
        let copy = given.directory.appendingPathComponent("backup.sqlite").path, folder = copy + ".photos"
        try given.database.backup(to: copy)

        let first = try given.database.backupPhotoFiles(shownBy: copy, to: folder)
        #expect(first == PhotoBackupSummary(copied: 2, alreadyThere: 0, missing: 0))
        let copied = PhotoFiles(folder: folder)
        #expect(try PhotoFixtures.bytesAt(copied.path(kept.display.sha256)) == (try PhotoFixtures.bytesAt(given.database.photoFiles.path(kept.display.sha256))))
        #expect(!copied.exists(waiting.display.sha256), "an upload no photo shows is not backed up")
        #expect(try given.database.backupPhotoFiles(shownBy: copy, to: folder) == PhotoBackupSummary(copied: 0, alreadyThere: 2, missing: 0))
    }
}
