import Foundation
import GRDB

/// Where the deep pages of a list already read begin, so reading one again, or the next, starts from that row's sort key
/// instead of stepping over every index entry before it, for each request. An anchor is a row's offset in one list (its filters, their values and its order) and its
/// sort key, valid at one records version (`AppDatabase.recordsVersion`): any write to a synced table moves the version,
/// and the anchors of the older version are no longer used.
final class PageAnchors: @unchecked Sendable {
    struct Anchor: Equatable {
        let offset: Int
        let key: [DatabaseValue]
    }

    /// Pages starting before this offset are read as they were: skipping fewer entries costs less than an anchor.
    let shallowestOffset: Int
    /// Bounds on what is kept: lists, and anchors per list (a list past it starts again empty).
    private static let mostLists = 64
    private static let mostAnchorsPerList = 128

    private struct List {
        var version: Int64
        /// In offset order.
        var anchors: [Anchor]
        var lastUse: UInt64
    }

    private let lock = NSLock()
    private var lists: [String: List] = [:]
    private var clock: UInt64 = 0
    /// Per table: the columns declared NOT NULL.
    private var requiredColumns: [String: Set<String>] = [:]

    init(shallowestOffset: Int = 1_000) {
        self.shallowestOffset = shallowestOffset
    }

    /// The anchor at or before `offset` nearest to it, in `list` as it is at `version`.
    func nearest(in list: String, at version: Int64, atOrBefore offset: Int) -> Anchor? {
        lock.withLock {
            guard var entry = lists[list], entry.version == version else { return nil }
            clock += 1
            entry.lastUse = clock
            lists[list] = entry
            return entry.anchors.last { $0.offset <= offset }
        }
    }

    /// Keeps `anchors` for `list` at `version`; those of an older version are dropped.
    func keep(_ anchors: [Anchor], in list: String, at version: Int64) {
        lock.withLock {
            clock += 1
            var entry = lists[list] ?? List(version: version, anchors: [], lastUse: clock)
            guard entry.version <= version else { return }  // a read of an older snapshot finishing late
            if entry.version < version || entry.anchors.count + anchors.count > Self.mostAnchorsPerList {
                entry.anchors = []
                entry.version = version
            }
            for anchor in anchors where !entry.anchors.contains(where: { $0.offset == anchor.offset }) {
                let at = entry.anchors.firstIndex { $0.offset > anchor.offset } ?? entry.anchors.endIndex
                entry.anchors.insert(anchor, at: at)
            }
            entry.lastUse = clock
            lists[list] = entry
            if lists.count > Self.mostLists, let oldest = lists.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                lists.removeValue(forKey: oldest.key)
            }
        }
    }

    /// The columns of `table` declared NOT NULL, read once per table. (A primary key other than an INTEGER one may
    /// hold NULL in SQLite unless it is declared so; every table here declares `id TEXT PRIMARY KEY NOT NULL`.)
    func requiredColumns(_ db: Database, table: String) throws -> Set<String> {
        if let known = lock.withLock({ requiredColumns[table] }) { return known }
        let columns = Set(try Row.fetchAll(db, sql: "SELECT name FROM pragma_table_info(?) WHERE \"notnull\" = 1", arguments: [table])
            .map { $0[0] as String })
        lock.withLock { requiredColumns[table] = columns }
        return columns
    }
}

/// A list's order when a row's sort key can stand for its place: every term a column of the listed table that never
/// holds NULL, all in one direction, the last its id (so no two rows share a key). Then the rows at and after a row are
/// those whose key compares at or past its key (a row value comparison, which SQLite answers from the sort's index).
struct KeysetOrder {
    /// `p.name`, `p.id`: the columns in order, and each one's collation (`NOCASE`) or nil.
    let columns: [(name: String, collation: String?)]
    let descending: Bool

    /// Reads `order` (`p.name COLLATE NOCASE ASC, p.id ASC`); nil when a term is anything else.
    init?(_ order: String, alias: String, required: Set<String>) {
        var columns: [(String, String?)] = []
        var directions: Set<Bool> = []
        for term in order.split(separator: ",") {
            var words = term.split(separator: " ").map(String.init)
            let descending = words.last?.uppercased() == "DESC"
            if let last = words.last?.uppercased(), last == "ASC" || last == "DESC" { words.removeLast() }
            directions.insert(descending)
            var collation: String?
            if words.count == 3, words[1].uppercased() == "COLLATE" {
                collation = words[2]
                words.removeLast(2)
            }
            guard words.count == 1 else { return nil }
            let parts = words[0].split(separator: ".")
            guard parts.count == 2, parts[0] == alias, required.contains(String(parts[1])),
                  parts[1].allSatisfy({ $0.isLetter || $0 == "_" }), collation?.allSatisfy(\.isLetter) ?? true else { return nil }
            columns.append((words[0], collation))
        }
        guard directions.count == 1, let descending = directions.first,
              let last = columns.last, last.0 == "\(alias).id", last.1 == nil else { return nil }
        self.columns = columns
        self.descending = descending
    }

    /// The condition keeping the row whose key is bound and every row after it. The collation goes with the bound
    /// value: written on the column, SQLite read the whole index rather than searching it.
    var fromAnchor: String {
        let names = columns.map(\.name).joined(separator: ", ")
        let values = columns.map { $0.collation.map { "? COLLATE \($0)" } ?? "?" }.joined(separator: ", ")
        return "(\(names)) \(descending ? "<=" : ">=") (\(values))"
    }

    /// The key's columns, added to a page's selected columns (named so as not to clash with the caller's).
    var selected: String {
        columns.enumerated().map { ", \($0.element.name) AS page_anchor_\($0.offset)" }.joined()
    }
}
