import Foundation

/// The threads that answer requests, apart from libmicrohttpd's threads, which only read and write connections.
///
/// A connection whose request is complete is suspended and its request handed here, so an answer that waits (for the
/// database's writer, for PostgreSQL, for a password's hash) never holds the other connections its network thread
/// serves. Quick reads (a page's GET) take turns on as many threads as there are cores, first come first served: on
/// two cores eight pages rendered at once each take as long as all eight, and the switching between them cost a
/// fifth of the throughput. Everything else has its own, larger set of threads, so reads never queue behind it.
final class RequestWorkers: @unchecked Sendable {
    private let reads: JobLine
    private let others: JobLine

    init(readThreads: Int, otherThreads: Int) {
        reads = JobLine(name: "fieldbook.reads", threads: readThreads)
        others = JobLine(name: "fieldbook.requests", threads: otherThreads)
    }

    func run(quickRead: Bool, _ job: @escaping @Sendable () -> Void) {
        (quickRead ? reads : others).add(job)
    }

    /// Runs every job already handed over, then ends the threads; jobs handed over afterwards run on the caller.
    func stop() {
        reads.stop()
        others.stop()
    }
}

/// Jobs run in the order they came by a fixed set of threads.
private final class JobLine: @unchecked Sendable {
    private let condition = NSCondition()
    /// Jobs not yet taken from `next` on; a taken one is set to nil at once, so nothing it holds outlives its run.
    private var jobs: [(@Sendable () -> Void)?] = []
    private var next = 0
    private var stopping = false
    private var running = 0

    init(name: String, threads: Int) {
        running = max(1, threads)
        for index in 0..<running {
            let thread = Thread { [self] in work() }
            thread.name = "\(name)-\(index)"
            thread.start()
        }
    }

    func add(_ job: @escaping @Sendable () -> Void) {
        condition.lock()
        guard !stopping else {
            condition.unlock()
            return job()
        }
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        while running > 0 { condition.wait() }
        condition.unlock()
    }

    private func work() {
        while let job = take() { job() }
        condition.lock()
        running -= 1
        condition.broadcast()
        condition.unlock()
    }

    /// The oldest job, waiting for one; nil once stopping and none is left.
    private func take() -> (@Sendable () -> Void)? {
        condition.lock()
        defer { condition.unlock() }
        while next == jobs.count {
            if stopping { return nil }
            condition.wait()
        }
        let job = jobs[next]
        jobs[next] = nil
        next += 1
        // Taken jobs are dropped in one go once they are half the array, so taking stays cheap.
        if next > 64, next * 2 > jobs.count {
            jobs.removeFirst(next)
            next = 0
        }
        return job
    }
}
