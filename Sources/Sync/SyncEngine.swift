import Domain
import Foundation
import Logging
import Storage

/// Tunables of the sync engine; the defaults suit a real deployment, tests shorten them.
public struct SyncEngineSettings: Sendable {
    public var pushBatchSize = 1000
    public var pullPageSize = 2000
    /// Changes applied in one transaction while pulling (several pages); a crash resumes after the last one committed.
    /// Larger batches make a first sync faster and hold more memory while they are applied (README, Benchmarks).
    public var pullApplyBatch = 40000
    /// The longest a pull gathers pages before applying what it has, in seconds, so a slow link saves its progress.
    public var pullCommitInterval: TimeInterval = 3
    /// Failed attempts (server errors) before the operation at the head of the queue is set aside.
    public var maxAttempts = 5
    /// Longest wait between retries after failures, in seconds.
    public var backoffCap: TimeInterval = 300
    /// Overrides the interval stored in the settings (for tests); nil uses the stored one.
    public var intervalOverride: TimeInterval?
    /// Overrides the hub URL of the stored link (for a hub that moved, or a test proxy).
    public var upstreamOverride: URL?
    /// Listen to the hub's live changes (a long poll), so another node's edit arrives within a second or two rather
    /// than at the next interval.
    public var listensForHubChanges = true
    /// How long each long poll asks the hub to wait, in seconds.
    public var longPollWait = 25

    public init() {}
}

/// Exponential backoff after consecutive failures: 1 s, 2 s, 4 s, 8 s, 16 s, … up to the cap (Property 17).
public enum SyncBackoff {
    public static func delay(afterFailures failures: Int, cap: TimeInterval) -> TimeInterval {
        guard failures > 0 else { return 0 }
        let exponent = min(failures - 1, 62)
        return min(pow(2, Double(exponent)), cap)
    }
}

/// The background sync service: one thread that probes the hub, pushes the outbox first-in first-out, then pulls,
/// waking on a local write, on "Sync now" and every interval; failures back off exponentially.
public final class SyncEngine: @unchecked Sendable {
    let database: AppDatabase
    let settings: SyncEngineSettings
    let logger: Logger
    let state = SyncEngineState()
    let tokens: TokenSource
    private let statusDidChange: @Sendable () -> Void
    private var thread: Thread?

    /// The interval given when Fieldbook was started (`--sync-interval`), which wins over the stored setting.
    public var intervalOverride: TimeInterval? { settings.intervalOverride }
    /// Where the hub is reached when not at its linked address (`--upstream`).
    public var upstreamOverride: URL? { settings.upstreamOverride }
    private let threadLock = NSLock()

    public init(database: AppDatabase, settings: SyncEngineSettings = SyncEngineSettings(), logger: Logger,
                statusDidChange: @escaping @Sendable () -> Void = {}) {
        self.database = database
        self.settings = settings
        self.logger = logger
        self.statusDidChange = statusDidChange
        self.tokens = TokenSource(database: database)
    }

    /// Starts the sync thread (only when a hub is linked: a standalone node opens no connection).
    public func start() {
        guard (try? database.hubLink()) != nil else { return }
        // Pages and the API may call this at the same time ("Sync now", linking): only one thread may ever start.
        let thread: Thread? = threadLock.withLock {
            guard self.thread == nil else { return nil }
            try? database.markInterruptedSyncSessions()
            let thread = Thread { [self] in loop() }
            thread.name = "fieldbook-sync"
            self.thread = thread
            return thread
        }
        guard let thread else { return }
        state.woken(reason: "start")
        thread.start()
        if settings.listensForHubChanges { HubChangeListener(engine: self).start() }
    }

    /// Stops after the current step; waits up to `timeout` seconds for the thread to finish.
    public func stop(timeout: TimeInterval = 10) {
        state.requestStop()
        let deadline = Date().addingTimeInterval(timeout)
        while state.isThreadRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
    }

    /// After linking (or unlinking): forget the old hub's token, start the thread if it is not running, sync now.
    public func linkChanged() {
        tokens.forget()
        start()
        wake(reason: "link changed")
    }

    /// "Sync now", from any surface: starts the thread if needed and syncs at once, resuming a paused sync (a paused
    /// engine skips its wake-ups, so a wake alone would do nothing).
    public func syncNow() {
        start()
        if isPaused { resume() } else { wake(reason: "sync now") }
    }

    /// Wakes the thread now ("Sync now", a local write, a settings change).
    public func wake(reason: String) { state.woken(reason: reason) }

    public func pause() {
        state.setPaused(true)
        statusDidChange()
    }

    public func resume() {
        state.setPaused(false)
        state.woken(reason: "resume")
        statusDidChange()
    }

    /// Ends the running session at the next step; nothing done so far is undone.
    public func cancel() { state.requestCancel() }

    public var isPaused: Bool { state.snapshot().paused }

    /// What pages show about the current sync: hub state and progress.
    public func snapshot() -> SyncEngineSnapshot { state.snapshot() }

    private func loop() {
        state.setThreadRunning(true)
        defer { state.setThreadRunning(false) }
        var failures = 0
        while !state.shouldStop {
            let interval = settings.intervalOverride ?? TimeInterval((try? database.syncInterval()) ?? 300)
            let wait = failures > 0 ? SyncBackoff.delay(afterFailures: failures, cap: settings.backoffCap) : interval
            state.waitForWake(timeout: wait)
            if state.shouldStop { break }
            if state.snapshot().paused { continue }
            failures = runOnce() ? 0 : failures + 1
        }
    }

    /// One whole sync session; true when it succeeded (or there was nothing to do). Used by the thread and by tests.
    @discardableResult
    public func runOnce() -> Bool {
        guard let link = try? database.hubLink() else {
            state.setHub(.standalone)
            return true
        }
        // A refused sign-in is not tried again until an administrator signs the node in anew (`linkChanged`).
        if (try? database.isHubCredentialRefused()) == true {
            state.setError(HubError.unauthorized.description)
            statusDidChange()
            return true
        }
        let client = HubClient(link: link, upstreamOverride: settings.upstreamOverride)
        do {
            try client.checkHealth()
        } catch {
            state.setHub(.offline, error: "The hub did not answer at \(client.baseURL.absoluteString): \(error)")
            statusDidChange()
            return false
        }
        state.setHub(.online)
        let session = SyncSession(engine: self, client: client)
        let succeeded = session.run()
        statusDidChange()
        return succeeded
    }

    func progressed() { statusDidChange() }
}
