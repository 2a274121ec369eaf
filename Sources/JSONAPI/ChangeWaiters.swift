import Dispatch
import Domain
import Foundation
import HTTPServer
import Hub
import Storage
import Synchronization

/// The hub's live changes stream, as a long poll (CouchDB's `feed=longpoll`): a node asks for the changes after its
/// cursor with `wait`, and when there are none yet the answer is held until the change log grows past that cursor or
/// the wait ends, whichever comes first. A held answer is a suspended connection, not a thread, so hundreds of
/// nodes can wait at once.
final class ChangeWaiters: Sendable {
    private struct Waiter: Sendable {
        let after: Int64
        let limit: Int
        let stream: EventStream
    }

    private let hub: any SyncHub
    private let waiting = Mutex<[ObjectIdentifier: Waiter]>([:])
    /// Pages are read off the writer's thread: change feed subscribers must return quickly.
    private let queue = DispatchQueue(label: "fieldbook.change-waiters")

    init(hub: any SyncHub) {
        self.hub = hub
        hub.observeChanges { [weak self] in
            guard let self else { return }
            queue.async { [weak self] in self?.answerWaitersBehind() }
        }
    }

    /// The answer to a long poll that found nothing after `after`: held for up to `wait` seconds.
    func hold(after: Int64, limit: Int, wait: Int) -> Response {
        // A page may hold 2,000 records; the stream must take it whole.
        let stream = EventStream(maxQueuedBytes: 64 * 1024 * 1024)
        let key = ObjectIdentifier(stream)
        waiting.withLock { $0[key] = Waiter(after: after, limit: limit, stream: stream) }
        // A client that leaves (or a server that stops) closes the stream; its waiter goes with it.
        stream.onClose { [weak self] in self?.waiting.withLock { _ = $0.removeValue(forKey: key) } }
        queue.asyncAfter(deadline: .now() + .seconds(wait)) { [weak self] in self?.answer(key) }
        // A change committed between the caller's empty read and the registration above is answered now, not at the end.
        queue.async { [weak self] in self?.answerWaitersBehind() }
        return Response.stream(contentType: "application/json", stream)
    }

    var count: Int { waiting.withLock { $0.count } }

    /// Answers every waiter the log has moved past. Nodes that are up to date wait at the same cursor, so waiters are
    /// answered by cursor and page size with one read each, however many nodes wait.
    private func answerWaitersBehind() {
        guard let latest = try? hub.latestChangeSequence() else { return }
        let behind = waiting.withLock { waiting -> [Waiter] in
            let keys = waiting.filter { $0.value.after < latest }.map(\.key)
            return keys.compactMap { waiting.removeValue(forKey: $0) }
        }
        for (_, group) in Dictionary(grouping: behind, by: { PageKey(after: $0.after, limit: $0.limit) }) {
            let page = try? hub.changes(after: group[0].after, limit: group[0].limit)
            group.forEach { finish($0, with: page) }
        }
    }

    /// Answers one waiter when its wait is over (with whatever the log holds then, usually nothing); once per waiter.
    private func answer(_ key: ObjectIdentifier) {
        guard let waiter = waiting.withLock({ $0.removeValue(forKey: key) }) else { return }
        finish(waiter, with: try? hub.changes(after: waiter.after, limit: waiter.limit))
    }

    /// Sends the page and ends the answer. Without a page (the read failed) the node reads an incomplete answer,
    /// counts a failed poll and falls back to its interval.
    private func finish(_ waiter: Waiter, with page: ChangePage?) {
        if let page { waiter.stream.send(SyncEndpoints.response(page).body) }
        waiter.stream.close()
    }

    private struct PageKey: Hashable {
        let after: Int64
        let limit: Int
    }
}
