import Dispatch
import Foundation
@testable import HTTPServer
import Testing

/// A connection whose request headers take longer than the limit in total is shut down; one whose headers arrived,
/// or that already left, is not. The real server's case (trickling clients) is in tests/reliability.
@Suite struct HeaderDeadlinesTests {
    /// A connected pair of sockets: the server's end is watched, the client's end shows whether it was shut down.
    final class Pair {
        var ends: [Int32] = [-1, -1]
        init() throws {
            guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0 else { throw POSIXError(.EMFILE) }
        }
        deinit { ends.forEach { close($0) } }
        var server: Int32 { ends[0] }
        /// True when reading the client's end sees the end of the stream (the server's end was shut down).
        var clientSeesEnd: Bool {
            var byte: UInt8 = 0
            return recv(ends[1], &byte, 1, Int32(MSG_DONTWAIT)) == 0
        }
    }

    @Test func headersThatTakeLongerThanTheLimitInTotalEndTheConnection() throws {
        let deadlines = HeaderDeadlines(seconds: 5)
        let slow = try Pair(), quick = try Pair(), gone = try Pair()
        deadlines.opened(1, socket: slow.server)
        deadlines.opened(2, socket: quick.server)
        deadlines.opened(3, socket: gone.server)
        deadlines.headersArrived(2)
        deadlines.closed(3)
        let later = DispatchTime.now() + .seconds(6)
        #expect(deadlines.sweep(now: DispatchTime.now() + .seconds(4)) == 0)
        #expect(deadlines.sweep(now: later) == 1)
        #expect(slow.clientSeesEnd)
        #expect(!quick.clientSeesEnd)
        #expect(!gone.clientSeesEnd)
        #expect(deadlines.sweep(now: later) == 0, "a connection is shut down once")
    }

    @Test func aKeptAliveConnectionIsWatchedAgainAfterEachAnswer() throws {
        let deadlines = HeaderDeadlines(seconds: 5)
        let pair = try Pair()
        deadlines.opened(1, socket: pair.server)
        deadlines.headersArrived(1)
        #expect(deadlines.sweep(now: DispatchTime.now() + .seconds(60)) == 0, "a request being answered has no header deadline")
        deadlines.answered(1)
        #expect(deadlines.sweep(now: DispatchTime.now() + .seconds(6)) == 1)
        #expect(pair.clientSeesEnd)
    }
}
