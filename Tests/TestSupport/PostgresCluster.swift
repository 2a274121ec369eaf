import Foundation

/// A throwaway PostgreSQL 15 cluster for one test, made by scripts/postgres-cluster.sh (initdb and pg_ctl as the
/// postgres user, in a temporary folder, on a free loopback port) and stopped and removed by `close`.
public final class PostgresCluster: @unchecked Sendable {
    /// A connection URL for the database "fieldbook", owned by the user "fieldbook".
    public let url: String
    private let directory: String

    public init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("fieldbook-pg-\(UUID().uuidString)").path
        url = try Self.script("start", directory).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Runs `body` with a new cluster, stopped and removed afterwards however `body` ends.
    public static func with<Result>(_ body: (PostgresCluster) throws -> Result) throws -> Result {
        let cluster = try PostgresCluster()
        defer { cluster.close() }
        return try body(cluster)
    }

    public func close() {
        _ = try? Self.script("stop", directory)
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Runs SQL as the cluster's superuser (psql), for a test's own setup or inspection; answers psql's unaligned output.
    @discardableResult
    public func psql(_ sql: String) throws -> String {
        let port = URLComponents(string: url)?.port ?? 5432
        return try Self.run("/usr/lib/postgresql/15/bin/psql", ["-X", "-At", "-h", "127.0.0.1", "-p", String(port), "-U", "postgres",
                                                                 "-d", "fieldbook", "-v", "ON_ERROR_STOP=1", "-c", sql])
    }

    private static func script(_ command: String, _ directory: String) throws -> String {
        try run("/bin/bash", [FieldbookProcess.repositoryRoot.appendingPathComponent("scripts/postgres-cluster.sh").path, command, directory])
    }

    /// Runs a program through the shell, its output in files: Foundation's `Process` was seen waiting forever for a
    /// script whose server it started kept running (`waitUntilExit`), so `system` does the waiting here.
    private static func run(_ program: String, _ arguments: [String]) throws -> String {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("fieldbook-pg-run-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: output + ".out"); try? FileManager.default.removeItem(atPath: output + ".err") }
        let command = ([program] + arguments).map(shellQuoted).joined(separator: " ") + " >\(shellQuoted(output + ".out")) 2>\(shellQuoted(output + ".err")) </dev/null"
        let status = system(command)
        let text = (try? String(contentsOfFile: output + ".out", encoding: .utf8)) ?? ""
        guard status == 0 else {
            let problems = (try? String(contentsOfFile: output + ".err", encoding: .utf8)) ?? ""
            throw PostgresClusterError(description: "\(program) \(arguments.joined(separator: " ")) failed (\(status)): \(problems)\(text)")
        }
        return text
    }

    private static func shellQuoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }
}

public struct PostgresClusterError: Error, CustomStringConvertible {
    public let description: String
}
