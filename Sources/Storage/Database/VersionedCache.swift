import Foundation
import GRDB

/// Answers built from the synced records, kept until the records change. The version is the change log's last
/// sequence: every write to a synced table moves it, from this process or another (a command-line import), so an
/// entry kept for an older version is never served. Bounded by a budget of `cost` (bytes, or rows): the entries
/// used longest ago go first.
public final class VersionedCache<Key: Hashable, Value>: @unchecked Sendable {
    private struct Entry {
        let version: Int64
        let value: Value
        let cost: Int
        var lastUse: UInt64
    }

    private let lock = NSLock()
    private let budget: Int
    private var entries: [Key: Entry] = [:]
    private var held = 0
    private var clock: UInt64 = 0

    public init(budget: Int) { self.budget = budget }

    /// The value kept for `key` if it was built at `version`.
    public func value(for key: Key, at version: Int64) -> Value? {
        lock.withLock {
            guard var entry = entries[key], entry.version == version else { return nil }
            clock += 1
            entry.lastUse = clock
            entries[key] = entry
            return entry.value
        }
    }

    /// Keeps `value`, built at `version`, unless it alone would exceed the budget; older entries make room.
    public func store(_ value: Value, for key: Key, at version: Int64, cost: Int) {
        guard cost <= budget else { return }
        lock.withLock {
            if let old = entries.removeValue(forKey: key) {
                // A slower build of an older version must not replace a newer one.
                guard old.version <= version else { entries[key] = old; return }
                held -= old.cost
            }
            while held + cost > budget, let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                held -= oldest.value.cost
                entries.removeValue(forKey: oldest.key)
            }
            clock += 1
            entries[key] = Entry(version: version, value: value, cost: cost, lastUse: clock)
            held += cost
        }
    }

    /// What the entries cost together (for tests).
    public var heldCost: Int { lock.withLock { held } }
}

extension AppDatabase {
    /// The synced records' version: the change log's last sequence, moved by every write to a synced table.
    public func recordsVersion() throws -> Int64 {
        try read(Self.recordsVersion)
    }

    static func recordsVersion(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT MAX(seq) FROM change_log")) ?? 0
    }
}
