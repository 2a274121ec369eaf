import Dispatch
import Foundation

/// Watches libmicrohttpd's connections for two things it does not notice by itself, and ends them:
///
/// - Request headers that take too long in total. Its timeout counts idle seconds only, so a client that trickles a
///   header line every few seconds could hold a connection for ever, and enough of them fill the server. A
///   connection is watched from when it opens, and again after each answer (a kept-alive connection waiting for its
///   next request), until its next request's headers are complete; past the limit its socket is shut down.
/// - Event streams whose client left. A parked stream's connection is suspended, so libmicrohttpd does not poll its
///   socket: a page that navigated away would keep its connection until the next heartbeat, and a browser moving
///   quickly through pages would reach the per-address limit.
final class ConnectionWatch: @unchecked Sendable {
    private struct Watched {
        let socket: Int32
        /// When the headers now awaited began to be awaited; nil while a request is being answered.
        var awaitedSince: DispatchTime?
        /// For a streamed answer: ends the stream once the client has gone.
        var endStream: (@Sendable () -> Void)?
    }

    private let limitNanoseconds: UInt64
    private let lock = NSLock()
    /// By connection (libmicrohttpd's pointer as a number); entries leave when libmicrohttpd reports the connection
    /// closed, which it does before it closes the socket, so a socket shut down here is never one reused by another.
    private var connections: [Int: Watched] = [:]
    private var timer: DispatchSourceTimer?

    init(headerSeconds: Int) {
        limitNanoseconds = UInt64(max(1, headerSeconds)) * 1_000_000_000
    }

    func opened(_ connection: Int, socket: Int32) {
        guard socket >= 0 else { return }
        lock.withLock { connections[connection] = Watched(socket: socket, awaitedSince: .now()) }
    }

    func headersArrived(_ connection: Int) {
        lock.withLock { connections[connection]?.awaitedSince = nil }
    }

    /// The connection answers with a stream; `end` ends it (it may be called from any thread).
    func streaming(_ connection: Int, end: @escaping @Sendable () -> Void) {
        lock.withLock { connections[connection]?.endStream = end }
    }

    func answered(_ connection: Int) {
        lock.withLock {
            connections[connection]?.awaitedSince = .now()
            connections[connection]?.endStream = nil
        }
    }

    func closed(_ connection: Int) {
        lock.withLock { connections[connection] = nil }
    }

    /// Shuts down every connection past its header deadline (libmicrohttpd then sees the end of the stream and frees
    /// it) and ends every stream whose client closed its side; returns how many of each.
    @discardableResult
    func sweep(now: DispatchTime = .now()) -> (expiredHeaders: Int, vanishedClients: Int) {
        var expired = 0
        var vanished: [@Sendable () -> Void] = []
        lock.withLock {
            for (connection, watched) in connections {
                // `since` may be later than `now`: a connection can be answered between the sweep's start and its lock.
                if let since = watched.awaitedSince, now.uptimeNanoseconds > since.uptimeNanoseconds + limitNanoseconds {
                    shutdown(watched.socket, Int32(SHUT_RDWR))
                    connections[connection]?.awaitedSince = nil
                    expired += 1
                } else if let end = watched.endStream, Self.peerHasClosed(watched.socket) {
                    connections[connection]?.endStream = nil
                    vanished.append(end)
                }
            }
        }
        // Outside the lock: ending a stream resumes its connection, which takes libmicrohttpd's own locks.
        for end in vanished { end() }
        return (expired, vanished.count)
    }

    /// True when the client closed its side (or the connection broke). An event-stream client sends nothing after
    /// its request, so this is the client leaving.
    private static func peerHasClosed(_ socket: Int32) -> Bool {
        let peerClosedWriting: Int16 = 0x2000 // POLLRDHUP (Linux), not imported by Swift without _GNU_SOURCE
        var watched = pollfd(fd: socket, events: peerClosedWriting, revents: 0)
        guard poll(&watched, 1, 0) == 1 else { return false }
        return watched.revents & (peerClosedWriting | Int16(POLLHUP) | Int16(POLLERR)) != 0
    }

    /// Sweeps every second (more often for header limits under 4 s).
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
