import Domain
import Foundation
import GRDB

/// What sync needs to move photo contents by hash: a node pushes the files its hub lacks and pulls the files its photos
/// refer to but it lacks; the hub answers which of a list it holds. Each file moves whole and is verified by its hash,
/// so a cut connection costs at most the file under way, which the next session sends again.
extension AppDatabase {
    /// Files held here that the linked hub is not known to hold.
    public func photoFilesNotOnHub(limit: Int) throws -> [String] {
        try read { db in
            try String.fetchAll(db, sql: "SELECT sha256 FROM photo_files WHERE on_hub = 0 ORDER BY stored_at LIMIT ?", arguments: [limit])
        }
    }

    public func notePhotoFilesOnHub(_ hashes: [String]) throws {
        guard !hashes.isEmpty else { return }
        try writeLocal { db in
            try db.execute(sql: "UPDATE photo_files SET on_hub = 1 WHERE sha256 IN (\(hashes.map { _ in "?" }.joined(separator: ",")))",
                           arguments: StatementArguments(hashes))
        }
    }

    /// Files that photos here show but this node does not hold yet.
    public func photoFilesMissingHere(limit: Int) throws -> [String] {
        try read { db in try Self.photoFilesMissing(db, limit: limit) }
    }

    /// The newest photos' files first, so a file the hub cannot give does not hold back the others for long.
    static func photoFilesMissing(_ db: Database, limit: Int = Int(Int32.max)) throws -> [String] {
        try String.fetchAll(db, sql: """
            SELECT sha FROM (SELECT file_sha256 AS sha, created_at FROM photos UNION ALL SELECT thumb_sha256, created_at FROM photos)
            WHERE NOT EXISTS (SELECT 1 FROM photo_files WHERE sha256 = sha) GROUP BY sha ORDER BY MAX(created_at) DESC LIMIT ?
            """, arguments: [limit])
    }

    /// Which of `hashes` this node holds.
    public func photoFilesHeld(among hashes: [String]) throws -> Set<String> {
        guard !hashes.isEmpty else { return [] }
        return try read { db in
            Set(try String.fetchAll(db, sql: "SELECT sha256 FROM photo_files WHERE sha256 IN (\(hashes.map { _ in "?" }.joined(separator: ",")))",
                                    arguments: StatementArguments(hashes)))
        }.filter(photoFiles.exists)
    }

    /// Removes the files no photo shows any more: at once for a file some photo showed, and after `unattachedFor` for one
    /// no photo has shown yet (an upload whose form was left, contents pushed ahead of their photo). Answers how many went.
    @discardableResult
    public func sweepPhotoFiles(unattachedFor: TimeInterval = PhotoFileSweeper.unattachedGrace) throws -> Int {
        try PhotoFiles.lock.withLock {
            let gone = try writeLocal { db -> [String] in
                let hashes = try String.fetchAll(db, sql: """
                    SELECT sha256 FROM photo_files f WHERE (attached = 1 OR (received = 0 AND stored_at < ?))
                    AND NOT EXISTS (SELECT 1 FROM photos WHERE file_sha256 = f.sha256)
                    AND NOT EXISTS (SELECT 1 FROM photos WHERE thumb_sha256 = f.sha256)
                    """, arguments: [Date().addingTimeInterval(-unattachedFor).storedText])
                for hash in hashes { try db.execute(sql: "DELETE FROM photo_files WHERE sha256 = ?", arguments: [hash]) }
                return hashes
            }
            // After the commit: a file is only unlinked once nothing lists it (and, under the lock, nothing lists it anew).
            for hash in gone { photoFiles.remove(hash) }
            return gone.count
        }
    }
}
