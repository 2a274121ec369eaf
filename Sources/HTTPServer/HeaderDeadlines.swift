import Dispatch
import Foundation

/// Closes connections whose request headers take too long in total. libmicrohttpd's timeout counts idle seconds only,
/// so a client that trickles a header line every few seconds could hold a connection for ever; a thousand such
/// connections once filled the server. A connection is watched from when it opens, and again after each answer (a
/// kept-alive connection waiting for its next request), until its next request's headers are complete.
final class HeaderDeadlines: @unchecked Sendable {
    private struct Watched {
        let socket: Int32
        /// When the headers now awaited began to be awaited; nil while a request is being answered.
        var awaitedSince: DispatchTime?
    }

    private let limitNanoseconds: UInt64
    private let lock = NSLock()
    /// By connection (libmicrohttpd's pointer as a number); entries leave when libmicrohttpd reports the connection
    /// closed, which it does before it closes the socket, so a socket shut down here is never one reused by another.
    private var connections: [Int: Watched] = [:]
    private var timer: DispatchSourceTimer?

    init(seconds: Int) {
        limitNanoseconds = UInt64(max(1, seconds)) * 1_000_000_000
    }

    func opened(_ connection: Int, socket: Int32) {
        guard socket >= 0 else { return }
        lock.withLock { connections[connection] = Watched(socket: socket, awaitedSince: .now()) }
    }

    func headersArrived(_ connection: Int) {
        lock.withLock { connections[connection]?.awaitedSince = nil }
    }

    func answered(_ connection: Int) {
        lock.withLock { connections[connection]?.awaitedSince = .now() }
    }

    func closed(_ connection: Int) {
        lock.withLock { connections[connection] = nil }
    }

    /// Shuts down every connection past its deadline (libmicrohttpd then sees the end of the stream and frees it);
    /// returns how many.
    @discardableResult
    func sweep(now: DispatchTime = .now()) -> Int {
        lock.withLock {
            var expired = 0
            for (connection, watched) in connections {
                guard let since = watched.awaitedSince, now.uptimeNanoseconds - since.uptimeNanoseconds > limitNanoseconds else { continue }
                shutdown(watched.socket, Int32(SHUT_RDWR))
                connections[connection]?.awaitedSince = nil
                expired += 1
            }
            return expired
        }
    }

    /// Sweeps every second (more often for limits under 4 s), so a connection is closed at most about a second late.
    func start() {
        let interval = DispatchTimeInterval.nanoseconds(Int(min(max(limitNanoseconds / 4, 250_000_000), 1_000_000_000)))
        let source = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
        source.schedule(deadline: .now() + interval, repeating: interval)
        source.setEventHandler { [weak self] in self?.sweep() }
        source.resume()
        lock.withLock { timer = source }
    }

    func stop() {
        lock.withLock { timer }?.cancel()
        lock.withLock {
            timer = nil
            connections.removeAll()
        }
    }
}
