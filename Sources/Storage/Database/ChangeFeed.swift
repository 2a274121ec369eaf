import Domain
import Foundation
import Synchronization

/// One committed change to one record, as the change feed tells it.
public struct RecordChange: Sendable, Equatable {
    /// The kind's wire name ("participant").
    public let kind: String
    public let id: UUID
    public let operation: ChangeOperation
    /// Who made it (`Actor.recorded`), or the node that pushed it.
    public let author: String
    public let at: Date
}

/// The changes one transaction committed, and where they came from.
public struct CommittedChanges: Sendable, Equatable {
    public enum Origin: Sendable, Equatable {
        /// Written here, by a page, the API, the command line or a re-applied conflict.
        case local
        /// Pushed to this node by a node that syncs with it (this node is their hub).
        case pushed
        /// Pulled from this node's hub.
        case pulled
    }

    public let origin: Origin
    public let changes: [RecordChange]
    /// True when the changes were queued for this node's hub (the sync thread has something to push).
    public let queuedForHub: Bool
    /// True when sync noted something people are told about (a lost conflict, changes set aside, a node linked).
    public let noticedBySync: Bool

    public init(origin: Origin, changes: [RecordChange], queuedForHub: Bool, noticedBySync: Bool = false) {
        self.origin = origin
        self.changes = changes
        self.queuedForHub = queuedForHub
        self.noticedBySync = noticedBySync
    }
}

/// Tells in-process subscribers what changed, after each commit, whether or not a hub is linked. Subscribers run on
/// the writer's thread after the transaction, so they must be quick (wake a thread, send an event).
public final class ChangeFeed: Sendable {
    private let subscribers = Mutex<[@Sendable (CommittedChanges) -> Void]>([])

    public init() {}

    public func subscribe(_ subscriber: @escaping @Sendable (CommittedChanges) -> Void) {
        subscribers.withLock { $0.append(subscriber) }
    }

    /// Tells subscribers that sync noted something for the notifier (`sync_notices`), with no record changed.
    func publishSyncNotices() {
        publish(CommittedChanges(origin: .pulled, changes: [], queuedForHub: false, noticedBySync: true))
    }

    func publish(_ committed: CommittedChanges) {
        guard !committed.changes.isEmpty || committed.noticedBySync else { return }
        for subscriber in subscribers.withLock({ $0 }) { subscriber(committed) }
    }
}
