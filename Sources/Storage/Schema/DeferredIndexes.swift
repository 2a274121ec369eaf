import GRDB
import Records

/// A first sync writes the hub's whole community into the node. Kept up row by row, the synced tables' secondary
/// indexes and search indexes are a large part of that work: random UUID-keyed entries into up to six indexes per
/// participant, and every trigram of its search text; building them once afterwards costs far less.
///
/// So the first page of a first sync that has more pages to come drops them, keeping each one's definition in
/// `settings`, and the last page creates them again from those definitions, in its own transaction (which holds the
/// writer while it builds). A sync session that ends part way, a start of the database (after a crash) and an
/// unlink create them too, so they are never missing for longer than one sync session runs. Unique indexes are kept:
/// they hold the rules local writes are checked against. While the indexes are away, lists are read without them
/// (slower), and the search index is not kept up: it finds none of the records written meanwhile, and a record edited
/// here meanwhile may be found by its old text, until the rebuild.
enum DeferredIndexes {
    private static let keyPrefix = "schema.deferred."
    /// The LIKE pattern of those keys (the prefix holds no LIKE wildcard).
    private static let keyPattern = keyPrefix + "%"

    /// Drops the secondary indexes of the synced tables and the triggers that keep their search indexes, keeping their
    /// definitions to be created again by `restore`. `indexes` false drops the search triggers alone, for writers that
    /// read the secondary indexes as they go (demo data's per-row writer finds a participant's periods by one).
    static func dropUntilRestored(_ db: Database, indexes: Bool = true) throws {
        let tables = RecordKind.all.map(\.table)
        let searchTriggers = SearchIndex.tables.flatMap(triggerNames)
        let definitions = try Row.fetchAll(db, sql: """
            SELECT type, name, sql FROM sqlite_master
            WHERE tbl_name IN (SELECT value FROM json_each(?)) AND sql IS NOT NULL
              AND ((type = 'index' AND ? AND sql NOT LIKE 'CREATE UNIQUE %') OR (type = 'trigger' AND name IN (SELECT value FROM json_each(?))))
            """, arguments: [IdentifierList.json(tables), indexes, IdentifierList.json(searchTriggers)])
        for definition in definitions {
            let type: String = definition["type"], name: String = definition["name"]
            try AppDatabase.putSettings(db, [keyPrefix + name: definition["sql"]])
            try db.execute(sql: "DROP \(type == "index" ? "INDEX" : "TRIGGER") \(name.quotedDatabaseIdentifier)")
        }
    }

    /// Creates again what `dropUntilRestored` dropped, then fills each search index whose triggers were away from its
    /// table. Nothing to do (one read) when nothing was dropped.
    static func restore(_ db: Database) throws {
        let kept = try Row.fetchAll(db, sql: "SELECT key, value FROM settings WHERE key LIKE ? ORDER BY key", arguments: [keyPattern])
        guard !kept.isEmpty else { return }
        let names = Set(kept.map { String(($0["key"] as String).dropFirst(keyPrefix.count)) })
        // Indexes first: a trigger's definition never depends on them, and the search indexes are rebuilt last.
        for definition in kept.filter({ !isTrigger($0) }) + kept.filter(isTrigger) {
            try db.execute(sql: definition["value"])
        }
        for table in SearchIndex.tables where !names.isDisjoint(with: triggerNames(table)) {
            let index = SearchIndex.indexName(table)
            try db.execute(sql: "INSERT INTO \(index)(\(index)) VALUES ('rebuild')")
        }
        try db.execute(sql: "DELETE FROM settings WHERE key LIKE ?", arguments: [keyPattern])
    }

    private static func isTrigger(_ definition: Row) -> Bool {
        (definition["value"] as String).hasPrefix("CREATE TRIGGER")
    }

    private static func triggerNames(_ table: String) -> [String] {
        ["insert", "delete", "update"].map { SearchIndex.indexName(table) + "_" + $0 }
    }
}
