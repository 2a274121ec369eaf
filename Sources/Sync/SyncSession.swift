import Domain
import Foundation
import Records
import Logging
import Storage

/// One run of sync against the hub: (on the first sync, pull a full copy,) push the outbox, pull the change log.
/// Every step is saved as it completes, so a crash or a cut connection resumes where it stopped.
struct SyncSession {
    let engine: SyncEngine
    let client: HubClient

    /// Ends the session early, for the reason its history row gives.
    private struct Stopped: Error { let reason: SessionStop }

    /// A session that pulled this many changes gives back the memory its writes used (the writer's page cache).
    static let largePull = 10_000

    private var database: AppDatabase { engine.database }
    private var settings: SyncEngineSettings { engine.settings }

    func run() -> Bool {
        guard let sessionId = try? database.startSyncSession() else { return false }
        let counter = SessionCounter(pendingAtStart: (try? database.pendingOperationCount()) ?? 0)
        engine.state.setProgress(SyncProgress(phase: .connecting, fraction: 0, pushed: 0, pulled: 0, message: "Connecting to the hub"))
        engine.progressed()
        let outcome: SyncSessionRecord.Outcome
        var failure: String?
        do {
            let tokens = engine.tokens.bound(to: client)
            if try database.pullCursor() == 0 { try pull(tokens, counter) }
            let photos = PhotoContentSync(database: database, client: client, tokens: tokens, logger: engine.logger) {
                try stopIfAsked()
            }
            counter.recordPhotoFiles(sent: try photos.push())
            try push(tokens, counter)
            try pull(tokens, counter)
            counter.recordPhotoFiles(received: try photos.pull())
            let files = counter.statistics
            if files.photosSent + files.photosReceived > 0 {
                engine.logger.info("photo files synced", metadata: ["sent": "\(files.photosSent)", "received": "\(files.photosReceived)"])
            }
            outcome = .succeeded
        } catch let stopped as Stopped {
            outcome = stopped.reason.outcome
        } catch {
            outcome = .failed
            failure = String(describing: error)
            engine.logger.warning("sync session failed", metadata: ["error": "\(failure!)"])
            if case HubError.unreachable = error { engine.state.setHub(.offline) }
        }
        engine.state.setError(failure)
        engine.state.setProgress(nil)
        try? database.finishSyncSession(sessionId, outcome: outcome, statistics: counter.statistics, error: failure)
        if counter.statistics.pulled >= Self.largePull { database.releaseMemory() }
        return outcome != .failed
    }

    /// Pushes the outbox in batches, oldest first. The answer to one batch is settled on a thread of its own while the
    /// next batch is read, sent and applied by the hub, so the node's writes and the hub's overlap; at most
    /// one batch waits to be settled. Batches are read after the last one sent, not by state, so one not yet settled
    /// is never sent again.
    private func push(_ tokens: BoundTokens, _ counter: SessionCounter) throws {
        let nodeId = try database.nodeId()
        let settler = PushSettler(database: database) { count, tally in
            counter.recordPush(count, tally)
            report(.pushing, counter, "Sent \(counter.statistics.pushed) of \(counter.pendingAtStart) changes")
        }
        defer { settler.waitUntilSettled() }
        var sentThrough: Int64 = 0
        var isolateHead = false
        while true {
            try stopIfAsked()
            try settler.rethrowFailure()
            let entries = try database.pendingOperations(limit: isolateHead ? 1 : settings.pushBatchSize, after: sentThrough)
            guard let head = entries.first else { break }
            let request = PushRequest(nodeId: nodeId, operations: entries.map(\.syncOperation))
            let response: PushResponse
            do {
                response = try tokens.withToken { try client.push(request, token: $0) }
            } catch HubError.server(let status, let message) where status >= 400 && status != 503 {
                // Find the operation the hub cannot take: retry the head alone, and set it aside after its last attempt.
                // A 503 is not looked into so: it is the hub's state (stopping, say), and ends the session instead.
                if entries.count > 1 { isolateHead = true; continue }
                if try database.recordFailedAttempt(operationId: head.operationId, error: "The hub answered \(status): \(message)",
                                                    maxAttempts: settings.maxAttempts) {
                    counter.addFailures(1)
                    isolateHead = false
                    continue
                }
                throw HubError.server(status: status, message: message)
            }
            isolateHead = false
            sentThrough = entries.last!.seq
            settler.settle(entries, response.results)
            // Taking the hub's account can drop a local account's queued operations (`takeHubState`): the next batch
            // is read only once that is settled.
            if entries.contains(where: { $0.change.entity == RecordKind.accountEntity }) { settler.waitUntilSettled() }
        }
        settler.waitUntilSettled()
        try settler.rethrowFailure()
    }

    /// Pulls the change log page by page. Pages are fetched and decoded on another thread, about one apply batch
    /// ahead, while this one applies them (the hub encodes, the fetcher decodes and this thread writes at the same
    /// time). Pages are applied several at once, up to `pullApplyBatch` changes per transaction: each commit rewrites
    /// the index pages it touched, so fewer, larger commits write far less. On a slow link what arrived is applied
    /// once it has waited `pullCommitInterval`, and before a failed fetch ends the session, so little is fetched twice.
    private func pull(_ tokens: BoundTokens, _ counter: SessionCounter) throws {
        do {
            try pullPages(tokens, counter)
        } catch {
            // A first sync ended part way builds the indexes it dropped now, not at the next start (DeferredIndexes):
            // lists and searches must not go without them until then. The rest of the copy keeps them up as it goes.
            try? database.restoreDeferredIndexes()
            throw error
        }
    }

    private func pullPages(_ tokens: BoundTokens, _ counter: SessionCounter) throws {
        let pages = PagePrefetch(after: try database.pullCursor(), tokens, client, pageSize: settings.pullPageSize,
                                 aheadChanges: settings.pullApplyBatch)
        defer { pages.stop() }
        var gathered: [ChangePage] = []
        var applyBy: Date?
        while true {
            try stopIfAsked()
            let next: ChangePage?
            do {
                next = try pages.next(until: applyBy)
            } catch {
                try apply(gathered, counter)
                throw error
            }
            if let page = next {
                if gathered.isEmpty { applyBy = Date(timeIntervalSinceNow: settings.pullCommitInterval) }
                gathered.append(page)
                let waiting = gathered.reduce(0) { $0 + $1.changes.count }
                if page.hasMore, waiting < settings.pullApplyBatch, Date() < applyBy! { continue }
            }
            try apply(gathered, counter)
            if gathered.last?.hasMore == false { return }
            (gathered, applyBy) = ([], nil)
        }
    }

    /// Applies gathered pages in one transaction with the last one's cursor.
    private func apply(_ pages: [ChangePage], _ counter: SessionCounter) throws {
        guard let last = pages.last else { return }
        let merged = ChangePage(changes: pages.flatMap(\.changes), nextCursor: last.nextCursor, hasMore: last.hasMore,
                                remaining: last.remaining)
        try database.applyPulledPage(merged)
        counter.recordPull(merged)
        report(.pulling, counter, "Received \(counter.statistics.pulled) changes from the hub")
    }

    private func stopIfAsked() throws {
        if let reason = engine.state.takeStop() { throw Stopped(reason: reason) }
    }

    private func report(_ phase: SyncProgress.Phase, _ counter: SessionCounter, _ message: String) {
        let stats = counter.statistics
        engine.state.setProgress(SyncProgress(phase: phase, fraction: counter.fraction, pushed: stats.pushed, pulled: stats.pulled,
                                              message: message, toSend: counter.pendingAtStart))
        engine.progressed()
    }
}

/// Fetches the change log's pages in order on a thread of its own, each page from the cursor the previous one ended
/// at, fetching another while fewer than `aheadChanges` changes wait to be taken (so about that many, plus a page).
/// A failed fetch ends the pages: `next` throws its error once the pages before it are taken.
private final class PagePrefetch: @unchecked Sendable {
    private let condition = NSCondition()
    private var ready: [ChangePage] = []
    private var readyChanges = 0
    private var failure: Error?
    private var finished = false
    private var stopped = false

    init(after cursor: Int64, _ tokens: BoundTokens, _ client: HubClient, pageSize: Int, aheadChanges: Int) {
        precondition(aheadChanges > 0, "a prefetch that may hold nothing would never fetch")
        let thread = Thread { [self] in fetchAll(after: cursor, tokens, client, pageSize, aheadChanges) }
        thread.name = "fieldbook-pull-fetch"
        thread.start()
    }

    private func fetchAll(after start: Int64, _ tokens: BoundTokens, _ client: HubClient, _ pageSize: Int, _ ahead: Int) {
        var cursor = start
        while true {
            condition.lock()
            while readyChanges >= ahead, !stopped { condition.wait() }
            let stop = stopped
            condition.unlock()
            if stop { return }
            let result = Result { try tokens.withToken { try client.changes(after: cursor, limit: pageSize, token: $0) } }
            condition.lock()
            defer { condition.broadcast(); condition.unlock() }
            switch result {
            case .success(let page):
                ready.append(page)
                readyChanges += page.changes.count
                cursor = page.nextCursor
                if !page.hasMore { finished = true; return }
            case .failure(let error):
                failure = error
                finished = true
                return
            }
        }
    }

    /// The next page, waiting for it until `deadline` (nil: as long as it takes); nil when the deadline passed first;
    /// the fetch's error when it failed before that page.
    func next(until deadline: Date?) throws -> ChangePage? {
        condition.lock()
        defer { condition.broadcast(); condition.unlock() }
        while ready.isEmpty, !finished {
            if let deadline {
                if !condition.wait(until: deadline), ready.isEmpty, !finished { return nil }
            } else {
                condition.wait()
            }
        }
        if ready.isEmpty { throw failure ?? CancellationError() }
        let page = ready.removeFirst()
        readyChanges -= page.changes.count
        return page
    }

    /// Ends fetching (after the last page, a failure or a cancelled session); a fetch under way is not waited for.
    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }
}

/// Settles a push's answers on a thread of its own, one batch at a time, in the order they were sent: `settle` waits
/// while an earlier batch is still being settled. The first failure is kept for the session to throw.
private final class PushSettler: @unchecked Sendable {
    private let database: AppDatabase
    private let settled: (Int, PushTally) -> Void
    private let queue = DispatchQueue(label: "fieldbook-push-settle")
    private let idle = DispatchSemaphore(value: 1)
    private let lock = NSLock()
    private var failure: Error?

    init(database: AppDatabase, settled: @escaping (Int, PushTally) -> Void) {
        (self.database, self.settled) = (database, settled)
    }

    func settle(_ entries: [OutboxEntry], _ results: [SyncResult]) {
        idle.wait()
        queue.async { [self] in
            defer { idle.signal() }
            guard currentFailure == nil else { return }
            do {
                settled(entries.count, try database.settlePush(entries, results: results))
            } catch {
                lock.withLock { failure = error }
            }
        }
    }

    func waitUntilSettled() {
        idle.wait()
        idle.signal()
    }

    func rethrowFailure() throws {
        if let failure = currentFailure { throw failure }
    }

    private var currentFailure: Error? { lock.withLock { failure } }
}

/// Counts a session's work and estimates how far along it is. Pushed batches are counted by the thread that settles
/// them while the session's thread goes on, so every count is taken under a lock.
final class SessionCounter: @unchecked Sendable {
    let pendingAtStart: Int
    private var counted = SyncStatistics()
    private var remainingToPull = 0
    private let lock = NSLock()

    init(pendingAtStart: Int) { self.pendingAtStart = pendingAtStart }

    var statistics: SyncStatistics { lock.withLock { counted } }

    func recordPush(_ count: Int, _ tally: PushTally) {
        lock.withLock {
            counted.pushed += count
            counted.merged += tally.merged
            counted.conflicts += tally.conflicts
            counted.failures += tally.rejected
        }
    }

    func addFailures(_ count: Int) { lock.withLock { counted.failures += count } }

    func recordPhotoFiles(sent: Int = 0, received: Int = 0) {
        lock.withLock {
            counted.photosSent += sent
            counted.photosReceived += received
        }
    }

    func recordPull(_ page: ChangePage) {
        lock.withLock {
            counted.pulled += page.changes.count
            remainingToPull = page.remaining
        }
    }

    var fraction: Double {
        lock.withLock {
            let done = counted.pushed + counted.pulled
            let total = max(pendingAtStart, counted.pushed) + counted.pulled + remainingToPull
            return total == 0 ? 1 : min(1, Double(done) / Double(total))
        }
    }
}

/// Keeps the hub access token between sessions, refreshing it (and storing the rotated refresh token) when the hub
/// refuses it; the refresh token lives only in the database. The sync thread and the change listener share it, so
/// a refresh happens once at a time: the hub rotates refresh tokens, and a second use of an old one would be refused.
final class TokenSource: @unchecked Sendable {
    private let database: AppDatabase
    private let lock = NSLock()
    private let refreshing = NSLock()
    private var accessToken: String?

    init(database: AppDatabase) { self.database = database }

    func bound(to client: HubClient) -> BoundTokens { BoundTokens(source: self, client: client) }

    /// Drops the cached token (after a new link).
    func forget() { lock.withLock { accessToken = nil } }

    func withToken<T>(_ client: HubClient, _ body: (String) throws -> T) throws -> T {
        if let token = lock.withLock({ accessToken }) {
            do { return try body(token) } catch HubError.unauthorized { lock.withLock { if accessToken == token { accessToken = nil } } }
        }
        return try body(try freshToken(client))
    }

    /// The cached token if another thread refreshed meanwhile, else a new one from the refresh token.
    private func freshToken(_ client: HubClient) throws -> String {
        try refreshing.withLock {
            if let token = lock.withLock({ accessToken }) { return token }
            guard let refreshToken = try database.hubLink()?.refreshToken else { throw HubError.unauthorized }
            let tokens: HubTokens
            do {
                tokens = try client.refresh(refreshToken)
            } catch HubError.unauthorized {
                // Revoked on the hub, or its account disabled: pages say so until an administrator signs the node in again.
                try database.noteHubCredentialRefused(refreshToken: refreshToken)
                throw HubError.unauthorized
            }
            try database.storeHubRefreshToken(tokens.refreshToken)
            lock.withLock { accessToken = tokens.accessToken }
            return tokens.accessToken
        }
    }
}

/// A token source used with one client.
struct BoundTokens {
    let source: TokenSource
    let client: HubClient

    func withToken<T>(_ body: (String) throws -> T) throws -> T { try source.withToken(client, body) }
}
