import Foundation

/// What a backup did with the photo files its database copy shows.
public struct PhotoBackupSummary: Sendable, Equatable {
    public var copied = 0
    public var alreadyThere = 0
    /// Files removed here between the database copy and their own (their photos were deleted meanwhile).
    public var missing = 0
}

extension AppDatabase {
    /// Copies into `folder` (laid out as `DATA/photos`) every photo file that the database copy at `copy` shows and
    /// the folder lacks. Files never change once written, so a file already there is the same file; each is copied
    /// aside and renamed, so a backup cut short leaves no half file.
    public func backupPhotoFiles(shownBy copy: String, to folder: String) throws -> PhotoBackupSummary {
        let hashes = try Self.photoHashes(shownBy: copy)
        let target = PhotoFiles(folder: folder)
        var summary = PhotoBackupSummary()
        for sha in hashes {
            let destination = target.path(sha)
            if FileManager.default.fileExists(atPath: destination) { summary.alreadyThere += 1; continue }
            guard let bytes = FileManager.default.contents(atPath: photoFiles.path(sha)) else { summary.missing += 1; continue }
            try target.write(Array(bytes))
            summary.copied += 1
        }
        return summary
    }
}
