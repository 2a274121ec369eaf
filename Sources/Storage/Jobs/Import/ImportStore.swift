import Domain
import Foundation
import GRDB

/// Why an uploaded file cannot be imported, worded for the person who chose it.
public struct ImportRefusal: Error, Sendable, Equatable {
    public let message: String

    public init(message: String) { self.message = message }
}

extension AppDatabase {
    /// The most rows one import takes: more than any community's list, and the review stays quick to read.
    public static let maxImportRows = 200_000
    static let maxImportColumns = 200

    /// Reads a CSV file of participants, venues or activities into a new import waiting for review: each row checked,
    /// matched against the records stored and the file's earlier rows, and given a choice. Reads the file a piece at a
    /// time.
    public func createImport(fromFile path: String, named fileName: String, holding target: ImportTarget = .participants,
                             by user: UUID) throws -> ImportJob {
        let what = "a header row and a row for each \(target.noun.one)"
        guard let file = FileHandle(forReadingAtPath: path) else { throw ImportRefusal(message: "The uploaded file could not be read. Upload it again.") }
        defer { try? file.close() }
        let first = file.readData(ofLength: 64 * 1024)
        if first.isEmpty { throw ImportRefusal(message: "The file is empty. Choose a CSV file with \(what).") }
        if first.contains(0) {
            throw ImportRefusal(message: "This is not a CSV file (it holds binary data). In your spreadsheet, save or export the sheet as “CSV UTF-8”, then upload that file.")
        }
        let id = UUID()
        var reader = CSVReader(separator: CSVReader.separator(guessedFrom: first))
        // Reading a large file fills the writer's page cache and the checks' tables of earlier rows.
        defer { releaseMemory() }
        return try writeLocal { db in
            // The job's row first (its rows refer to it); what the file holds is filled in once it has been read.
            try db.execute(sql: """
                INSERT INTO import_jobs (id, kind, file_name, created_by, created_at, headers, mapping, separator, row_count, state)
                VALUES (?, ?, ?, ?, ?, '[]', '[]', ?, 0, 'preview')
                """, arguments: [id.databaseText, target.rawValue, String(fileName.prefix(200)), user.databaseText, Date().storedText, reader.separator.name])
            var headers: [String]?
            var line = 1
            let insert = try db.makeStatement(sql: "INSERT INTO import_rows (job_id, line, cells, new_id, decision) VALUES (?, ?, ?, ?, 'create')")
            func take(_ record: [String]) throws {
                guard headers != nil else {
                    guard record.count <= Self.maxImportColumns else {
                        throw ImportRefusal(message: "The first row has \(record.count) columns; at most \(Self.maxImportColumns) are read. Check that the first row holds the column names.")
                    }
                    headers = record
                    return
                }
                // Rows of empty cells (a spreadsheet's ",,,," lines under the list) are nobody.
                if record.allSatisfy({ $0.allSatisfy(\.isWhitespace) }) { return }
                line += 1
                guard line - 1 <= Self.maxImportRows else {
                    throw ImportRefusal(message: "The file has more than \(Self.maxImportRows) rows. Split it into several files and import them one after the other.")
                }
                try insert.execute(arguments: [id.databaseText, line, ImportJSON.text(record), UUID().databaseText])
            }
            var chunk = first
            while !chunk.isEmpty {
                try reader.read(chunk, take)
                chunk = file.readData(ofLength: 1 << 20)
            }
            try reader.finish(take)
            if let problem = reader.problem { throw ImportRefusal(message: problem) }
            guard let headers else { throw ImportRefusal(message: "The file has no rows. Choose a CSV file with \(what).") }
            guard line > 1 else { throw ImportRefusal(message: "The file has a header row but no \(target.noun.many) under it.") }
            let mapping = ImportMapping.guessed(from: headers, for: target)
            try db.execute(sql: "UPDATE import_jobs SET headers = ?, mapping = ?, windows_1252 = ?, row_count = ? WHERE id = ?",
                           arguments: [ImportJSON.text(headers), Self.mappingText(mapping), reader.usedWindows1252, line - 1, id.databaseText])
            if mapping.problems(headers: headers, target: target).isEmpty { try ImportAnalysis(db: db, job: id, target: target, mapping: mapping).run() }
            return try Self.importJob(db, id)
        }
    }

    public func importJob(id: UUID) throws -> ImportJob {
        try read { try Self.importJob($0, id) }
    }

    /// The imports of this node, newest first.
    public func importJobs(limit: Int = 20) throws -> [ImportJob] {
        try read { db in try Row.fetchAll(db, sql: "SELECT * FROM import_jobs ORDER BY created_at DESC LIMIT ?", arguments: [limit]).map(ImportJob.init) }
    }

    /// One page of an import's rows, in file order.
    public func importRows(of job: UUID, _ filter: ImportRowFilter, page: PageRequest) throws -> ListPage<ImportRow> {
        let condition = switch filter {
        case .all: ""
        case .problems: "AND r.errors IS NOT NULL"
        case .duplicates: "AND r.match_reason IS NOT NULL"
        }
        return try read { db in
            let stored = try Self.importJob(db, job)
            let total = try Int.fetchOne(db, sql: "SELECT count(*) FROM import_rows r WHERE r.job_id = ? \(condition)", arguments: [job.databaseText]) ?? 0
            let rows = try Row.fetchAll(db, sql: Self.rowsWithMatches(stored.target) + " WHERE r.job_id = ? \(condition) ORDER BY r.line LIMIT ? OFFSET ?",
                                        arguments: [job.databaseText, page.perPage, page.offset])
            return ListPage(items: rows.map { Self.importRow($0, stored.mapping) }, total: total, request: page)
        }
    }

    public func importSummary(of job: UUID) throws -> ImportSummary {
        try read { db in
            var summary = ImportSummary()
            for row in try Row.fetchAll(db, sql: """
                SELECT decision, count(*) AS rows, count(errors) AS problems, count(match_reason) AS matches
                FROM import_rows WHERE job_id = ? GROUP BY decision
                """, arguments: [job.databaseText]) {
                let count: Int = row["rows"]
                switch ImportDecision(rawValue: row["decision"]) ?? .skip {
                case .create: summary.toCreate += count
                case .merge: summary.toMerge += count
                case .skip: summary.toSkip += count
                }
                summary.withProblems += row["problems"] as Int
                summary.possibleDuplicates += row["matches"] as Int
            }
            return summary
        }
    }

    /// Reads the columns anew: every row checked and matched again, and given its choice afresh.
    public func setImportMapping(of job: UUID, _ mapping: ImportMapping) throws {
        defer { releaseMemory() }
        try writeLocal { db in
            let stored = try Self.importJob(db, job)
            try Self.ensureInReview(stored)
            guard mapping.fields.count == stored.headers.count else { throw ValidationError.clash("column-0", "The columns changed while you chose them. Choose them again") }
            try mapping.problems(headers: stored.headers, target: stored.target).throwIfAny()
            try db.execute(sql: "UPDATE import_jobs SET mapping = ? WHERE id = ?", arguments: [Self.mappingText(mapping), job.databaseText])
            try ImportAnalysis(db: db, job: job, target: stored.target, mapping: mapping, creating: stored.creating).run()
        }
    }

    /// Which records the rows name that are not here the import creates; every row is checked again. Areas it creates
    /// need a type.
    public func setImportCreating(of job: UUID, _ creating: ImportCreating) throws {
        defer { releaseMemory() }
        try writeLocal { db in
            let stored = try Self.importJob(db, job)
            try Self.ensureInReview(stored)
            let chosen = ImportCreating(fields: creating.fields.intersection(ImportCreating.creatable(stored.target)), areaType: creating.areaType)
            if chosen.createsAreas, chosen.areaType == nil {
                throw ValidationError([FieldError(field: "area_type", message: "Choose the type of the areas the import creates")])
            }
            try db.execute(sql: "UPDATE import_jobs SET creating = ? WHERE id = ?", arguments: [ImportJSON.encoded(chosen), job.databaseText])
            if stored.mapping.problems(headers: stored.headers, target: stored.target).isEmpty {
                try ImportAnalysis(db: db, job: job, target: stored.target, mapping: stored.mapping, creating: chosen).run()
            }
        }
    }

    /// Sets rows' choices (by line); a choice a row does not offer (merging a row that matches nobody) is refused.
    public func setImportDecisions(of job: UUID, _ decisions: [Int: ImportDecision]) throws {
        try writeLocal { db in
            let stored = try Self.importJob(db, job)
            try Self.ensureInReview(stored)
            try Self.saveDecisions(db, stored, decisions)
        }
    }

    /// Sets the rows' choices; a choice a row cannot take is named in the error thrown, and the caller's transaction
    /// then keeps none of them.
    private static func saveDecisions(_ db: Database, _ stored: ImportJob, _ decisions: [Int: ImportDecision]) throws {
        var errors = ValidationError()
        for (line, decision) in decisions.sorted(by: { $0.key < $1.key }) {
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM import_rows WHERE job_id = ? AND line = ?",
                                             arguments: [stored.id.databaseText, line]) else { continue }
            let current = Self.importRow(row, stored.mapping)
            guard current.choices.contains(decision) else {
                errors.add("row-\(line)", "Row \(line) cannot be \(Self.refusedChoice(decision, row: current))")
                continue
            }
            // Fields kept by a field-by-field merge belong to that merge only.
            try db.execute(sql: """
                UPDATE import_rows SET decision = ?, kept_fields = CASE WHEN ? = 'merge' THEN kept_fields END WHERE job_id = ? AND line = ?
                """, arguments: [decision.rawValue, decision.rawValue, stored.id.databaseText, line])
        }
        try errors.throwIfAny()
    }

    /// One row, and the values of the stored record it would merge into (for comparing them field by field).
    public func importRow(of job: UUID, line: Int) throws -> (row: ImportRow, stored: [ImportField: String]) {
        try read { db in
            let stored = try Self.importJob(db, job)
            guard let found = try Row.fetchOne(db, sql: Self.rowsWithMatches(stored.target) + " WHERE r.job_id = ? AND r.line = ?",
                                               arguments: [job.databaseText, line]) else { throw DomainError.notFound(entity: "row") }
            let row = Self.importRow(found, stored.mapping)
            guard row.comparesWithStored, let match = row.matchId else { return (row, [:]) }
            return (row, try stored.target.storedValues(db, id: match))
        }
    }

    /// A row merged field by field: `kept` are the fields whose stored value stays although the file has another.
    public func setImportMerge(of job: UUID, line: Int, keeping kept: Set<ImportField>) throws {
        try writeLocal { db in
            let stored = try Self.importJob(db, job)
            try Self.ensureInReview(stored)
            guard let found = try Row.fetchOne(db, sql: "SELECT * FROM import_rows WHERE job_id = ? AND line = ?", arguments: [job.databaseText, line]),
                  Self.importRow(found, stored.mapping).comparesWithStored else {
                throw ValidationError.clash("import", "Row \(line) matches no stored \(stored.target.noun.one), so it cannot be merged")
            }
            try db.execute(sql: "UPDATE import_rows SET decision = 'merge', kept_fields = ? WHERE job_id = ? AND line = ?",
                           arguments: [kept.isEmpty ? nil : ImportJSON.text(kept.map(\.rawValue).sorted()), job.databaseText, line])
        }
    }

    /// Every row with a possible duplicate set to one choice (where the row offers it).
    public func setImportDecisionForMatches(of job: UUID, _ decision: ImportDecision) throws {
        try writeLocal { db in
            try Self.ensureInReview(try Self.importJob(db, job))
            try db.execute(sql: """
                UPDATE import_rows SET decision = ?, kept_fields = CASE WHEN ? = 'merge' THEN kept_fields END
                WHERE job_id = ? AND match_id IS NOT NULL AND errors IS NULL AND NOT (? = 'create' AND match_reason IN ('id', 'row_id'))
                """, arguments: [decision.rawValue, decision.rawValue, job.databaseText, decision.rawValue])
        }
    }

    /// Leaves the review: the import waits for the runner.
    /// `decisions`: the choices shown when the import was started, saved with it in one transaction, so what the
    /// review showed is what is imported.
    public func queueImport(_ job: UUID, decisions: [Int: ImportDecision] = [:]) throws {
        try writeLocal { db in
            let stored = try Self.importJob(db, job)
            try Self.ensureInReview(stored)
            if stored.archive == nil { try stored.mapping.problems(headers: stored.headers, target: stored.target).throwIfAny() }
            try Self.saveDecisions(db, stored, decisions)
            try db.execute(sql: "UPDATE import_jobs SET state = 'queued' WHERE id = ?", arguments: [job.databaseText])
        }
    }

    /// A cancelled or failed import back in review, every row checked again (the records may have changed since).
    public func reviewImportAgain(_ job: UUID) throws {
        try writeLocal { db in
            let stored = try Self.importJob(db, job)
            guard stored.state == .cancelled || stored.state == .failed else {
                throw ValidationError.clash("import", "Only a cancelled or failed import can be reviewed again")
            }
            try db.execute(sql: "UPDATE import_jobs SET state = 'preview', failure = NULL, finished_at = NULL WHERE id = ?", arguments: [job.databaseText])
            if stored.archive == nil, stored.mapping.problems(headers: stored.headers, target: stored.target).isEmpty {
                try ImportAnalysis(db: db, job: job, target: stored.target, mapping: stored.mapping, creating: stored.creating).run()
            }
        }
    }

    /// Forgets an import that is not being written (its rows with it).
    public func deleteImport(_ job: UUID) throws {
        try writeLocal { db in
            let stored = try Self.importJob(db, job)
            if stored.state == .running || stored.state == .queued {
                throw ValidationError.clash("import", "This import is being written. Cancel it first")
            }
            try db.execute(sql: "DELETE FROM import_rows WHERE job_id = ?", arguments: [job.databaseText])
            try db.execute(sql: "DELETE FROM import_jobs WHERE id = ?", arguments: [job.databaseText])
            if let archive = stored.archivePath { try? FileManager.default.removeItem(atPath: archive) }
        }
    }

    static func importJob(_ db: Database, _ id: UUID) throws -> ImportJob {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM import_jobs WHERE id = ?", arguments: [id.databaseText]) else {
            throw DomainError.notFound(entity: "import")
        }
        return ImportJob(row: row)
    }

    static func importRow(_ row: Row, _ mapping: ImportMapping) -> ImportRow {
        let cells = ImportJSON.strings(row["cells"])
        return ImportRow(line: row["line"], cells: cells, values: mapping.values(cells), errors: ImportJSON.errors(row["errors"]),
                  matchReason: (row["match_reason"] as String?).flatMap(ImportMatchReason.init), matchId: (row["match_id"] as String?).flatMap(UUID.init(uuidString:)),
                  matchLine: row["match_line"], matchName: row["match_name"], matchDetail: row["match_detail"],
                  decision: ImportDecision(rawValue: row["decision"]) ?? .skip,
                  keptFields: ImportJSON.fields(row["kept_fields"]))
    }

    /// Why a row does not offer a choice, to end "Row N cannot be …".
    private static func refusedChoice(_ decision: ImportDecision, row: ImportRow) -> String {
        if !row.errors.isEmpty { return "imported until its problems are fixed in the file" }
        return decision == .merge ? "merged: it matches nothing" : "added: its Fieldbook id is taken, so merge or skip it"
    }

    /// Import rows (`r`) with the name and detail of the stored record each matches, as the review shows them.
    /// The reasons naming a stored record (not an earlier row), as an SQL list.
    private static let storedMatchReasons = ImportMatchReason.allCases.filter { !$0.isEarlierRow }.map { "'\($0.rawValue)'" }.joined(separator: ", ")

    private static func rowsWithMatches(_ target: ImportTarget) -> String {
        """
        SELECT r.*, \(target.matchColumns.name) AS match_name, \(target.matchColumns.detail) AS match_detail FROM import_rows r
        LEFT JOIN \(target.table) p ON p.id = r.match_id AND r.match_reason IN (\(storedMatchReasons))
        """
    }

    static func mappingText(_ mapping: ImportMapping) -> String { ImportJSON.text(mapping.fields.map { $0?.rawValue ?? "" }) }

    private static func ensureInReview(_ job: ImportJob) throws {
        guard job.state == .preview else {
            throw ValidationError.clash("import", "This import has already been started, so its rows can no longer be changed")
        }
    }
}
