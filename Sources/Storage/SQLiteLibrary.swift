import CSQLite

/// Settings of the SQLite library itself, for every connection of the process. They take effect only before the first
/// connection opens, so `AppDatabase.init` applies them first; a process that opened SQLite some other way first keeps
/// SQLite's defaults, which are slower but correct.
enum SQLiteLibrary {
    /// Each pushed operation on a hub runs in a savepoint, and each write with triggers in a statement journal, which
    /// keeps the pages it changes so they can be put back. SQLite's default moves such a journal to a temporary file
    /// past 64 KiB, and one pushed participant touches more than that (its row, five indexes, the change log, the
    /// search index): a push of 11,000 operations made 69,000 `pwrite` calls into /var/tmp, and settling it on the node
    /// as many again (issue 15). 4 MiB keeps a savepoint of any one operation in memory; a pull's single statement over
    /// 40,000 rows still spills past it, so memory stays bounded.
    static let statementJournalSpillBytes: Int32 = 4 << 20

    static let configured: Void = {
        _ = fieldbook_sqlite_set_statement_journal_spill(statementJournalSpillBytes)
    }()
}
