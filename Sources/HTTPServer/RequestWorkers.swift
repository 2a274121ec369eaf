import Foundation

/// The threads that answer requests, apart from libmicrohttpd's threads, which only read and write connections.
///
/// A connection whose request is complete is suspended and its request handed here, so an answer that waits (for the
/// database's writer, for PostgreSQL, for a password's hash) never holds the other connections its network thread
/// serves. Quick reads (a page's GET) take turns on as many threads as there are cores, first come first served: on
/// two cores eight pages rendered at once each take as long as all eight, and switching between them costs
/// throughput. Everything else has its own, larger set of threads, so reads never queue behind it.
final class RequestWorkers: @unchecked Sendable {
    private let reads: JobLine
    private let others: JobLine

    init(readThreads: Int, otherThreads: Int) {
        reads = JobLine(name: "fieldbook.reads", threads: readThreads)
        others = JobLine(name: "fieldbook.requests", threads: otherThreads)
    }

    func run(quickRead: Bool, _ job: RequestJob) {
        (quickRead ? reads : others).add(job)
    }

    /// Refuses the jobs not yet begun (the server is stopping), waits for those under way, and ends the threads; a job
    /// handed over afterwards is refused at once.
    func stop() {
        reads.stop()
        others.stop()
    }
}

/// One request to answer: `answer` does it; `refuse` answers instead that the server is stopping.
struct RequestJob: Sendable {
    let answer: @Sendable () -> Void
    let refuse: @Sendable () -> Void
}

/// Jobs run in the order they came by a fixed set of threads. At most `maxWaiting` wait: past that, the network thread
/// handing one over waits too, and reads no more requests meanwhile, rather than piling up bodies in memory.
private final class JobLine: @unchecked Sendable {
    private let condition = NSCondition()
    /// Jobs not yet taken from `next` on; a taken one is set to nil at once, so nothing it holds outlives its run.
    private var jobs: [RequestJob?] = []
    private var next = 0
    private var stopping = false
    private var running = 0
    private let maxWaiting: Int

    init(name: String, threads: Int) {
        running = max(1, threads)
        maxWaiting = max(64, 16 * running)
        for index in 0..<running {
            let thread = Thread { [self] in work() }
            thread.name = "\(name)-\(index)"
            thread.start()
        }
    }

    func add(_ job: RequestJob) {
        condition.lock()
        while !stopping, jobs.count - next >= maxWaiting { condition.wait() }
        guard !stopping else {
            condition.unlock()
            return job.refuse()
        }
        jobs.append(job)
        condition.broadcast()
        condition.unlock()
    }

    func stop() {
        condition.lock()
        stopping = true
        let notBegun = jobs[next...].compactMap { $0 }
        jobs.removeAll()
        next = 0
        condition.broadcast()
        condition.unlock()
        notBegun.forEach { $0.refuse() }
        condition.lock()
        while running > 0 { condition.wait() }
        condition.unlock()
    }

    private func work() {
        while let job = take() { job.answer() }
        condition.lock()
        running -= 1
        condition.broadcast()
        condition.unlock()
    }

    /// The oldest job, waiting for one; nil once stopping.
    private func take() -> RequestJob? {
        condition.lock()
        defer { condition.unlock() }
        while next == jobs.count, !stopping { condition.wait() }
        guard !stopping else { return nil }
        let job = jobs[next]
        jobs[next] = nil
        next += 1
        // Taken jobs are dropped in one go once they are more than half the array, so taking stays cheap.
        if next > 64, next * 2 > jobs.count {
            jobs.removeFirst(next)
            next = 0
        }
        // A network thread may be waiting for room.
        condition.broadcast()
        return job
    }
}
