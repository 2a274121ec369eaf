import Foundation
import JSONAPI
import Storage
import Surface
import WebUI

/// What the maintenance commands (`fieldbook check`, `fieldbook routes`) print.
public enum Maintenance {
    /// `fieldbook check`: the checks' verdict in plain words, and whether the database is intact.
    public static func check(_ configuration: AppConfiguration) throws -> (report: String, intact: Bool) {
        try configuration.checkDataFolder(for: .existingDatabase)
        let path = configuration.databasePath
        let result: DatabaseCheck
        do {
            result = try DatabaseCheck.run(path: path)
        } catch let failure as DatabaseCheckFailure {
            throw Refusal(failure.description)
        }
        if result.isIntact {
            return ("\(path) is intact: SQLite's integrity check found no damage, and every reference points to an existing record.", true)
        }
        let lines = result.problems.map { "  - \($0)" }.joined(separator: "\n")
        return ("""
            \(path) has \(result.problems.count) problem\(result.problems.count == 1 ? "" : "s"):
            \(lines)
            Stop Fieldbook and restore the latest backup (README, Backups), or keep this file for a closer look before changing it.
            """, false)
    }

    /// `fieldbook routes --json`: every page route and API operation with its declared access, for the test suites.
    public static func routesJSON(version: String) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let routes = WebUI.declaredRoutes + JSONAPI.declaredRoutes(version: version)
        return String(decoding: try encoder.encode(routes), as: UTF8.self)
    }
}
