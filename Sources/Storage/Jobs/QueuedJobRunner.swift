import Logging

/// A runner of jobs people queue (exports, imports): it writes them one at a time on a worker thread of its own, so a
/// long one holds no request open and shows its progress. Owned by the app: start, stop, `wake`.
public protocol QueuedJobRunner: AnyObject, Sendable {
    /// The thread the jobs are written on, which runs `runOnce` when woken.
    var worker: BackgroundWorker { get }
    var logger: Logger { get }
    /// The jobs, in words, for the log ("exports").
    static var jobs: String { get }
    /// Before the thread starts: puts back in the queue what a stop or a crash left part way, so it is written again.
    func requeueInterrupted() throws
    /// Writes every queued job; answers how many were taken.
    @discardableResult func runOnce() -> Int
}

extension QueuedJobRunner {
    public func start() {
        worker.start {
            do {
                try requeueInterrupted()
            } catch {
                logger.error("could not look for interrupted \(Self.jobs)", metadata: ["error": "\(error)"])
            }
        }
    }

    /// Stops after the job under way (an import's transaction is rolled back, an export's part written removed) and
    /// waits for the thread to end.
    public func stop() { worker.stop() }

    /// Tells the thread a job was queued.
    public func wake() { worker.wake() }

    /// The worker for a runner made after it: it runs the runner's `runOnce`, holding the runner weakly (the runner
    /// holds the worker). Call `attach` once the runner exists.
    static func makeWorker(name: String, recheckInterval: Double) -> (worker: BackgroundWorker, attach: (Self) -> Void) {
        let box = RunnerBox()
        let worker = BackgroundWorker(name: name, recheckInterval: recheckInterval) { box.run?() }
        return (worker, { runner in box.run = { [weak runner] in _ = runner?.runOnce() } })
    }
}
