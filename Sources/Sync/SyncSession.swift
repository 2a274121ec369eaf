import Domain
import Foundation
import Logging
import Storage

/// One run of sync against the hub: (on the first sync, pull a full copy,) push the outbox, pull the change log.
/// Every step is saved as it completes, so a crash or a cut connection resumes where it stopped.
struct SyncSession {
    let engine: SyncEngine
    let client: HubClient

    private struct Cancelled: Error {}

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
                if engine.state.takeCancel() { throw Cancelled() }
            }
            let sentFiles = try photos.push()
            try push(tokens, counter)
            try pull(tokens, counter)
            let receivedFiles = try photos.pull()
            if sentFiles + receivedFiles > 0 {
                engine.logger.info("photo files synced", metadata: ["sent": "\(sentFiles)", "received": "\(receivedFiles)"])
            }
            outcome = .succeeded
        } catch is Cancelled {
            outcome = .cancelled
        } catch {
            outcome = .failed
            failure = String(describing: error)
            engine.logger.warning("sync session failed", metadata: ["error": "\(failure!)"])
            if case HubError.unreachable = error { engine.state.setHub(.offline) }
        }
        engine.state.setError(failure)
        engine.state.setProgress(nil)
        try? database.finishSyncSession(sessionId, outcome: outcome, statistics: counter.statistics, error: failure)
        if counter.statistics.pulled >= settings.pullApplyBatch { database.releaseMemory() }
        return outcome != .failed
    }

    private func push(_ tokens: BoundTokens, _ counter: SessionCounter) throws {
        let nodeId = try database.nodeId()
        var isolateHead = false
        while true {
            if engine.state.takeCancel() { throw Cancelled() }
            let entries = try database.pendingOperations(limit: isolateHead ? 1 : settings.pushBatchSize)
            guard let head = entries.first else { return }
            let request = PushRequest(nodeId: nodeId, operations: entries.map(\.syncOperation))
            let response: PushResponse
            do {
                response = try tokens.withToken { try client.push(request, token: $0) }
            } catch HubError.server(let status, let message) where status >= 400 {
                // Find the operation the hub cannot take: retry the head alone, and set it aside after its last attempt.
                if entries.count > 1 { isolateHead = true; continue }
                if try database.recordFailedAttempt(operationId: head.operationId, error: "The hub answered \(status): \(message)",
                                                    maxAttempts: settings.maxAttempts) {
                    counter.statistics.failures += 1
                    isolateHead = false
                    continue
                }
                throw HubError.server(status: status, message: message)
            }
            isolateHead = false
            let tally = try database.settlePush(entries, results: response.results)
            counter.recordPush(entries.count, tally)
            report(.pushing, counter, "Sent \(counter.statistics.pushed) of \(counter.pendingAtStart) changes")
        }
    }

    /// Pulls the change log page by page. The next page is fetched while the current one is applied (the hub encodes
    /// and the node writes at the same time), and pages are applied several at once, up to `pullApplyBatch` changes
    /// per transaction: each commit rewrites the index pages it touched, so fewer, larger commits write far less.
    private func pull(_ tokens: BoundTokens, _ counter: SessionCounter) throws {
        var fetching = PageFetch(after: try database.pullCursor(), tokens, client, settings.pullPageSize)
        var gathered: [ChangePage] = []
        while true {
            if engine.state.takeCancel() { throw Cancelled() }
            let page = try fetching.page()
            if page.hasMore { fetching = PageFetch(after: page.nextCursor, tokens, client, settings.pullPageSize) }
            gathered.append(page)
            if page.hasMore, gathered.reduce(0, { $0 + $1.changes.count }) < settings.pullApplyBatch { continue }
            let merged = ChangePage(changes: gathered.flatMap(\.changes), nextCursor: page.nextCursor, hasMore: page.hasMore,
                                    remaining: page.remaining)
            try database.applyPulledPage(merged)
            counter.recordPull(merged)
            gathered = []
            report(.pulling, counter, "Received \(counter.statistics.pulled) changes from the hub")
            if !page.hasMore { return }
        }
    }

    private func report(_ phase: SyncProgress.Phase, _ counter: SessionCounter, _ message: String) {
        let stats = counter.statistics
        engine.state.setProgress(SyncProgress(phase: phase, fraction: counter.fraction, pushed: stats.pushed, pulled: stats.pulled,
                                              message: message))
        engine.progressed()
    }
}

/// One page of the change log, fetched on a background thread from the moment it is asked for.
private final class PageFetch: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var result: Result<ChangePage, Error>?

    init(after cursor: Int64, _ tokens: BoundTokens, _ client: HubClient, _ limit: Int) {
        DispatchQueue.global().async { [self] in
            result = Result { try tokens.withToken { try client.changes(after: cursor, limit: limit, token: $0) } }
            done.signal()
        }
    }

    /// Waits for the page (or the error that stopped it).
    func page() throws -> ChangePage {
        done.wait()
        done.signal()
        return try result!.get()
    }
}

/// Counts a session's work and estimates how far along it is.
final class SessionCounter: @unchecked Sendable {
    let pendingAtStart: Int
    var statistics = SyncStatistics()
    private var remainingToPull = 0

    init(pendingAtStart: Int) { self.pendingAtStart = pendingAtStart }

    func recordPush(_ count: Int, _ tally: PushTally) {
        statistics.pushed += count
        statistics.merged += tally.merged
        statistics.conflicts += tally.conflicts
        statistics.failures += tally.rejected
    }

    func recordPull(_ page: ChangePage) {
        statistics.pulled += page.changes.count
        remainingToPull = page.remaining
    }

    var fraction: Double {
        let done = statistics.pushed + statistics.pulled
        let total = max(pendingAtStart, statistics.pushed) + statistics.pulled + remainingToPull
        return total == 0 ? 1 : min(1, Double(done) / Double(total))
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
            let tokens = try client.refresh(refreshToken)
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
