import Synchronization

/// The streaming responses a server has open, so that stopping can end them: libmicrohttpd must not be stopped
/// while a connection is parked, and an endless response would otherwise hold the drain up until its deadline.
final class OpenStreams: Sendable {
    private struct State {
        var streams: [ObjectIdentifier: EventStream] = [:]
        var stopping = false
    }

    private let state = Mutex(State())

    /// Tracks `stream` until it closes; once stopping has begun it is closed at once instead.
    func register(_ stream: EventStream) {
        let key = ObjectIdentifier(stream)
        let accepted = state.withLock { state -> Bool in
            guard !state.stopping else { return false }
            state.streams[key] = stream
            return true
        }
        guard accepted else { return stream.close() }
        stream.onClose { [weak self] in self?.state.withLock { _ = $0.streams.removeValue(forKey: key) } }
    }

    /// Accepts streams again (a server started after a stop).
    func reopen() { state.withLock { $0.stopping = false } }

    /// Closes every open stream and every one registered from now on.
    func closeAll() {
        let open = state.withLock { state -> [EventStream] in
            state.stopping = true
            return Array(state.streams.values)
        }
        open.forEach { $0.close() }
    }

    var count: Int { state.withLock { $0.streams.count } }
}
