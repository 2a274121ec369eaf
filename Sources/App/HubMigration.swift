import Domain
import Foundation
import PostgresHub
import Storage

/// `fieldbook hub-migrate --from DATA_FOLDER --database-url URL`: moves a SQLite hub (stopped) into an empty PostgreSQL
/// database: its records with their change numbers, the operations it applied, its sign-ins and its photo files. Nodes
/// linked to the old hub carry on against the new one without linking again (give it the old address, or start them
/// with --upstream). Reads and writes a page at a time.
public enum HubMigration {
    static let page = 2000

    public static func run(_ configuration: AppConfiguration, from folder: String, announce: (String) -> Void) throws {
        guard let url = configuration.databaseURL else { throw InvalidInput("hub-migrate needs --database-url postgresql://USER@HOST:PORT/DB") }
        try DataFolderRules.check(folder, for: .existingDatabase, chosenBy: "--from")
        let databasePath = AppConfiguration.databasePath(in: folder)
        let alone = try ServingLock.alone(folder)
        defer { withExtendedLifetime(alone) {} }
        let source = try AppDatabase(path: databasePath, passwordCost: configuration.passwordCost)
        let target = try PostgresHubServer.connect(url, poolSize: 2, passwordCost: configuration.passwordCost)
        defer { target.close() }
        guard try target.holdsNoRecords() else {
            throw Refusal("The PostgreSQL database already holds a hub's records. Migrate into a new, empty database.")
        }
        do {
            try copy(from: source, to: target, announce: announce)
        } catch {
            throw Refusal("""
                The move stopped part way: \(error)
                The PostgreSQL database now holds part of the hub. Drop it and create it again (dropdb, createdb), then run \
                hub-migrate again; the SQLite hub still holds everything.
                """)
        }
    }

    private static func copy(from source: AppDatabase, to target: PostgresHub, announce: (String) -> Void) throws {
        var cursor: Int64 = 0, records = 0
        while true {
            let changes = try source.changes(after: cursor, limit: page)
            try target.importChanges(changes.changes)
            records += changes.changes.count
            cursor = changes.nextCursor
            if !changes.hasMore { break }
        }
        announce("Moved \(records) records (change log up to \(cursor)).")
        var row: Int64 = 0, operations = 0
        while true {
            let batch = try source.appliedOperations(afterRow: row, limit: page)
            guard !batch.operations.isEmpty else { break }
            try target.importAppliedOperations(batch.operations)
            (row, operations) = (batch.next, operations + batch.operations.count)
        }
        let tokens = try source.apiTokensForHubMigration()
        try target.importTokens(tokens)
        let nodes = try source.nodeCredentials()
        try target.importNodeCredentials(nodes)
        announce("Moved \(operations) applied operations, \(tokens.count) sign-in tokens and \(nodes.count) linked nodes' sign-ins.")
        var files = 0
        for sha in try source.heldPhotoFileHashes() {
            guard let bytes = FileManager.default.contents(atPath: source.photoFiles.path(sha)) else { continue }
            try target.keepPhotoFileFromNode(Array(bytes), sha256: sha)
            files += 1
        }
        announce("Moved \(files) photo files. Start the hub with fieldbook hub --database-url; linked nodes carry on from where they were.")
    }
}
