import Domain
import Foundation
import GRDB

/// Checks every row of an import as the kind's form would, resolves the records it names, and finds what each row may
/// already be: a stored record (the same Fieldbook id, the kind's key, or its folded name) or an earlier row of the
/// file. Each row gets the choice a careful person would make first: problems are skipped, the same id or key is
/// merged, a repeat of an earlier row is skipped, an earlier row's key merges into that row, and a name alone (two
/// people, or two places, can share one) is created but shown as a possible duplicate.
struct ImportAnalysis {
    let db: Database
    let job: UUID
    let target: ImportTarget
    let mapping: ImportMapping
    /// The records rows name that the import creates when they are not here.
    var creating = ImportCreating()
    private struct Verdict {
        var errors: [FieldError] = []
        var reason: ImportMatchReason?
        var matchId: String?
        var matchLine: Int?
        var decision = ImportDecision.create

        /// A row that matches nothing else may still be someone typed differently: a stored record, then an earlier
        /// row, with a name close enough (`NameSimilarity`). It is added, and shown as a possible duplicate.
        mutating func closeName(_ name: String, stored: inout CloseNames<String>, earlier: inout CloseNames<(line: Int, id: String)>) {
            if let close = stored.closest(to: name) {
                (reason, matchId) = (.similarName, close.tag)
            } else if let close = earlier.closest(to: name) {
                (reason, matchId, matchLine) = (.similarToRow, close.tag.id, close.tag.line)
            }
        }
    }

    /// What the file's rows before this one hold, for matching within the file: by all their values, the kind's strong
    /// and weak keys, and Fieldbook id.
    private struct EarlierRows {
        var rows: [String: (line: Int, id: String)] = [:]
        var strong: [String: (line: Int, id: String)] = [:]
        var weak: [String: (line: Int, id: String)] = [:]
        var ids: [String: Int] = [:]
        var names = CloseNames<(line: Int, id: String)>()

        /// A row's values as one text, a much smaller key than the values themselves.
        static func fingerprint(_ values: ImportedRow) -> String {
            ImportField.allCases.map { values[$0] }.joined(separator: SearchText.separator)
        }
    }

    /// Rows are read and updated a batch at a time, so memory stays flat whatever the file's length (SQLite must not
    /// update rows a cursor is walking).
    static let batchSize = 2_000

    func run() throws {
        let importer = try target.importer(db, job: job, mapping: mapping, creating: creating)
        var earlier = EarlierRows()
        // Read when a row first matches nothing closer (most files' rows all do), then kept for the rest of the file.
        var storedNames: CloseNames<String>?
        let update = try db.makeStatement(sql: """
            UPDATE import_rows SET errors = ?, match_reason = ?, match_id = ?, match_line = ?, decision = ?, new_id = ?, kept_fields = NULL
            WHERE job_id = ? AND line = ?
            """)
        var after = 0
        while true {
            let batch = try Row.fetchAll(db.cachedStatement(sql: """
                SELECT line, cells, new_id FROM import_rows WHERE job_id = ? AND line > ? ORDER BY line LIMIT ?
                """), arguments: [job.databaseText, after, Self.batchSize])
            guard let last = batch.last else { break }
            after = last["line"]
            for row in batch {
                let line: Int = row["line"]
                let values = mapping.values(ImportJSON.strings(row["cells"]))
                var newId: String = row["new_id"]
                let verdict = try judge(values, line: line, newId: &newId, importer, &earlier, &storedNames)
                try update.execute(arguments: [ImportJSON.text(verdict.errors), verdict.reason?.rawValue, verdict.matchId, verdict.matchLine,
                                               verdict.decision.rawValue, newId, job.databaseText, line])
            }
        }
        let missing = importer.missingNames.map(\.group).filter { !$0.names.isEmpty }
        try db.execute(sql: "UPDATE import_jobs SET missing = ?, creating = ? WHERE id = ?",
                       arguments: [ImportJSON.encoded(missing), ImportJSON.encoded(creating), job.databaseText])
    }

    /// One row's problems, match and first choice; remembers the row for the rows after it.
    private func judge(_ values: ImportedRow, line: Int, newId: inout String, _ importer: RowImporter,
                       _ earlier: inout EarlierRows, _ storedNames: inout CloseNames<String>?) throws -> Verdict {
        var verdict = Verdict()
        for names in importer.missingNames { names.line = line }
        let fileId = values[.id]
        var storedWithId: UUID?
        if !fileId.isEmpty {
            if let id = UUID(uuidString: fileId) {
                newId = id.databaseText
                if earlier.ids[newId] == nil, try db.recordExists(id, in: target.table) { storedWithId = id }
            } else {
                verdict.errors.append(FieldError(field: "id", message: "Leave the Fieldbook id empty for new \(target.noun.many), or use the id from a Fieldbook export"))
            }
        }
        verdict.errors = try importer.problems(values, mergingInto: storedWithId, db) + verdict.errors
        guard verdict.errors.isEmpty else {
            verdict.decision = .skip
            return verdict
        }
        let keys = importer.keys(values)
        let fingerprint = EarlierRows.fingerprint(values)
        func matched(_ reason: ImportMatchReason, _ id: String, line: Int? = nil, _ decision: ImportDecision) {
            (verdict.reason, verdict.matchId, verdict.matchLine, verdict.decision) = (reason, id, line, decision)
        }
        if !fileId.isEmpty, let line = earlier.ids[newId] {
            matched(.idOfRow, newId, line: line, .merge)
        } else if storedWithId != nil {
            matched(.sameID, newId, .merge)
        } else if let row = earlier.rows[fingerprint] {
            matched(.sameAsRow, row.id, line: row.line, .skip)
        } else if let stored = try importer.stored(db, strong: keys.strong, weak: nil) {
            matched(stored.reason, stored.id, .merge)
        } else if let key = keys.strong, let row = earlier.strong[key] {
            matched(.keyOfRow, row.id, line: row.line, .merge)
        } else if let stored = try importer.stored(db, strong: nil, weak: keys.weak) {
            matched(stored.reason, stored.id, .create)
        } else if let name = keys.weak, let row = earlier.weak[name] {
            matched(.nameOfRow, row.id, line: row.line, .create)
        } else if let name = keys.weak {
            if storedNames == nil { storedNames = try CloseNames<String>.stored(db, table: target.table) }
            verdict.closeName(name, stored: &storedNames!, earlier: &earlier.names)
        }
        let own = (line, verdict.decision == .merge ? verdict.matchId ?? newId : newId)
        if !fileId.isEmpty, earlier.ids[newId] == nil { earlier.ids[newId] = line }
        if earlier.rows[fingerprint] == nil { earlier.rows[fingerprint] = own }
        if let key = keys.strong, earlier.strong[key] == nil { earlier.strong[key] = own }
        if let name = keys.weak, earlier.weak[name] == nil { earlier.weak[name] = own }
        if let name = keys.weak { earlier.names.add(name, own) }
        return verdict
    }
}
