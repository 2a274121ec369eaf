import GRDB

/// A trigram full-text index over a table's folded `search_text` (SQLite's FTS5 `trigram` tokenizer), so a search of
/// three or more characters reads the rows holding it instead of every row. A phrase of the folded query
/// matches exactly the rows whose folded text holds it (the text is folded before it is indexed, so the tokenizer's own
/// case folding has nothing left to fold), so the index decides a search of every field alone; a LIKE still decides
/// which field matched (a participant's name only) and queries under three characters.
///
/// External content keyed by the table's rowid, so the text is stored once. Rowids of these tables (no INTEGER PRIMARY
/// KEY) are stable except through VACUUM, which Fieldbook never runs; after a VACUUM by hand,
/// `INSERT INTO participants_fts(participants_fts) VALUES ('rebuild')` brings an index back. An index out of step with its
/// table now gives wrong results, not only missing ones, since no LIKE checks its matches; `fieldbook check` does not
/// compare them (FTS5's 'integrity-check' needs a writable connection, and the check opens the file read-only).
enum SearchIndex {
    /// The tables with a `search_text` column, each with its index `<table>_fts`.
    static let tables = ["participants", "venues", "activities"]

    /// The shortest folded query the index can answer: trigrams need three characters.
    static let shortest = 3

    static func indexName(_ table: String) -> String { "\(table)_fts" }

    static func create(_ db: Database) throws {
        for table in tables {
            let index = indexName(table)
            try db.execute(sql: """
                CREATE VIRTUAL TABLE \(index) USING fts5(search_text, content='\(table)', content_rowid='rowid', tokenize='trigram');
                INSERT INTO \(index)(\(index)) VALUES ('rebuild');
                CREATE TRIGGER \(index)_insert AFTER INSERT ON \(table) BEGIN
                    INSERT INTO \(index)(rowid, search_text) VALUES (NEW.rowid, NEW.search_text);
                END;
                CREATE TRIGGER \(index)_delete AFTER DELETE ON \(table) BEGIN
                    INSERT INTO \(index)(\(index), rowid, search_text) VALUES ('delete', OLD.rowid, OLD.search_text);
                END;
                CREATE TRIGGER \(index)_update AFTER UPDATE OF search_text ON \(table) BEGIN
                    INSERT INTO \(index)(\(index), rowid, search_text) VALUES ('delete', OLD.rowid, OLD.search_text);
                    INSERT INTO \(index)(rowid, search_text) VALUES (NEW.rowid, NEW.search_text);
                END;
                """)
        }
    }

    /// The FTS5 query for rows containing `folded` anywhere: one phrase, its quotes doubled.
    static func phrase(_ folded: String) -> String { "\"" + folded.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
}
