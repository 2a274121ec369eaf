import Domain
import Foundation
import Logging
import Storage
import Synchronization

/// The notifier: a background thread that turns what happened into notifications (`deliverNotifications`). The change
/// feed wakes it after every commit made here and whenever sync notes something; it also looks once a minute, so an
/// hour-long hub outage is told about while nothing else happens. Owned by the app: start, stop, and `runOnce` for tests.
public final class NotificationService: Sendable {
    private let database: AppDatabase
    private let status: SyncStatusReporter
    private let logger: Logger
    private let worker: BackgroundWorker

    public init(database: AppDatabase, status: SyncStatusReporter, logger: Logger, recheckInterval: TimeInterval = 60) {
        self.database = database
        self.status = status
        self.logger = logger
        let deliver = NotificationDelivery(database: database, status: status, logger: logger)
        worker = BackgroundWorker(name: "fieldbook-notifier", recheckInterval: recheckInterval) { deliver.run() }
        worker.wake(on: database.changeFeed, when: Self.mayNeedNotifications)
    }

    /// Commits made here (not pulled or pushed ones: their notifications were made where they happened), apart from
    /// notifications themselves, and anything sync noted.
    static func mayNeedNotifications(_ committed: CommittedChanges) -> Bool {
        if committed.noticedBySync { return true }
        return committed.origin == .local && committed.changes.contains { !$0.kind.hasPrefix("notification") }
    }

    public func start() { worker.start() }

    /// Stops after the current delivery and waits for the thread to end.
    public func stop() { worker.stop() }

    /// Delivers what is waiting now; returns the notifications made.
    @discardableResult
    public func runOnce() -> [FieldbookNotification] {
        NotificationDelivery(database: database, status: status, logger: logger).run()
    }
}

/// One delivery of what is waiting, with the hub outage as the sync engine sees it.
private struct NotificationDelivery: Sendable {
    let database: AppDatabase
    let status: SyncStatusReporter
    let logger: Logger

    @discardableResult
    func run() -> [FieldbookNotification] {
        do {
            return try database.deliverNotifications(outage: currentOutage())
        } catch {
            logger.error("making notifications failed; the events stay queued and are tried again", metadata: ["error": "\(error)"])
            return []
        }
    }

    /// The hub out of reach with changes waiting, as the sync engine sees it.
    private func currentOutage() -> HubOutage? {
        let now = status.current()
        guard now.hub == .offline, now.pendingOperations > 0,
              let since = now.lastSuccessfulSync ?? (try? database.hubLink())?.linkedAt else { return nil }
        return HubOutage(since: since, pending: now.pendingOperations)
    }
}
