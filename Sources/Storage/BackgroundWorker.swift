import Foundation
import Synchronization

/// A thread that runs `work` when woken, and every `recheckInterval` seconds besides: the shape of Fieldbook's
/// background services (the notifier, the photo file sweeper). `stop` waits for the work under way to finish.
public final class BackgroundWorker: Sendable {
    private let name: String
    private let recheckInterval: TimeInterval
    private let work: @Sendable () -> Void
    private let flags = Mutex((running: false, stopping: false))
    private let signal = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    public init(name: String, recheckInterval: TimeInterval, work: @escaping @Sendable () -> Void) {
        self.name = name
        self.recheckInterval = recheckInterval
        self.work = work
    }

    public func start() {
        let starts = flags.withLock { flags -> Bool in
            guard !flags.running else { return false }
            flags = (true, false)
            return true
        }
        guard starts else { return }
        let thread = Thread { [self] in loop() }
        thread.name = name
        thread.start()
    }

    /// Stops after the work under way and waits for the thread to end.
    public func stop() {
        let wasRunning = flags.withLock { flags -> Bool in
            guard flags.running else { return false }
            flags.stopping = true
            return true
        }
        guard wasRunning else { return }
        signal.signal()
        finished.wait()
    }

    /// Runs the work soon: wakes that arrive while it runs each start one more run.
    public func wake() { signal.signal() }

    private func loop() {
        defer {
            flags.withLock { $0 = (false, false) }
            finished.signal()
        }
        while !flags.withLock({ $0.stopping }) {
            work()
            _ = signal.wait(timeout: .now() + recheckInterval)
        }
    }
}
