import GRDB

/// How many rows each record table holds, kept by triggers in the transaction that inserts or deletes, so an unfiltered
/// list's total and the home page's counts read one row instead of counting every row, which weighed heavily in a list
/// page's time. Filtered totals are still counted.
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
        try kept(db, table) ?? Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)") ?? 0
    }

    private static func kept(_ db: Database, _ name: String) throws -> Int? {
        try Int.fetchOne(db.cachedStatement(sql: "SELECT row_count FROM row_counts WHERE table_name = ?"), arguments: [name])
    }

    // MARK: - Rows by the value of a column

    /// The columns whose rows are also counted by value, for lists filtered by them alone: `/activities?status=ACTIVE`
    /// would otherwise count its index entries for every page.
    static let countedByValue: [(table: String, column: String)] = [("activities", "status")]

    /// The `row_counts` entry holding how many rows of `table` have `value` in `column`.
    static func valueKey(_ table: String, _ column: String, _ value: String) -> String { "\(table).\(column)=\(value)" }

    /// Counts the rows of `table` by each value of `column` once, and keeps those counts from then on: an entry per
    /// value, made by the first row that has it.
    static func addValueTriggers(_ db: Database, table: String, column: String) throws {
        let key = { (row: String) in "'\(valueKey(table, column, ""))' || \(row).\(column)" }
        let increment = { (row: String) in
            "INSERT INTO row_counts (table_name, row_count) VALUES (\(key(row)), 1) ON CONFLICT (table_name) DO UPDATE SET row_count = row_count + 1;"
        }
        let decrement = { (row: String) in "UPDATE row_counts SET row_count = row_count - 1 WHERE table_name = \(key(row));" }
        try db.execute(sql: """
            INSERT INTO row_counts (table_name, row_count) SELECT \(key(table)), COUNT(*) FROM \(table) GROUP BY \(column);
            CREATE TRIGGER \(table)_\(column)_count_insert AFTER INSERT ON \(table) BEGIN \(increment("NEW")) END;
            CREATE TRIGGER \(table)_\(column)_count_delete AFTER DELETE ON \(table) BEGIN \(decrement("OLD")) END;
            CREATE TRIGGER \(table)_\(column)_count_update AFTER UPDATE OF \(column) ON \(table) WHEN OLD.\(column) IS NOT NEW.\(column)
            BEGIN \(decrement("OLD")) \(increment("NEW")) END;
            """)
    }

    /// The rows of `table` whose `column` holds `value`: the kept count (none kept is none there), or a count for a
    /// column not in `countedByValue`.
    static func count(_ db: Database, table: String, column: String, value: String) throws -> Int {
        guard countedByValue.contains(where: { $0 == (table, column) }) else {
            return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table) WHERE \(column) = ?", arguments: [value]) ?? 0
        }
        return try kept(db, valueKey(table, column, value)) ?? 0
    }
}
