import Foundation
import GRDB
import GRDBSQLite

/// The rows a search index matched, as a bitmap SQLite tests a rowid against by one bit. This file is the one place
/// Fieldbook calls SQLite's C API itself (GRDB makes every other call): GRDB's own functions hand each argument over as a
/// Swift value, which would cost more per walked index entry than the lookup this replaces.
///
/// A page of a common search is read by walking its sort's index and keeping the matched rows (`ListQuery`). Asked as
/// `+rowid IN (SELECT rowid FROM <index> WHERE <index> MATCH ?)`, SQLite first puts every match into a temporary b-tree
/// and then looks each walked entry up in it, and counting the matches reads them a second time.
/// `SELECT count(*), fieldbook_rowid_set(rowid) FROM <index> WHERE <index> MATCH ?` reads the matches once, and
/// `fieldbook_rowid_set_contains(?, rowid)`, that set bound, tests each walked entry by one bit.
///
/// The set's bytes: the lowest rowid (8 bytes, this machine's order), then one bit per rowid from it to the highest.
/// They never leave the process.
enum RowIdSet {
    /// The aggregate: the set of its argument's rowids, or NULL for no row or a span of `widestSpan` or more.
    static let build = "fieldbook_rowid_set"
    /// `(set, rowid)`: 1 when the set holds the rowid, 0 otherwise (and for a NULL set).
    static let contains = "fieldbook_rowid_set_contains"

    /// The widest span of rowids a set covers, in rowids (16 MB of bits). SQLite gives a table's new row the highest
    /// rowid plus one, so a span is about as wide as the rows the table ever held; a wider one answers NULL, and the
    /// caller reads the matches another way.
    static let widestSpan: Int64 = 1 << 27

    /// Adds both functions to a connection (`Configuration.prepareDatabase`). DIRECTONLY: no view or trigger in a
    /// database file can call them.
    static func register(_ db: Database) throws {
        let flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_DIRECTONLY
        let connection = db.sqliteConnection
        var code = sqlite3_create_function_v2(connection, build, 1, flags, nil, nil, addRowId, finishSet, nil)
        if code == SQLITE_OK {
            code = sqlite3_create_function_v2(connection, contains, 2, flags, nil, setContains, nil, nil, nil)
        }
        guard code == SQLITE_OK else { throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "could not add \(build)") }
    }

    /// What the aggregate holds between rows, in memory SQLite zeroes and frees (`sqlite3_aggregate_context`); the
    /// rowids themselves are in `rowIds`, which `finishSet` frees (SQLite calls it for a statement reset midway too).
    private struct Gathered {
        var rowIds: UnsafeMutablePointer<Int64>?
        var count: Int
        var capacity: Int
        var lowest: Int64
        var highest: Int64
        /// The span already passed `widestSpan`: the rowids are let go and no more are kept, so a set that will be NULL
        /// does not hold memory for every match first.
        var tooWide: Bool
    }

    private static let addRowId: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = { context, _, arguments in
        guard let raw = sqlite3_aggregate_context(context, Int32(MemoryLayout<Gathered>.size)) else {
            return sqlite3_result_error_nomem(context)
        }
        let gathered = raw.assumingMemoryBound(to: Gathered.self)
        guard !gathered.pointee.tooWide else { return }
        let rowId = sqlite3_value_int64(arguments![0])
        let first = gathered.pointee.count == 0
        let lowest = first ? rowId : min(gathered.pointee.lowest, rowId)
        let highest = first ? rowId : max(gathered.pointee.highest, rowId)
        let (span, overflow) = highest.subtractingReportingOverflow(lowest)
        if overflow || span >= widestSpan {
            free(gathered.pointee.rowIds)
            gathered.pointee.rowIds = nil
            gathered.pointee.tooWide = true
            return
        }
        if gathered.pointee.count == gathered.pointee.capacity {
            let capacity = max(1024, gathered.pointee.capacity * 2)
            guard let grown = realloc(gathered.pointee.rowIds, capacity * MemoryLayout<Int64>.stride) else {
                return sqlite3_result_error_nomem(context)
            }
            gathered.pointee.rowIds = grown.assumingMemoryBound(to: Int64.self)
            gathered.pointee.capacity = capacity
        }
        (gathered.pointee.lowest, gathered.pointee.highest) = (lowest, highest)
        gathered.pointee.rowIds![gathered.pointee.count] = rowId
        gathered.pointee.count += 1
    }

    private static let finishSet: @convention(c) (OpaquePointer?) -> Void = { context in
        guard let raw = sqlite3_aggregate_context(context, 0) else { return sqlite3_result_null(context) }
        let gathered = raw.assumingMemoryBound(to: Gathered.self).pointee
        defer { free(gathered.rowIds) }
        guard !gathered.tooWide, let rowIds = gathered.rowIds, gathered.count > 0 else { return sqlite3_result_null(context) }
        let span = gathered.highest - gathered.lowest  // below `widestSpan`: `addRowId` stops at a wider one
        let size = 8 + Int(span / 8) + 1
        guard let bytes = calloc(size, 1) else { return sqlite3_result_error_nomem(context) }
        bytes.storeBytes(of: gathered.lowest, as: Int64.self)
        let bits = bytes.advanced(by: 8).assumingMemoryBound(to: UInt8.self)
        for index in 0..<gathered.count {
            let offset = Int(rowIds[index] - gathered.lowest)
            bits[offset >> 3] |= UInt8(1) << UInt8(offset & 7)
        }
        sqlite3_result_blob64(context, bytes, sqlite3_uint64(size)) { free($0) }
    }

    private static let setContains: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = { context, _, arguments in
        let set = arguments![0]
        let rowId = sqlite3_value_int64(arguments![1])
        // The blob before its length, as SQLite's documentation orders them.
        guard let bytes = sqlite3_value_blob(set) else { return sqlite3_result_int(context, 0) }
        let size = Int(sqlite3_value_bytes(set))
        guard size > 8 else { return sqlite3_result_int(context, 0) }
        let (offset, overflow) = rowId.subtractingReportingOverflow(bytes.loadUnaligned(as: Int64.self))
        guard !overflow, offset >= 0, offset < Int64(size - 8) * 8 else { return sqlite3_result_int(context, 0) }
        let byte = bytes.load(fromByteOffset: 8 + Int(offset >> 3), as: UInt8.self)
        sqlite3_result_int(context, Int32((byte >> UInt8(offset & 7)) & 1))
    }
}
