import Foundation
import GRDB

/// SQLite's own checks of a database file, read-only and without migrating it: `PRAGMA integrity_check` (damaged
/// pages, indexes that disagree with their tables) and `PRAGMA foreign_key_check` (rows that refer to missing records).
public struct DatabaseCheck: Sendable {
    /// Each problem found, in plain words; empty when the file is intact.
    public let problems: [String]

    public var isIntact: Bool { problems.isEmpty }

    public static func run(path: String) throws -> DatabaseCheck {
        guard FileManager.default.fileExists(atPath: path) else { throw DatabaseCheckFailure.noDatabase(path) }
        return try readingOnly(path) { db in
            var problems = try integrityProblems(db)
            for row in try Row.fetchAll(db, sql: "PRAGMA foreign_key_check") {
                let table: String = row[0]
                let rowid: Int64? = row[1]
                let parent: String = row[2]
                problems.append("A row of \(table) (row \(rowid.map(String.init) ?? "without rowid")) refers to a record of \(parent) that does not exist.")
            }
            return DatabaseCheck(problems: problems)
        }
    }
}

extension DatabaseCheck {
    /// SQLite's integrity check alone, of the file at `path` (a backup's copy), in plain words; empty when intact.
    static func integrityProblems(path: String) throws -> [String] {
        try readingOnly(path) { try integrityProblems($0) }
    }

    /// Reads the database file at `path` without writing to it or migrating it (a check, a backup's copy).
    static func readingOnly<T>(_ path: String, _ body: (Database) throws -> T) throws -> T {
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        defer { try? queue.close() }
        return try queue.read(body)
    }

    private static func integrityProblems(_ db: Database) throws -> [String] {
        let integrity = try String.fetchAll(db, sql: "PRAGMA integrity_check")
        return integrity == ["ok"] ? [] : integrity.map { "The file is damaged: SQLite reports \"\($0)\"." }
    }
}

public enum DatabaseCheckFailure: Error, CustomStringConvertible {
    case noDatabase(String)

    public var description: String {
        switch self {
        case .noDatabase(let path): "There is no database at \(path); check --data."
        }
    }
}
