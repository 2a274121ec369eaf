import Domain
import Foundation
import Hub
import Logging

/// Removes photo files nobody references any more. The change feed wakes it when a photo, or a record that may have
/// had photos, is deleted here or by sync (a cascade removes the photos with their record); it also looks once an hour,
/// for uploads whose form was left.
public enum PhotoFileSweeper {
    /// How long an upload no photo has shown yet is kept: long enough for a form left open over lunch. (A file received
    /// from another Fieldbook is kept until a photo shows it.)
    public static let unattachedGrace: TimeInterval = 2 * 24 * 3600

    public static func chore(database: AppDatabase, logger: Logger) -> DatabaseChore {
        DatabaseChore(name: "fieldbook-photo-sweeper", recheckInterval: 3600, database: database, logger: logger,
                      failure: "removing unused photo files failed; they are tried again later",
                      wakesOn: { $0.changes.contains { $0.operation == .delete && PhotoFileRules.deletesThatMayFreeFiles.contains($0.kind) } },
                      work: { try $0.sweepPhotoFiles() })
    }
}
