import Dispatch
import Foundation
@testable import HTTPServer
import Synchronization
import Testing

/// A connection whose request headers take longer than the limit in total is shut down, and a stream whose client
/// left is ended; connections that are fine are left alone. The real server's cases are in tests/reliability.
@Suite struct ConnectionWatchTests {
    /// A connected pair of sockets: the server's end is watched, the client's end shows whether it was shut down.
    final class Pair {
        var ends: [Int32] = [-1, -1]
        init() throws {
            guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0 else { throw POSIXError(.EMFILE) }
        }
        deinit { ends.forEach { if $0 >= 0 { close($0) } } }
        var server: Int32 { ends[0] }
        /// True when reading the client's end sees the end of the stream (the server's end was shut down).
        var clientSeesEnd: Bool {
            var byte: UInt8 = 0
            return recv(ends[1], &byte, 1, Int32(MSG_DONTWAIT)) == 0
        }
        func clientLeaves() {
            close(ends[1])
            ends[1] = -1
        }
    }

    @Test func headersThatTakeLongerThanTheLimitInTotalEndTheConnection() throws {
        let watch = ConnectionWatch(headerSeconds: 5)
        let slow = try Pair(), quick = try Pair(), gone = try Pair()
        watch.opened(1, socket: slow.server)
        watch.opened(2, socket: quick.server)
        watch.opened(3, socket: gone.server)
        watch.headersArrived(2)
        watch.closed(3)
        let later = DispatchTime.now() + .seconds(6)
        #expect(watch.sweep(now: DispatchTime.now() + .seconds(4)).expiredHeaders == 0)
        #expect(watch.sweep(now: later).expiredHeaders == 1)
        #expect(slow.clientSeesEnd)
        #expect(!quick.clientSeesEnd)
        #expect(!gone.clientSeesEnd)
        #expect(watch.sweep(now: later).expiredHeaders == 0, "a connection is shut down once")
    }

    @Test func aConnectionAnsweredAfterTheSweepBeganIsNotPastItsDeadline() throws {
        let watch = ConnectionWatch(headerSeconds: 5)
        let pair = try Pair()
        let sweepBegan = DispatchTime.now()
        watch.opened(1, socket: pair.server)
        watch.answered(1)
        // The sweep's clock was read before the answer: the wait is negative, not an overflow.
        #expect(watch.sweep(now: sweepBegan).expiredHeaders == 0)
    }

    @Test func aKeptAliveConnectionIsWatchedAgainAfterEachAnswer() throws {
        let watch = ConnectionWatch(headerSeconds: 5)
        let pair = try Pair()
        watch.opened(1, socket: pair.server)
        watch.headersArrived(1)
        #expect(watch.sweep(now: DispatchTime.now() + .seconds(60)).expiredHeaders == 0, "a request being answered has no header deadline")
        watch.answered(1)
        #expect(watch.sweep(now: DispatchTime.now() + .seconds(6)).expiredHeaders == 1)
        #expect(pair.clientSeesEnd)
    }

    @Test func aStreamWhoseClientLeftIsEndedOnceAndOthersAreNot() throws {
        let watch = ConnectionWatch(headerSeconds: 5)
        let left = try Pair(), staying = try Pair()
        let ended = Atomic<Int>(0)
        for (connection, pair) in [(1, left), (2, staying)] {
            watch.opened(connection, socket: pair.server)
            watch.headersArrived(connection)
            watch.streaming(connection) { ended.add(connection, ordering: .relaxed) }
        }
        #expect(watch.sweep().vanishedClients == 0)
        left.clientLeaves()
        #expect(watch.sweep().vanishedClients == 1)
        #expect(ended.load(ordering: .relaxed) == 1, "only the stream whose client left is ended")
        #expect(watch.sweep().vanishedClients == 0, "a stream is ended once")
    }
}
