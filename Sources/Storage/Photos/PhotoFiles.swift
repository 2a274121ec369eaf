import Domain
import Foundation
import GRDB
import Hub

/// The image files of photos, under the data folder by the SHA-256 of their bytes (`photos/ab/abcd….jpg`): a file's
/// name says what it holds, so the same image is kept once, a copy is verified by hashing it, and a file is never
/// changed once written. Which files this node holds is listed in `photo_files` (see `AppDatabase.keepPhotoFile`).
public struct PhotoFiles: Sendable {
    public let folder: String

    /// The files under `folder`: the data folder's `photos`, or a backup's.
    init(folder: String) { self.folder = folder }

    public func path(_ sha256: String) -> String {
        "\(folder)/\(sha256.prefix(2))/\(sha256).jpg"
    }

    public func exists(_ sha256: String) -> Bool { FileManager.default.fileExists(atPath: path(sha256)) }

    /// Held while a file is written and listed, and while the sweeper unlists and removes files, so a file is never
    /// removed after being listed anew (one process serves a data folder).
    static let lock = NSLock()

    /// Writes the bytes under their hash and answers it. The file is written aside, flushed to disk and then renamed
    /// into place (and the folder flushed), so after a crash a file under its hash is whole or absent, never half.
    /// A file already there is written again all the same: the sweeper may have unlisted it to remove it.
    @discardableResult
    func write(_ bytes: [UInt8]) throws -> String {
        let sha = PhotoFileRules.sha256(bytes)
        let final = path(sha)
        let directory = (final as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let partial = "\(directory)/.\(sha).\(UUID().uuidString).partial"
        let descriptor = open(partial, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw PhotoFileError.cannotWrite(String(cString: strerror(errno))) }
        var failure: Int32 = 0
        bytes.withUnsafeBytes { buffer in
            var written = 0
            while written < buffer.count {
                let result = Foundation.write(descriptor, buffer.baseAddress! + written, buffer.count - written)
                if result < 0, errno == EINTR { continue }
                guard result > 0 else { failure = errno; return }
                written += result
            }
        }
        if failure == 0, fsync(descriptor) != 0 { failure = errno }
        close(descriptor)
        guard failure == 0, rename(partial, final) == 0 else {
            let reason = String(cString: strerror(failure == 0 ? errno : failure))
            unlink(partial)
            throw PhotoFileError.cannotWrite(reason)
        }
        Self.flush(directory: directory)
        return sha
    }

    func remove(_ sha256: String) { unlink(path(sha256)) }

    /// Lists a file written under its hash in `photo_files`. An upload stored again (the same photo uploaded twice)
    /// starts its wait for a photo anew (`attached` 0: a photo that shows it already may be deleted while the form
    /// waits). A received file is attached when a photo here shows it already (a pull brings the photo before its
    /// file), and else kept until one does.
    static func list(_ db: Database, _ sha: String, bytes: Int, width: Int?, height: Int?, onHub: Bool, received: Bool) throws {
        try db.execute(sql: """
            INSERT INTO photo_files (sha256, bytes, width, height, stored_at, attached, received, on_hub)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6 AND EXISTS (SELECT 1 FROM photos WHERE file_sha256 = ?1 OR thumb_sha256 = ?1), ?6, ?7)
            ON CONFLICT(sha256) DO UPDATE SET stored_at = excluded.stored_at,
                attached = CASE WHEN excluded.received THEN MAX(attached, excluded.attached) ELSE 0 END,
                received = MAX(received, excluded.received), on_hub = MAX(on_hub, excluded.on_hub),
                width = COALESCE(width, excluded.width), height = COALESCE(height, excluded.height)
            """, arguments: [sha, bytes, width, height, Date().storedText, received, onHub])
    }

    /// Whether this node holds both files of a photo. A small photo's thumbnail can be the very same file as its
    /// display size.
    static func listsBoth(_ db: Database, _ display: PhotoImage, _ thumbnail: PhotoImage) throws -> Bool {
        try Int.fetchOne(db.cachedStatement(sql: "SELECT COUNT(*) FROM photo_files WHERE sha256 IN (?, ?)"),
                         arguments: [display.sha256, thumbnail.sha256]) == Set([display.sha256, thumbnail.sha256]).count
    }

    /// An archive's member holding the file (`photos/<sha256>.jpg`).
    public static func archiveMember(_ sha256: String) -> String { "photos/\(sha256).jpg" }

    /// Flushes the folder, so a rename or a new file in it survives a power cut.
    static func flush(directory: String) {
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }
}
