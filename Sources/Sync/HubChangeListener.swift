import Domain
import Foundation
import Storage

/// Listens to the hub's live changes and wakes the sync engine as soon as the hub's change log moves past what this
/// node has pulled: a long poll of the change log (`wait`), one at a time, on its own thread. Whenever the poll cannot
/// be held (the hub is down, a proxy cuts long requests, an older hub answers at once) the engine's interval still
/// syncs, and the listener tries again after a growing pause.
final class HubChangeListener: @unchecked Sendable {
    private let engine: SyncEngine
    /// The newest change the hub has told about, so a change the engine has not pulled yet is announced once.
    private var announced: Int64 = 0
    private var failures = 0

    init(engine: SyncEngine) { self.engine = engine }

    func start() {
        let thread = Thread { [self] in
            while !engine.state.shouldStop { listenOnce() }
        }
        thread.name = "fieldbook-hub-changes"
        thread.start()
    }

    /// One long poll; on anything but a held answer it pauses before the next.
    private func listenOnce() {
        let database = engine.database
        // Until the first full copy is pulled, the engine is busy with the whole log; nothing to listen for yet. Nor while
        // the hub refuses this node's sign-in, until an administrator signs it in again.
        guard let link = try? database.hubLink(), let cursor = try? database.pullCursor(), cursor > 0,
              (try? database.isHubCredentialRefused()) != true else {
            announced = 0  // a new link starts from nothing: the old hub's numbers mean nothing to the new one
            return engine.state.rest(seconds: 1)
        }
        let wait = engine.settings.longPollWait
        let client = HubClient(link: link, upstreamOverride: engine.settings.upstreamOverride).longPolling(wait: wait)
        let started = Date()
        do {
            let after = max(cursor, announced)
            let page = try engine.tokens.withToken(client) { try client.changes(after: after, limit: 1, wait: wait, token: $0) }
            if !page.changes.isEmpty {
                // The hub's newest change (the page holds only the first), so the next poll waits for what comes after.
                announced = page.nextCursor + Int64(page.remaining)
                failures = 0
                engine.wake(reason: "the hub has new changes")
            } else if Date().timeIntervalSince(started) < 1 {
                // An empty answer that was not held: a hub without long polls. Do not ask again in a tight loop.
                pauseAfterFailure()
            } else {
                failures = 0
            }
        } catch {
            pauseAfterFailure()
        }
    }

    private func pauseAfterFailure() {
        failures += 1
        engine.state.rest(seconds: SyncBackoff.delay(afterFailures: failures, cap: 30))
    }
}
