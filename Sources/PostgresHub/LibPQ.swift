import CPostgres
import Foundation

/// An error PostgreSQL or libpq reported, with its SQLSTATE when the server sent one ("23505": a unique key).
public struct PostgresError: Error, CustomStringConvertible, Sendable {
    public let message: String
    public let sqlState: String?

    public var description: String { sqlState.map { "\(message) (SQLSTATE \($0))" } ?? message }

    /// A unique index refused the row.
    var isUniqueViolation: Bool { sqlState == "23505" }

    /// The database refused a value (SQLSTATE classes 22, data exception; 23, integrity; 54, a limit such as an index
    /// row's size), as opposed to a failure of the database or the connection.
    var refusesAValue: Bool { ["22", "23", "54"].contains(sqlState?.prefix(2) ?? "") }
}

/// The rows of one statement, copied out of libpq's result as text (PostgreSQL's text format), so nothing points into
/// memory libpq frees.
struct PostgresRows {
    let columns: [String]
    let values: [[String?]]

    var count: Int { values.count }

    /// The text of `column` in row `row`, nil for NULL (and for a row or column the result does not have).
    func text(_ row: Int, _ column: String) -> String? {
        guard values.indices.contains(row), let index = columns.firstIndex(of: column) else { return nil }
        return values[row][index]
    }

    func int(_ row: Int, _ column: String) -> Int64? { text(row, column).flatMap { Int64($0) } }

    func bool(_ row: Int, _ column: String) -> Bool { text(row, column) == "t" }
}

/// One connection to PostgreSQL, used by one thread at a time (the pool hands it out). Parameters are sent
/// separately from the statement (never spliced into its text), as text.
final class PostgresConnection {
    /// libpq's functions, opened by the first connection (CPostgres.h says why it is not linked).
    private static let library: FieldbookLibPQ? = fieldbook_libpq_open()?.pointee
    private let pq: FieldbookLibPQ
    private let handle: OpaquePointer

    init(url: String) throws {
        guard let pq = Self.library else {
            throw PostgresError(message: fieldbook_libpq_failure().map { String(cString: $0) } ?? "libpq could not be opened", sqlState: nil)
        }
        guard let handle = pq.connectdb(url) else { throw PostgresError(message: "libpq could not allocate a connection", sqlState: nil) }
        // From here on `deinit` closes the handle, also when this initializer throws.
        self.pq = pq
        self.handle = handle
        guard pq.status(handle) == CONNECTION_OK else {
            throw PostgresError(message: "Could not connect to PostgreSQL: \(Self.text(pq.errorMessage(handle)))", sqlState: nil)
        }
        // Warnings (NOTICE) are the server's business, not the hub's log.
        _ = try execute("SET client_min_messages = warning")
    }

    deinit { pq.finish(handle) }

    /// False once the connection broke (the server restarted, the network failed), or when it is still inside a
    /// transaction (a step that failed midway): the pool then drops it rather than hand it to the next request.
    var isUsable: Bool { pq.status(handle) == CONNECTION_OK && pq.transactionStatus(handle) == PQTRANS_IDLE }

    /// True when the server has sent this idle connection anything: it restarted, failed over, or was told to end
    /// it, and its goodbye and the end of the connection wait unread. Nothing else is sent to an idle connection that
    /// does not LISTEN, so the pool drops any that has something to read (at worst a notice), with no round trip.
    var hasUnreadInput: Bool {
        let socket = pq.socket(handle)
        guard socket >= 0 else { return true }
        var waiting = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        return poll(&waiting, 1, 0) != 0
    }

    /// Runs one statement with `$1`, `$2`… bound to `parameters` (nil: NULL); answers its rows.
    @discardableResult
    func execute(_ sql: String, _ parameters: [String?] = []) throws -> PostgresRows {
        let result = withCStrings(parameters) { pointers in
            pq.execParams(handle, sql, Int32(parameters.count), nil, pointers, nil, nil, 0)
        }
        guard let result else { throw connectionError() }
        defer { pq.clear(result) }
        switch pq.resultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_EMPTY_QUERY: return PostgresRows(columns: [], values: [])
        case PGRES_TUPLES_OK: return rows(result)
        default: throw error(result)
        }
    }

    /// Runs `statements` (without parameters), then `sql` with its parameters, in one round trip (libpq's pipeline
    /// mode): the savepoint steps around a pushed operation travel with its write. Answers the rows of `sql`; throws the
    /// first error, after which PostgreSQL skipped the rest.
    @discardableResult
    func execute(after statements: [String], _ sql: String, _ parameters: [String?] = []) throws -> PostgresRows {
        guard !statements.isEmpty else { return try execute(sql, parameters) }
        guard pq.enterPipelineMode(handle) == 1 else { throw connectionError() }
        defer { _ = pq.exitPipelineMode(handle) }
        for statement in statements where pq.sendQueryParams(handle, statement, 0, nil, nil, nil, nil, 0) != 1 { throw connectionError() }
        let sent = withCStrings(parameters) { pointers in
            pq.sendQueryParams(handle, sql, Int32(parameters.count), nil, pointers, nil, nil, 0)
        }
        guard sent == 1, pq.pipelineSync(handle) == 1 else { throw connectionError() }
        var rows = PostgresRows(columns: [], values: [])
        var failure: PostgresError?
        // Each statement's results end with a null; the sync point's result comes last.
        for index in 0...statements.count {
            while let result = pq.getResult(handle) {
                defer { pq.clear(result) }
                switch pq.resultStatus(result) {
                case PGRES_TUPLES_OK where index == statements.count: rows = self.rows(result)
                case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY, PGRES_PIPELINE_ABORTED: break
                default: failure = failure ?? error(result)
                }
            }
        }
        guard let sync = pq.getResult(handle) else { throw failure ?? connectionError() }
        let synced = pq.resultStatus(sync) == PGRES_PIPELINE_SYNC
        pq.clear(sync)
        if let failure { throw failure }
        guard synced else { throw PostgresError(message: "the pipeline ended without its sync point", sqlState: nil) }
        return rows
    }

    /// Runs statements without parameters, several separated by semicolons (a schema).
    func executeScript(_ sql: String) throws {
        guard let result = pq.exec(handle, sql) else { throw connectionError() }
        defer { pq.clear(result) }
        let status = pq.resultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK || status == PGRES_EMPTY_QUERY else { throw error(result) }
    }

    /// A failed result's message and SQLSTATE.
    private func error(_ result: OpaquePointer) -> PostgresError {
        let state = pq.resultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
        return PostgresError(message: Self.text(pq.resultErrorMessage(result)), sqlState: state)
    }

    /// What libpq says went wrong with the connection itself.
    private func connectionError() -> PostgresError {
        PostgresError(message: Self.text(pq.errorMessage(handle)), sqlState: nil)
    }

    /// Waits up to `timeout` seconds for a NOTIFY on a channel this connection LISTENs to; answers the channels heard
    /// (empty when the time ran out). Throws when the connection broke.
    func notifications(timeout: TimeInterval) throws -> [String] {
        var heard = drainNotifications()
        guard heard.isEmpty else { return heard }
        var descriptor = pollfd(fd: pq.socket(handle), events: Int16(POLLIN), revents: 0)
        guard descriptor.fd >= 0 else { throw PostgresError(message: "the connection to PostgreSQL is closed", sqlState: nil) }
        let ready = poll(&descriptor, 1, Int32(timeout * 1000))
        if ready > 0 {
            guard pq.consumeInput(handle) == 1 else { throw connectionError() }
            heard = drainNotifications()
        }
        return heard
    }

    private func drainNotifications() -> [String] {
        var channels: [String] = []
        while let notice = pq.notifies(handle) {
            channels.append(String(cString: notice.pointee.relname))
            pq.freemem(notice)
        }
        return channels
    }

    private func rows(_ result: OpaquePointer) -> PostgresRows {
        let rowCount = Int(pq.ntuples(result)), columnCount = Int(pq.nfields(result))
        let columns = (0..<columnCount).map { pq.fname(result, Int32($0)).map { String(cString: $0) } ?? "" }
        var values: [[String?]] = []
        values.reserveCapacity(rowCount)
        for row in 0..<rowCount {
            values.append((0..<columnCount).map { column in
                pq.getisnull(result, Int32(row), Int32(column)) == 1 ? nil : pq.getvalue(result, Int32(row), Int32(column)).map { String(cString: $0) }
            })
        }
        return PostgresRows(columns: columns, values: values)
    }

    private static func text(_ pointer: UnsafePointer<CChar>?) -> String {
        pointer.map { String(cString: $0).trimmingCharacters(in: .whitespacesAndNewlines) } ?? "unknown error"
    }
}

/// Calls `body` with C strings for `strings` (NULL for nil), valid only during the call.
private func withCStrings<Result>(_ strings: [String?], _ body: ([UnsafePointer<CChar>?]) -> Result) -> Result {
    let copies = strings.map { $0.map { strdup($0) } ?? nil }
    defer { copies.forEach { free($0) } }
    return body(copies.map { $0.map { UnsafePointer($0) } })
}

/// PostgreSQL's text form of an array, for sending many values as one parameter (`= ANY($1::uuid[])`, `unnest`).
enum PostgresArray {
    /// Each value quoted, with `"` and `\` escaped. Written byte by byte: a push's answers make a literal of hundreds of
    /// kilobytes, too long for a pass of `replacingOccurrences` per escaped character.
    static func literal(_ values: [String]) -> String {
        var bytes: [UInt8] = [UInt8(ascii: "{")]
        bytes.reserveCapacity(values.reduce(2) { $0 + $1.utf8.count + 3 })
        for (index, value) in values.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(UInt8(ascii: "\""))
            for byte in value.utf8 {
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { bytes.append(UInt8(ascii: "\\")) }
                bytes.append(byte)
            }
            bytes.append(UInt8(ascii: "\""))
        }
        bytes.append(UInt8(ascii: "}"))
        return String(decoding: bytes, as: UTF8.self)
    }
}
