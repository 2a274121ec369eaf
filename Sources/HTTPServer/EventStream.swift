import Foundation
import Synchronization

/// The outgoing bytes of one long-lived streaming response (Server-Sent Events): a thread-safe queue that any
/// thread fills and the server drains; closed by the application, by server stop, or when the client goes away.
public final class EventStream: Sendable {
    /// What the server gets when it asks for the next bytes.
    enum Pull: Equatable {
        case bytes([UInt8])
        /// Nothing queued yet: the connection was parked and is woken by the next `send` or `close`.
        case parked
        case end
        /// The stream was aborted: the response must end as failed, not as complete.
        case failed
    }

    private struct State {
        var queued: [UInt8] = []
        var closed = false
        var aborted = false
        var finished = false
        var parked = false
        var waker: (@Sendable () -> Void)?
        var closeHandlers: [@Sendable () -> Void] = []
    }

    /// Bytes a client may fall behind by before it is dropped; a client that stops reading must not grow memory.
    public let maxQueuedBytes: Int
    private let state = Mutex(State())
    /// Where `sendWaiting` waits for the client to take bytes; signalled by `next` and `close`.
    private let room = NSCondition()

    /// For a download: the response ends complete only after `finish`; closed any other way (the server stopping, the
    /// writer failing) it ends as failed, so a client never keeps a short file that looks whole.
    public let endsOnlyWhenFinished: Bool

    public init(maxQueuedBytes: Int = 256 * 1024, endsOnlyWhenFinished: Bool = false) {
        self.maxQueuedBytes = maxQueuedBytes
        self.endsOnlyWhenFinished = endsOnlyWhenFinished
    }

    /// Queues bytes for the client; false when the stream is closed (or was just closed for falling too far behind).
    @discardableResult
    public func send(_ bytes: [UInt8]) -> Bool {
        let (accepted, overflowed) = state.withLock { state -> (Bool, Bool) in
            guard !state.closed else { return (false, false) }
            guard state.queued.count + bytes.count <= maxQueuedBytes else { return (false, true) }
            state.queued += bytes
            Self.wake(&state)
            return (true, false)
        }
        if overflowed { close() }
        return accepted
    }

    @discardableResult
    public func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    /// Queues bytes, first waiting while the client is `maxQueuedBytes` behind: for a download written as fast as it
    /// is read (an export), which must slow to the client's pace rather than drop it or grow memory. False once the
    /// stream is closed (the client left, or the server stopped): the writer stops there.
    public func sendWaiting(_ bytes: [UInt8]) -> Bool {
        room.lock()
        defer { room.unlock() }
        while true {
            let accepted = state.withLock { state -> Bool? in
                if state.closed { return false }
                guard state.queued.isEmpty || state.queued.count + bytes.count <= maxQueuedBytes else { return nil }
                state.queued += bytes
                Self.wake(&state)
                return true
            }
            if let accepted { return accepted }
            // Checked and waited under `room`'s lock, which `next` and `close` take to signal: no wake-up is missed.
            room.wait(until: Date().addingTimeInterval(1))
        }
    }

    /// Ends the stream: the client receives what is queued, then the end of the response. Runs close handlers once.
    public func close() {
        let handlers = state.withLock { state -> [@Sendable () -> Void] in
            guard !state.closed else { return [] }
            state.closed = true
            Self.wake(&state)
            defer { state.closeHandlers = [] }
            return state.closeHandlers
        }
        signalRoom()
        handlers.forEach { $0() }
    }

    /// Ends the stream complete: everything was written. A stream something else closed first stays failed.
    public func finish() {
        state.withLock { state in
            if !state.closed { state.finished = true }
        }
        close()
    }

    /// Ends the stream as failed (the writer hit an error part way): the client's connection is cut without the end
    /// of the response, so a download shows as failed instead of as a complete, short file.
    public func abort() {
        state.withLock { state in
            state.aborted = true
            state.queued.removeAll()
        }
        close()
    }

    public var isClosed: Bool { state.withLock { $0.closed } }

    /// Runs `handler` when the stream closes (at once if it already has), e.g. to forget a subscriber.
    public func onClose(_ handler: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state -> Bool in
            if state.closed { return true }
            state.closeHandlers.append(handler)
            return false
        }
        if runNow { handler() }
    }

    // MARK: - The server's side

    /// Installs how to wake a parked connection; the server removes it before the connection is freed.
    func attach(waker: (@Sendable () -> Void)?) {
        state.withLock { $0.waker = waker }
    }

    /// Takes up to `maxBytes` queued bytes. With nothing queued, calls `park` (under the lock, so a concurrent
    /// `send` cannot slip between the check and the parking) and answers `.parked`.
    func next(maxBytes: Int, park: () -> Void) -> Pull {
        let pull = state.withLock { state -> Pull in
            if !state.queued.isEmpty {
                let count = min(maxBytes, state.queued.count)
                defer { state.queued.removeFirst(count) }
                return .bytes(Array(state.queued[..<count]))
            }
            if state.closed { return state.aborted || (endsOnlyWhenFinished && !state.finished) ? .failed : .end }
            park()
            state.parked = true
            return .parked
        }
        if case .bytes = pull { signalRoom() }
        return pull
    }

    private func signalRoom() {
        room.lock()
        room.broadcast()
        room.unlock()
    }

    /// Wakes a parked connection exactly once per parking: waking one that is not parked is undefined in libmicrohttpd.
    private static func wake(_ state: inout State) {
        guard state.parked else { return }
        state.parked = false
        state.waker?()
    }
}

extension EventStream {
    /// Reads the stream to its end on this thread, for a reader in the same process (tests that call handlers
    /// directly): its bytes and whether it ended as failed; nil when it has not ended within `timeout`.
    public func readToEnd(timeout: TimeInterval = 20) -> (bytes: [UInt8], failed: Bool)? {
        var bytes: [UInt8] = []
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            switch next(maxBytes: 1 << 16, park: {}) {
            case .bytes(let part): bytes += part
            case .parked: usleep(1_000)
            case .end: return (bytes, false)
            case .failed: return (bytes, true)
            }
        }
        return nil
    }
}
