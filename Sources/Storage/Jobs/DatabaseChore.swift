import Foundation
import Logging

/// A piece of background upkeep over the database (the photo file sweeper, the duplicate scout): a `BackgroundWorker`
/// that runs `work` when the change feed tells of a commit that `wakesOn` says matters, and every `recheckInterval`
/// besides. A failure is logged, and the work is tried again at its next run. Owned by the app: start, stop, and
/// `runOnce` for tests.
public final class DatabaseChore: Sendable {
    private let run: @Sendable () -> Int
    private let worker: BackgroundWorker

    /// `work` answers how much it did; `failure` is what the log says when it throws.
    init(name: String, recheckInterval: TimeInterval, database: AppDatabase, logger: Logger, failure: String,
         wakesOn: @escaping @Sendable (CommittedChanges) -> Bool, work: @escaping @Sendable (AppDatabase) throws -> Int) {
        let run: @Sendable () -> Int = {
            do {
                return try work(database)
            } catch {
                logger.error("\(failure)", metadata: ["error": "\(error)"])
                return 0
            }
        }
        self.run = run
        worker = BackgroundWorker(name: name, recheckInterval: recheckInterval, yieldsToRequests: true) { _ = run() }
        worker.wake(on: database.changeFeed, when: wakesOn)
    }

    public func start() { worker.start() }
    public func stop() { worker.stop() }

    @discardableResult
    public func runOnce() -> Int { run() }
}
