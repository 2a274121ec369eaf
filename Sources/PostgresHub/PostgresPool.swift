import Foundation

/// A bounded set of connections to one PostgreSQL database. A hub process never holds more than `size` connections,
/// however many nodes call it: requests beyond that wait for a connection to come back.
public final class PostgresPool: @unchecked Sendable {
    let url: String
    private let lock = NSLock()
    private var idle: [PostgresConnection] = []
    private let slots: DispatchSemaphore

    public init(url: String, size: Int) {
        self.url = url
        slots = DispatchSemaphore(value: size)
    }

    /// Runs `body` on a connection of the pool; a connection that broke meanwhile is closed rather than kept.
    func withConnection<Result>(_ body: (PostgresConnection) throws -> Result) throws -> Result {
        slots.wait()
        defer { slots.signal() }
        let connection = try idleConnectionStillOpen() ?? PostgresConnection(url: url)
        defer { if connection.isUsable { lock.withLock { idle.append(connection) } } }
        return try body(connection)
    }

    /// An idle connection the server has not hung up on. After a restart or a failover every idle connection is
    /// closed at the server's end; each is dropped here, unused, so that no request fails for having been handed one.
    private func idleConnectionStillOpen() -> PostgresConnection? {
        while let connection = lock.withLock({ idle.popLast() }) {
            if !connection.hasUnreadInput { return connection }
        }
        return nil
    }

    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws.
    func transaction<Result>(_ body: (PostgresConnection) throws -> Result) throws -> Result {
        try withConnection { connection in
            try connection.execute("BEGIN")
            do {
                let result = try body(connection)
                try connection.execute("COMMIT")
                return result
            } catch {
                _ = try? connection.execute("ROLLBACK")
                throw error
            }
        }
    }
}
