import Foundation
import Synchronization

/// A thread that runs `work` when woken, and every `recheckInterval` seconds besides: the shape of Fieldbook's
/// background services (the notifier, the photo file sweeper). `stop` waits for the work under way to finish.
public final class BackgroundWorker: Sendable {
    private let name: String
    private let recheckInterval: TimeInterval
    private let work: @Sendable () -> Void
    private let yieldsToRequests: Bool
    private let flags = Mutex((running: false, stopping: false))
    private let signal = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    /// `yieldsToRequests`: upkeep nobody waits for runs at a lower CPU priority, so on a small machine the requests
    /// and the sync it shares the cores with go first; alone it runs as fast as ever.
    public init(name: String, recheckInterval: TimeInterval, yieldsToRequests: Bool = false, work: @escaping @Sendable () -> Void) {
        self.name = name
        self.recheckInterval = recheckInterval
        self.yieldsToRequests = yieldsToRequests
        self.work = work
    }

    /// Starts the thread, unless it runs already; `prepare` runs first, and only then (so a second start does not,
    /// say, put back in the queue the job the running thread is writing).
    public func start(prepare: () -> Void = {}) {
        let starts = flags.withLock { flags -> Bool in
            guard !flags.running else { return false }
            flags = (true, false)
            return true
        }
        guard starts else { return }
        prepare()
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

    /// Wakes the worker after each commit that `matters`.
    /// Weakly: the feed outlives the worker, whose work may hold the database that holds the feed.
    public func wake(on feed: ChangeFeed, when matters: @escaping @Sendable (CommittedChanges) -> Bool) {
        feed.subscribe { [weak self] committed in
            if matters(committed) { self?.wake() }
        }
    }

    /// True once `stop` was asked for: long work checks it to end early.
    public var isStopping: Bool { flags.withLock { $0.stopping } }

    /// Runs the work soon: wakes that arrive while it runs each start one more run.
    public func wake() { signal.signal() }

    private func loop() {
        // On Linux a nice value belongs to the thread, and `who` 0 names the calling thread. Nice 10 gets about a tenth
        // of a core that a request thread also wants.
        #if os(Linux)
        if yieldsToRequests { _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10) }
        #endif
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

/// Lets a worker's closure reach the service that owns the worker, which is made after it (the service holds the
/// worker, so the closure may not hold the service): set `run` once the service exists, with the service held weakly.
public final class RunnerBox: @unchecked Sendable {
    public var run: (() -> Void)?
    public init() {}
}
