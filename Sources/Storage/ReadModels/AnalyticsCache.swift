import Foundation
import GRDB
import Logging

/// The one snapshot a database's reports share, refreshed and read under a lock. A first read of every table (at start,
/// or after a change too large to patch) is made while the report waits when the tables are small; a large community's
/// is made on a thread of its own, and reports meanwhile answer `AnalyticsPreparing` rather than stall.
final class AnalyticsCache: @unchecked Sendable {
    /// The most rows a first read makes while a report waits.
    private var mostReadWaiting: Int
    /// How long a report waits for a first read on its own thread before answering that the figures are being prepared.
    private var longestWait: TimeInterval

    init(mostReadWaiting: Int = 200_000, longestWait: TimeInterval = 0.03) {
        (self.mostReadWaiting, self.longestWait) = (mostReadWaiting, longestWait)
    }

    /// Sets the limits above, so that tests of the pages and the API can meet a large community's first read.
    func limit(mostReadWaiting: Int, longestWait: TimeInterval) {
        condition.lock()
        defer { condition.unlock() }
        (self.mostReadWaiting, self.longestWait) = (mostReadWaiting, longestWait)
    }

    private let condition = NSCondition()
    private var snapshot: AnalyticsSnapshot?
    private var loading = false
    /// Where a first read that failed is told (the reports then answer `AnalyticsPreparing` and try again).
    private var logger: Logger?

    /// Counts with the snapshot brought to `db`'s version. `load` reads a whole snapshot in a read transaction of its own.
    func counting<Result>(_ db: Database, _ scope: AnalyticsScope, load: @escaping @Sendable () throws -> AnalyticsSnapshot,
                          _ body: (SnapshotCounts) throws -> Result) throws -> Result {
        condition.lock()
        defer { condition.unlock() }
        if let snapshot, try snapshot.refresh(db) { return try body(SnapshotCounts(snapshot, scope)) }
        snapshot = nil
        if try AnalyticsSnapshot.rowsToRead(db) <= mostReadWaiting {
            let fresh = AnalyticsSnapshot()
            try fresh.load(db)
            snapshot = fresh
            return try body(SnapshotCounts(fresh, scope))
        }
        prepare(load)
        let deadline = Date().addingTimeInterval(longestWait)
        while snapshot == nil, condition.wait(until: deadline) {}
        guard let snapshot, try snapshot.refresh(db) else { throw AnalyticsPreparing() }
        return try body(SnapshotCounts(snapshot, scope))
    }

    /// Starts the first read now when it would not be made while a report waits, so that the first report after start
    /// finds it made or under way.
    func prepare(_ db: Database, logger: Logger, load: @escaping @Sendable () throws -> AnalyticsSnapshot) throws {
        condition.lock()
        defer { condition.unlock() }
        self.logger = logger
        if snapshot == nil, try AnalyticsSnapshot.rowsToRead(db) > mostReadWaiting { prepare(load) }
    }

    /// Starts a first read on its own thread unless one is under way. Called with the lock held.
    private func prepare(_ load: @escaping @Sendable () throws -> AnalyticsSnapshot) {
        guard !loading else { return }
        loading = true
        Thread.detachNewThread { [self] in
            var loaded: AnalyticsSnapshot?
            var failure: Error?
            do { loaded = try load() } catch { failure = error }
            condition.lock()
            if let failure { logger?.error("could not count the analytics' figures", metadata: ["error": "\(failure)"]) }
            if snapshot == nil { snapshot = loaded }
            loading = false
            condition.broadcast()
            condition.unlock()
        }
    }
}

/// The analytics' figures are being counted afresh (a large community, just after start or after a large import): the
/// report is refused for now rather than kept waiting.
public struct AnalyticsPreparing: Error, Sendable, Equatable {
    /// Seconds after which asking again is likely to find the figures ready.
    public let retryAfter = 5
    /// Why the figures are not there yet, worded for the page and for API clients alike.
    public static let explanation = "The analytics are being prepared: Fieldbook counts every record once after it starts, "
        + "and again after a large import or sync."
    public init() {}
}
