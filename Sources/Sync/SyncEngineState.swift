import Foundation
import Storage

/// Progress of the running sync session. `fraction` only ever grows within a session.
public struct SyncProgress: Sendable, Equatable {
    /// The step the session is on.
    public enum Phase: String, Sendable { case connecting, pushing, pulling }

    public var phase: Phase
    public var fraction: Double
    public var pushed: Int
    public var pulled: Int
    /// The progress in English; pages word it in the reader's language from the phase and counts.
    public var message: String
    /// The changes waiting to be sent when the session started.
    public var toSend = 0

    public var percent: Int { Int((fraction * 100).rounded(.down)) }
}

/// What the engine reports to pages: hub reachability, the current session, and whether sync is paused.
public struct SyncEngineSnapshot: Sendable, Equatable {
    public var hub: HubState
    public var paused: Bool
    public var progress: SyncProgress?
    public var lastError: String?
}

/// What ends a session before it is done, and how its history row says so.
enum SessionStop: Sendable, Equatable {
    case stopping, paused, cancelled

    var outcome: SyncSessionRecord.Outcome {
        switch self {
        case .stopping: .interrupted
        case .paused: .paused
        case .cancelled: .cancelled
        }
    }
}

/// The engine's shared state, guarded by one condition lock: wake-ups, pause, cancel, stop, progress.
final class SyncEngineState: @unchecked Sendable {
    private let condition = NSCondition()
    private var wakeRequested = false
    private var stopRequested = false
    private var cancelRequested = false
    private var threadRunning = false
    private var current = SyncEngineSnapshot(hub: .checking, paused: false, progress: nil, lastError: nil)

    func snapshot() -> SyncEngineSnapshot { locked { current } }

    var shouldStop: Bool { locked { stopRequested } }
    var isThreadRunning: Bool { locked { threadRunning } }

    func woken(reason: String) {
        locked {
            wakeRequested = true
            condition.broadcast()
        }
    }

    func requestStop() {
        locked {
            stopRequested = true
            cancelRequested = true
            condition.broadcast()
        }
    }

    func requestCancel() { locked { cancelRequested = true } }

    /// Why the running session should end now, if it should: the engine stopping, a pause, or a cancel request
    /// made during the session (taken once).
    func takeStop() -> SessionStop? {
        locked {
            defer { cancelRequested = false }
            if stopRequested { return .stopping }
            if current.paused { return .paused }
            return cancelRequested ? .cancelled : nil
        }
    }

    func setPaused(_ paused: Bool) { locked { current.paused = paused } }
    func setThreadRunning(_ running: Bool) { locked { threadRunning = running } }

    func setHub(_ hub: HubState, error: String? = nil) {
        locked {
            current.hub = hub
            current.lastError = error
        }
    }

    func setError(_ error: String?) { locked { current.lastError = error } }

    /// Sets progress, never letting the fraction fall back within a session.
    func setProgress(_ progress: SyncProgress?) {
        locked {
            guard var progress else {
                current.progress = nil
                return
            }
            progress.fraction = max(progress.fraction, current.progress?.fraction ?? 0)
            current.progress = progress
        }
    }

    func waitForWake(timeout: TimeInterval) {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while !wakeRequested && !stopRequested {
            if !condition.wait(until: deadline) { break }
        }
        wakeRequested = false
        cancelRequested = false
    }

    /// Sleeps `seconds`, or less when a stop is requested; wake-ups do not end it (they are for the sync thread).
    func rest(seconds: TimeInterval) {
        let deadline = Date().addingTimeInterval(seconds)
        condition.lock()
        defer { condition.unlock() }
        while !stopRequested, condition.wait(until: deadline) {}
    }

    private func locked<T>(_ body: () -> T) -> T {
        condition.lock()
        defer { condition.unlock() }
        return body()
    }
}
