import Dispatch
import Foundation
import HTTPServer
import Synchronization
import Sync
import Translations

/// Feeds the live sync status to every open /events stream: the current status on connect, each change
/// published since, and a heartbeat comment so proxies keep the connection and vanished clients are noticed.
/// Each stream also belongs to its signed-in person, whose own topic carries their notifications (`NotificationEvents`),
/// and is in their page's language: a status is worded once for each language its streams read.
public final class StatusBroadcaster: Sendable {
    private let reporter: SyncStatusReporter
    private let subscribers = Mutex<[ObjectIdentifier: Subscriber]>([:])
    /// Held while a status is read and sent, so concurrent publishers cannot deliver an older status last.
    private let lastSent = Mutex<SyncStatus?>(nil)
    private nonisolated(unsafe) let heartbeatTimer: DispatchSourceTimer

    public init(reporter: SyncStatusReporter, heartbeatInterval: TimeInterval = 15) {
        self.reporter = reporter
        heartbeatTimer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "fieldbook.status-heartbeat"))
        heartbeatTimer.schedule(deadline: .now() + heartbeatInterval, repeating: heartbeatInterval)
        heartbeatTimer.setEventHandler { [weak self] in self?.sendHeartbeat() }
        heartbeatTimer.resume()
    }

    deinit { heartbeatTimer.cancel() }

    /// The status as it is now.
    public func current() -> SyncStatus { reporter.current() }

    /// Sends `status` to every subscriber, unless it is what they were last sent.
    public func publish(_ status: SyncStatus) {
        lastSent.withLock { last in
            guard last != status else { return }
            last = status
            send(status)
        }
    }

    /// Publishes the status as it is now (after a write changed the pending count).
    public func publishCurrent() {
        lastSent.withLock { last in
            let status = reporter.current()
            guard last != status else { return }
            last = status
            send(status)
        }
    }

    /// A new subscriber's stream, opened with the current status and `opening` (the person's own state); it is
    /// forgotten when the stream closes.
    func subscribe(userId: UUID, translator: Translator = .english, opening: String = "") -> EventStream {
        let stream = EventStream()
        let key = ObjectIdentifier(stream)
        lastSent.withLock { _ in
            stream.send("retry: 5000\n\n" + Self.event(reporter.current(), in: translator) + opening)
            subscribers.withLock { $0[key] = Subscriber(stream: stream, userId: userId, translator: translator) }
        }
        stream.onClose { [weak self] in self?.subscribers.withLock { _ = $0.removeValue(forKey: key) } }
        return stream
    }

    var subscriberCount: Int { subscribers.withLock { $0.count } }

    private func sendHeartbeat() {
        let bytes = Array(": heartbeat\n\n".utf8)
        subscribers.withLock { Array($0.values) }.forEach { $0.stream.send(bytes) }
    }

    /// Sends outside the subscriber lock: a stream that closes while sending removes itself under that lock.
    private func send(_ status: SyncStatus) {
        let byLanguage = Dictionary(grouping: subscribers.withLock { Array($0.values) }) { $0.translator.language }
        for readers in byLanguage.values {
            let bytes = Array(Self.event(status, in: readers[0].translator).utf8)
            readers.forEach { $0.stream.send(bytes) }
        }
    }

    /// Sends `text` to the streams of one person only (their notifications).
    func send(_ text: String, toUser userId: UUID) {
        let bytes = Array(text.utf8)
        subscribers.withLock { $0.values.filter { $0.userId == userId } }.forEach { $0.stream.send(bytes) }
    }

    static func event(_ status: SyncStatus, in translator: Translator) -> String {
        "event: status\ndata: \(SyncStatusText(status: status, translator: translator).json)\n\n"
    }

    private struct Subscriber {
        let stream: EventStream
        let userId: UUID
        let translator: Translator
    }
}
