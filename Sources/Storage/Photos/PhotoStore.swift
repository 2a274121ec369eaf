import Domain
import Foundation
import GRDB
import Hub
import Imaging
import Translations

/// A photo as pages and the API show it, with whether this node holds its files yet (a photo pulled from the hub
/// before its contents shows a placeholder until they arrive).
public struct PhotoEntry: Sendable, Equatable {
    public let photo: Photo
    public let isHere: Bool
}

/// An upload's files, kept until the photo that shows them is saved, and the day its camera recorded, if any.
public struct KeptUpload: Sendable {
    public let display: PhotoImage
    public let thumbnail: PhotoImage
    public let takenOn: String?
}

extension AppDatabase {
    public var photoFiles: PhotoFiles { PhotoFiles(folder: folderBeside("photos")) }

    /// An uploaded file (on disk, as the server spilled it) judged by its content, re-encoded and kept, for a page's
    /// form and the API alike; what is wrong with it is said for the `photo` field (422).
    public func keepUploadedPhoto(at path: String, size: Int) throws -> KeptUpload {
        guard size <= PhotoLimits.uploadBytes else { throw ValidationError([FieldError(field: "photo", message: PhotoLimits.tooLarge(size))]) }
        do {
            let prepared = try PhotoProcessor.prepare(path: path)
            let kept = try keepUpload(prepared)
            return KeptUpload(display: kept.display, thumbnail: kept.thumbnail, takenOn: prepared.takenOn)
        } catch let problem as PhotoProblem {
            throw ValidationError([FieldError(field: "photo", message: problem.description)])
        }
    }

    /// Keeps the display size and thumbnail of an upload, before the photo that will show them is saved (the form may
    /// still lack its caption: the files wait, and the form carries their hashes).
    public func keepUpload(_ prepared: PreparedPhoto) throws -> (display: PhotoImage, thumbnail: PhotoImage) {
        (try keepPhotoFile(prepared.display), try keepPhotoFile(prepared.thumbnail))
    }

    private func keepPhotoFile(_ image: EncodedImage) throws -> PhotoImage {
        let sha = try PhotoFiles.lock.withLock {
            let sha = try photoFiles.write(image.bytes)
            try listPhotoFile(sha, bytes: image.bytes.count, width: image.width, height: image.height, onHub: false, received: false)
            return sha
        }
        return PhotoImage(sha256: sha, width: image.width, height: image.height, bytes: image.bytes.count)
    }

    /// Keeps a file received from another Fieldbook (sync, a restored archive), which must have the hash it was sent as.
    public func keepReceivedPhotoFile(_ bytes: [UInt8], sha256: String, onHub: Bool) throws {
        try PhotoFileRules.checkReceived(bytes, sha256: sha256)
        try PhotoFiles.lock.withLock {
            try photoFiles.write(bytes)
            try listPhotoFile(sha256, bytes: bytes.count, width: nil, height: nil, onHub: onHub, received: true)
        }
    }

    private func listPhotoFile(_ sha: String, bytes: Int, width: Int?, height: Int?, onHub: Bool, received: Bool) throws {
        try writeLocal { db in try PhotoFiles.list(db, sha, bytes: bytes, width: width, height: height, onHub: onHub, received: received) }
    }

    /// An uploaded image this node keeps, by hash (a form shown again carries the hashes of its upload).
    public func keptUpload(_ sha256: String) throws -> PhotoImage? {
        guard PhotoImage.isContentAddress(sha256), photoFiles.exists(sha256) else { return nil }
        return try read { db in
            try Row.fetchOne(db, sql: "SELECT bytes, width, height FROM photo_files WHERE sha256 = ? AND width IS NOT NULL",
                             arguments: [sha256]).map { PhotoImage(sha256: sha256, width: $0["width"], height: $0["height"], bytes: $0["bytes"]) }
        }
    }

    @discardableResult
    public func addPhoto(to subject: PhotoSubject, _ input: PhotoInput, display: PhotoImage, thumbnail: PhotoImage,
                         by actor: Actor) throws -> Photo {
        let valid = try input.validated()
        return try transaction(by: actor) { try $0.addPhoto(to: subject, valid, display: display, thumbnail: thumbnail, by: actor) }
    }

    @discardableResult
    public func updatePhoto(id: UUID, _ input: PhotoInput, expectedVersion: Int?, by actor: Actor) throws -> Photo {
        let valid = try input.validated()
        return try transaction(by: actor) { transaction in
            let stored = try transaction.fetch(Photo.self, id: id)
            try transaction.ensureCurrent(stored, expected: expectedVersion)
            var edited = stored
            (edited.caption, edited.takenOn) = (valid.caption, valid.takenOn)
            return try transaction.save(edited, over: stored)
        }
    }

    /// Deletes the photo; its files go once no other photo shows them (`PhotoFileSweeper`).
    @discardableResult
    public func deletePhoto(id: UUID, by actor: Actor) throws -> Photo {
        try transaction(by: actor) { transaction in
            let photo = try transaction.fetch(Photo.self, id: id)
            try transaction.delete(photo)
            return photo
        }
    }

    /// The photos of each of these logged visits, oldest first (a stop's page shows them under each visit).
    public func photos(ofContactLogs logs: [UUID]) throws -> [UUID: [PhotoEntry]] {
        guard !logs.isEmpty else { return [:] }
        return try read { db in
            let photos = try Photo.fetchAll(db, sql: """
                SELECT * FROM photos WHERE contact_log_id IN (\(logs.map { _ in "?" }.joined(separator: ","))) ORDER BY created_at, id
                """, arguments: StatementArguments(logs.map(\.databaseText)))
            return Dictionary(grouping: try photos.map { PhotoEntry(photo: $0, isHere: try Self.holds(db, $0)) }, by: \.photo.subject.id)
        }
    }

    /// Where a logged visit was made, for its photos' pages: the list, its organizer and the stop, the venue's name (never
    /// the person's: who lives where is hidden from read-only users) and the moment.
    public func contactLogPlace(_ id: UUID) throws -> (listId: UUID, organizer: UUID, stopId: UUID, venueName: String, loggedAt: Date) {
        try read { db in
            guard let row = try Row.fetchOne(db, sql: """
                SELECT s.visit_list_id, l.assigned_user_id, s.id AS stop_id, v.name, c.logged_at FROM contact_logs c
                JOIN visit_stops s ON s.id = c.visit_stop_id JOIN visit_lists l ON l.id = s.visit_list_id JOIN venues v ON v.id = s.venue_id
                WHERE c.id = ?
                """, arguments: [id.databaseText]) else { throw DomainError.notFound(entity: "logged visit") }
            return (row.uuid("visit_list_id"), row.uuid("assigned_user_id"), row.uuid("stop_id"), row["name"], row["logged_at"])
        }
    }

    public func photo(id: UUID) throws -> PhotoEntry {
        try read { db in
            let photo = try Photo.find(db, id: id)
            return PhotoEntry(photo: photo, isHere: try Self.holds(db, photo))
        }
    }

    /// The record's photos, oldest first.
    public func photos(of subject: PhotoSubject) throws -> [PhotoEntry] {
        try read { db in
            try Photo.fetchAll(db, sql: "SELECT * FROM photos WHERE \(subject.column) = ? ORDER BY created_at, id",
                               arguments: [subject.id.databaseText]).map { PhotoEntry(photo: $0, isHere: try Self.holds(db, $0)) }
        }
    }

    private static func holds(_ db: Database, _ photo: Photo) throws -> Bool {
        try PhotoFiles.listsBoth(db, photo.display, photo.thumbnail)
    }
}

/// The photo writer: the only code that writes photos.
extension RecordTransaction {
    func addPhoto(to subject: PhotoSubject, _ valid: PhotoInput.Valid, display: PhotoImage, thumbnail: PhotoImage,
                  by actor: Actor) throws -> Photo {
        let table = switch subject {
        case .participant: Participant.databaseTableName
        case .venue: Venue.databaseTableName
        case .activity: Activity.databaseTableName
        case .contactLog: ContactLog.databaseTableName
        }
        try ensureExists(subject.id, in: table, field: "photo", Message("This record no longer exists, so the photo cannot be added to it"))
        let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM photos WHERE \(subject.column) = ?", arguments: [subject.id.databaseText]) ?? 0
        if count >= PhotoLimits.perRecord { throw ValidationError.clash("photo", PhotoLimits.tooMany) }
        // Checked in the transaction: a sweep that removed a long-waiting upload commits before or after this, never between.
        if try !PhotoFiles.listsBoth(db, display, thumbnail) { throw ValidationError.clash("photo", PhotoLimits.uploadGone) }
        let now = Date()
        let addedBy: UUID? = if case .user(let id) = actor { id } else { nil }
        let photo = Photo(subject: subject, caption: valid.caption, takenOn: valid.takenOn, display: display, thumbnail: thumbnail,
                          addedBy: addedBy, createdAt: now, updatedAt: now)
        try insert(photo)
        return photo
    }

    /// Moves a merged-away participant's photos to the participant kept.
    func movePhotos(of removed: UUID, to kept: UUID) throws {
        for photo in try Photo.fetchAll(db, sql: "SELECT * FROM photos WHERE participant_id = ?", arguments: [removed.databaseText]) {
            var moved = photo
            moved.subject = .participant(kept)
            try save(moved, over: photo)
        }
    }
}
