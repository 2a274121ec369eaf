import Foundation
import Synchronization

/// Slows down repeated failed sign-ins. Each key counts failures on its own and allows its own number before the waits
/// begin (30 s, then doubling up to 15 minutes). Kept in memory: a restart forgets the counts, which only gives an
/// attacker who can restart the server a few more guesses, while nothing written to disk can be filled up by one.
public final class LoginThrottle: Sendable {
    /// One count: its name and the failures it allows before waits begin.
    public struct Key: Sendable {
        public let name: String
        public let freeAttempts: Int

        public init(_ name: String, freeAttempts: Int = LoginThrottle.freeAttempts) {
            (self.name, self.freeAttempts) = (name, freeAttempts)
        }
    }

    private struct Record {
        var failures: Int
        var lastFailure: Date
    }

    public static let freeAttempts = 5
    public static let window: TimeInterval = 15 * 60
    public static let maxDelay: TimeInterval = 15 * 60
    private let records = Mutex<[String: Record]>([:])

    public init() {}

    /// Seconds the caller must still wait before another attempt for these keys, or 0.
    public func waitTime(for keys: [Key], now: Date = Date()) -> Int {
        records.withLock { records in
            keys.compactMap { key in records[key.name].map { Self.remaining($0, allowing: key.freeAttempts, now: now) } }.max() ?? 0
        }
    }

    public func recordFailure(for keys: [Key], now: Date = Date()) {
        records.withLock { records in
            if records.count > 10_000 { records = records.filter { now.timeIntervalSince($0.value.lastFailure) < Self.window } }
            for key in keys {
                var record = records[key.name] ?? Record(failures: 0, lastFailure: now)
                if now.timeIntervalSince(record.lastFailure) > Self.window { record.failures = 0 }
                record.failures += 1
                record.lastFailure = now
                records[key.name] = record
            }
        }
    }

    /// Clears these counts (a successful sign-in clears its own account's, never an address's).
    public func recordSuccess(for names: [String]) {
        records.withLock { records in names.forEach { records[$0] = nil } }
    }

    private static func remaining(_ record: Record, allowing freeAttempts: Int, now: Date) -> Int {
        guard record.failures >= freeAttempts else { return 0 }
        let delay = min(30 * pow(2, Double(record.failures - freeAttempts)), maxDelay)
        return max(0, Int((record.lastFailure.addingTimeInterval(delay).timeIntervalSince(now)).rounded(.up)))
    }
}
