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
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        defer { try? queue.close() }
        return try queue.read { db in
            let integrity = try String.fetchAll(db, sql: "PRAGMA integrity_check")
            var problems = integrity == ["ok"] ? [] : integrity.map { "The file is damaged: SQLite reports \"\($0)\"." }
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

public enum DatabaseCheckFailure: Error, CustomStringConvertible {
    case noDatabase(String)

    public var description: String {
        switch self {
        case .noDatabase(let path): "There is no database at \(path); check --data."
        }
    }
}
