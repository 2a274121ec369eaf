import GRDB

/// How many rows each record table holds, kept by triggers in the transaction that inserts or deletes, so an unfiltered
/// list's total and the home page's counts read one row instead of counting up to 100,000 (issue 15: the count was a
/// third of a list page's time). Filtered totals are still counted.
///
/// A migration that adds a record table calls `addTriggers` for it; `RowCountTests` fails for a kind without them.
/// Nothing writes these tables with INSERT OR REPLACE, whose implicit deletes would not fire the delete trigger.
enum RowCounts {
    static func createTable(_ db: Database) throws {
        try db.execute(sql: "CREATE TABLE row_counts (table_name TEXT PRIMARY KEY NOT NULL, row_count INTEGER NOT NULL) WITHOUT ROWID")
    }

    /// Counts `table` once and keeps the count from then on.
    static func addTriggers(_ db: Database, table: String) throws {
        try db.execute(sql: """
            INSERT INTO row_counts (table_name, row_count) VALUES ('\(table)', (SELECT COUNT(*) FROM \(table)));
            CREATE TRIGGER \(table)_row_count_insert AFTER INSERT ON \(table) BEGIN
                UPDATE row_counts SET row_count = row_count + 1 WHERE table_name = '\(table)';
            END;
            CREATE TRIGGER \(table)_row_count_delete AFTER DELETE ON \(table) BEGIN
                UPDATE row_counts SET row_count = row_count - 1 WHERE table_name = '\(table)';
            END;
            """)
    }

    /// The rows `table` holds: the kept count, or a count when the table has none kept.
    static func count(_ db: Database, table: String) throws -> Int {
        if let kept = try Int.fetchOne(db.cachedStatement(sql: "SELECT row_count FROM row_counts WHERE table_name = ?"),
                                       arguments: [table]) { return kept }
        return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)") ?? 0
    }
}
