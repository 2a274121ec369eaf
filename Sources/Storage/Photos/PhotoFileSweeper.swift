import Domain
import Foundation
import Logging

/// Removes photo files nobody references any more. The change feed wakes it when a photo, or a record that may have
/// had photos, is deleted here or by sync (a cascade removes the photos with their record); it also looks once an hour,
/// for uploads whose form was left.
public enum PhotoFileSweeper {
    /// How long an upload no photo has shown yet is kept: long enough for a form left open over lunch. (A file received
    /// from another Fieldbook is kept until a photo shows it.)
    public static let unattachedGrace: TimeInterval = 2 * 24 * 3600
    /// Deleting a record of these kinds may free files: a photo, or a record whose deletion cascades to its photos.
    public static let deletesThatMayFreeFiles: Set<String> = ["photo", "participant", "venue", "activity"]
    /// The photo columns that name a file by its hash.
    public static let fileColumns = ["file_sha256", "thumb_sha256"]

    public static func chore(database: AppDatabase, logger: Logger) -> DatabaseChore {
        DatabaseChore(name: "fieldbook-photo-sweeper", recheckInterval: 3600, database: database, logger: logger,
                      failure: "removing unused photo files failed; they are tried again later",
                      wakesOn: { $0.changes.contains { $0.operation == .delete && deletesThatMayFreeFiles.contains($0.kind) } },
                      work: { try $0.sweepPhotoFiles() })
    }
}
