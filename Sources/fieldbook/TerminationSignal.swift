import Foundation

/// Where the signal handler writes; a C signal handler can capture nothing. Set once, before it is installed.
nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1

/// SIGINT and SIGTERM, caught from the moment this is made, so that one arriving while the server starts (scripts
/// stop it as soon as it prints its address) still stops it cleanly. signal(2) takes effect at once; a dispatch
/// signal source registers later on its own queue, and a SIGTERM in that gap would kill the server or be lost.
final class TerminationSignal: Sendable {
    private let readEnd: Int32

    init() throws {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        // Never block inside the handler, however many signals come.
        _ = fcntl(ends[1], F_SETFL, O_NONBLOCK)
        readEnd = ends[0]
        signalPipeWriteEnd = ends[1]
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber) { _ in
                var byte: UInt8 = 1
                _ = write(signalPipeWriteEnd, &byte, 1) // async-signal-safe, unlike almost everything else
            }
        }
    }

    /// Returns once SIGINT or SIGTERM has arrived; at once if one already has. Later signals change nothing.
    func wait() async {
        let readEnd = readEnd
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread {
                var byte: UInt8 = 0
                while read(readEnd, &byte, 1) < 0 && errno == EINTR {}
                continuation.resume()
            }
        }
    }
}
