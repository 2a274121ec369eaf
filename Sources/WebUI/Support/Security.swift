import Foundation
import HTTPServer
import Synchronization

/// Cookie names Fieldbook sets.
enum CookieName {
    static let session = "fieldbook_session"
    static let anonymousCSRF = "fieldbook_csrf"
    static let flash = "fieldbook_flash"
}

/// Compares secrets without leaking where they differ through timing.
func constantTimeEquals(_ a: String, _ b: String) -> Bool {
    let x = Array(a.utf8), y = Array(b.utf8)
    guard x.count == y.count else { return false }
    return zip(x, y).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
}

func randomToken() -> String {
    var generator = SystemRandomNumberGenerator()
    return (0..<24).map { _ in String(format: "%02x", UInt8.random(in: .min ... .max, using: &generator)) }.joined()
}

/// The one-time code printed at start-up that /setup requires, so nobody else on the LAN can claim the first account.
public final class SetupCode: Sendable {
    private let code = Mutex<String?>(nil)

    public init() {}

    /// Makes a new code like `K7QF-2M9X` (no easily confused letters).
    public func generate() -> String {
        let alphabet = Array("ABCDEFGHJKLMNPQRSTUVWXYZ23456789")
        var generator = SystemRandomNumberGenerator()
        let letters = (0..<8).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] }
        let text = String(letters.prefix(4)) + "-" + String(letters.suffix(4))
        code.withLock { $0 = text }
        return text
    }

    func matches(_ candidate: String) -> Bool {
        let normalized = candidate.trimmingCharacters(in: .whitespaces).uppercased()
        return code.withLock { current in current.map { constantTimeEquals($0, normalized) } ?? false }
    }

    func invalidate() { code.withLock { $0 = nil } }
}

/// Slows down repeated failed sign-ins per account and per client address.
final class LoginThrottle: Sendable {
    private struct Record {
        var failures: Int
        var lastFailure: Date
    }

    static let freeAttempts = 5
    static let window: TimeInterval = 15 * 60
    static let maxDelay: TimeInterval = 15 * 60
    private let records = Mutex<[String: Record]>([:])

    /// Seconds the caller must still wait before another attempt for these keys, or 0.
    func waitTime(for keys: [String], now: Date = Date()) -> Int {
        records.withLock { records in
            keys.compactMap { records[$0] }.map { Self.remaining($0, now: now) }.max() ?? 0
        }
    }

    func recordFailure(for keys: [String], now: Date = Date()) {
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

    func recordSuccess(for keys: [String]) {
        records.withLock { records in keys.forEach { records[$0] = nil } }
    }

    private static func remaining(_ record: Record, now: Date) -> Int {
        guard record.failures >= freeAttempts else { return 0 }
        let delay = min(30 * pow(2, Double(record.failures - freeAttempts)), maxDelay)
        return max(0, Int((record.lastFailure.addingTimeInterval(delay).timeIntervalSince(now)).rounded(.up)))
    }
}
