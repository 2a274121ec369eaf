import Domain
import Foundation
import Logging

/// Removes photo files nobody references any more. The change feed wakes it when a photo, or a record that may have
/// had photos, is deleted here or by sync (a cascade removes the photos with their record); it also looks once an hour,
/// for uploads whose form was left. Owned by the app: start, stop, and `runOnce` for tests.
public final class PhotoFileSweeper: Sendable {
    /// How long a file no photo has shown yet is kept: long enough for a form left open over lunch, or for contents a
    /// node pushed ahead of a photo its next push will bring.
    public static let unattachedGrace: TimeInterval = 2 * 24 * 3600
    private static let deletesThatMayFreeFiles: Set<String> = ["photo", "participant", "venue", "activity"]

    private let database: AppDatabase
    private let logger: Logger
    private let worker: BackgroundWorker

    public init(database: AppDatabase, logger: Logger) {
        self.database = database
        self.logger = logger
        let sweep: @Sendable () -> Void = { [database, logger] in Self.sweep(database, logger) }
        worker = BackgroundWorker(name: "fieldbook-photo-sweeper", recheckInterval: 3600, work: sweep)
        worker.wake(on: database.changeFeed) { committed in
            committed.changes.contains { $0.operation == .delete && Self.deletesThatMayFreeFiles.contains($0.kind) }
        }
    }

    public func start() { worker.start() }
    public func stop() { worker.stop() }

    @discardableResult
    public func runOnce() -> Int { Self.sweep(database, logger) }

    @discardableResult
    private static func sweep(_ database: AppDatabase, _ logger: Logger) -> Int {
        do {
            return try database.sweepPhotoFiles()
        } catch {
            logger.error("removing unused photo files failed; they are tried again later", metadata: ["error": "\(error)"])
            return 0
        }
    }
}
