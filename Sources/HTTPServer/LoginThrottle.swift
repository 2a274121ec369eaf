import Foundation
import Synchronization

/// Slows down repeated failed sign-ins per account and per client address.
public final class LoginThrottle: Sendable {
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
    public func waitTime(for keys: [String], now: Date = Date()) -> Int {
        records.withLock { records in
            keys.compactMap { records[$0] }.map { Self.remaining($0, now: now) }.max() ?? 0
        }
    }

    public func recordFailure(for keys: [String], now: Date = Date()) {
        records.withLock { records in
            if records.count > 10_000 { records = records.filter { now.timeIntervalSince($0.value.lastFailure) < Self.window } }
            for key in keys {
                var record = records[key] ?? Record(failures: 0, lastFailure: now)
                if now.timeIntervalSince(record.lastFailure) > Self.window { record.failures = 0 }
                record.failures += 1
                record.lastFailure = now
                records[key] = record
            }
        }
    }

    public func recordSuccess(for keys: [String]) {
        records.withLock { records in keys.forEach { records[$0] = nil } }
    }

    private static func remaining(_ record: Record, now: Date) -> Int {
        guard record.failures >= freeAttempts else { return 0 }
        let delay = min(30 * pow(2, Double(record.failures - freeAttempts)), maxDelay)
        return max(0, Int((record.lastFailure.addingTimeInterval(delay).timeIntervalSince(now)).rounded(.up)))
    }
}
