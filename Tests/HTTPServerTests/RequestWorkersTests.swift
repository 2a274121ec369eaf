import Foundation
import Synchronization
import Testing
@testable import HTTPServer

/// The worker threads that answer requests: in the order they came, and at a stop, those not begun refused.
@Suite struct RequestWorkersTests {
    final class Log: Sendable {
        let entries = Mutex<[String]>([])
        func add(_ entry: String) { entries.withLock { $0.append(entry) } }
        var all: [String] { entries.withLock { $0 } }
    }

    @Test func jobsRunInTheOrderTheyCame() {
        let workers = RequestWorkers(readThreads: 1, otherThreads: 1)
        let log = Log()
        let done = DispatchGroup()
        for index in 0..<200 {
            done.enter()
            workers.run(quickRead: true, RequestJob(answer: { log.add("\(index)"); done.leave() }, refuse: { done.leave() }))
        }
        done.wait()
        workers.stop()
        #expect(log.all == (0..<200).map(String.init))
    }

    @Test func aStopRefusesWhatHasNotBegunAndWaitsForWhatHas() {
        let workers = RequestWorkers(readThreads: 1, otherThreads: 1)
        let log = Log()
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        workers.run(quickRead: false, RequestJob(answer: { started.signal(); release.wait(); log.add("slow answered") },
                                                 refuse: { log.add("slow refused") }))
        started.wait()
        for index in 0..<3 {
            workers.run(quickRead: false, RequestJob(answer: { log.add("\(index) answered") }, refuse: { log.add("\(index) refused") }))
        }
        let stopped = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            workers.stop()
            stopped.signal()
        }
        // The stop refuses the three waiting at once, then waits for the slow one.
        #expect(stopped.wait(timeout: .now() + 0.3) == .timedOut)
        release.signal()
        stopped.wait()
        workers.run(quickRead: true, RequestJob(answer: { log.add("late answered") }, refuse: { log.add("late refused") }))
        #expect(Set(log.all) == ["0 refused", "1 refused", "2 refused", "slow answered", "late refused"])
    }
}
