import Foundation
import Storage

/// Whether this node talks to a hub, and how that is going.
public enum HubState: String, Sendable {
    /// `checking`: linked, but not yet tried since the engine started (right after linking or starting), so neither
    /// online nor offline can be said yet. `refused`: the hub no longer accepts this node's sign-in, so nothing syncs
    /// until an administrator signs it in again on the settings page.
    case standalone, checking, online, offline, refused
}

/// What every page shows about sync: hub state, operations waiting to be pushed, last successful sync.
public struct SyncStatus: Sendable, Equatable {
    public var hub: HubState
    public var pendingOperations: Int
    public var lastSuccessfulSync: Date?
    /// The running session's progress; nil when no sync runs.
    public var progress: SyncProgress?
    /// Sync is paused: no session starts until it is resumed (one under way ends at its next step).
    public var paused: Bool

    public init(hub: HubState, pendingOperations: Int, lastSuccessfulSync: Date?, progress: SyncProgress? = nil, paused: Bool = false) {
        self.hub = hub
        self.pendingOperations = pendingOperations
        self.lastSuccessfulSync = lastSuccessfulSync
        self.progress = progress
        self.paused = paused
    }
}

/// Reports the current sync status from the database and the sync engine. With no hub linked the node is standalone
/// and opens no connection.
public final class SyncStatusReporter: Sendable {
    private let database: AppDatabase
    private let engine: SyncEngine?

    public init(database: AppDatabase, engine: SyncEngine?) {
        self.database = database
        self.engine = engine
    }

    public func current() -> SyncStatus {
        let pending = (try? database.pendingOperationCount()) ?? 0
        let linked = (try? database.isLinkedToHub()) ?? false
        let engineState = linked ? engine?.snapshot() : nil
        let refused = linked && ((try? database.isHubCredentialRefused()) ?? false)
        let hub: HubState = !linked ? .standalone : refused ? .refused : (engineState?.hub ?? .offline)
        return SyncStatus(hub: hub, pendingOperations: pending, lastSuccessfulSync: try? database.lastSuccessfulSync(),
                          progress: engineState?.progress, paused: engineState?.paused ?? false)
    }
}
