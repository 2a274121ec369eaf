import Domain
import Foundation
import GRDB

/// How an import ended, row by row.
public struct ImportOutcome: Sendable, Equatable {
    public var created = 0
    public var merged = 0
    public var skipped = 0
}

/// The import was cancelled while it was written; nothing of it was kept.
struct ImportCancelled: Error {}

/// How an import or a restore tells its progress and hears a cancel: before every 256th record, and once more before
/// its transaction commits.
struct ImportPace {
    let progress: (Int) -> Void
    let isCancelled: () -> Bool
    private(set) var done = 0

    /// Before each record.
    mutating func next() throws {
        if done % 256 == 0 {
            if isCancelled() { throw ImportCancelled() }
            progress(done)
        }
        done += 1
    }

    /// After the last record: a cancel that came after the last check still keeps nothing.
    func finish() throws {
        if isCancelled() { throw ImportCancelled() }
        progress(done)
    }
}

extension AppDatabase {
    /// Writes a queued import's rows in one transaction through the kind's writer, so a linked node pushes every one
    /// and a failure or a cancel keeps none. Each row is checked again (a venue may have gone since the review).
    /// `progress` hears how many rows are done; `isCancelled` is asked between rows.
    func writeImport(_ job: ImportJob, by actor: Actor, progress: @escaping (Int) -> Void, isCancelled: @escaping () -> Bool) throws -> ImportOutcome {
        var pace = ImportPace(progress: progress, isCancelled: isCancelled)
        return try transaction(by: actor) { transaction in
            let importer = try job.target.importer(transaction.db, job: job.id, mapping: job.mapping, leavingOut: [.skip], creating: job.creating)
            var outcome = ImportOutcome()
            let columns = "line, cells, new_id, match_id, decision, kept_fields"
            if let order = importer.writeOrder {
                let one = try transaction.db.makeStatement(sql: "SELECT \(columns) FROM import_rows WHERE job_id = ? AND line = ?")
                for line in order {
                    guard let row = try Row.fetchOne(one, arguments: [job.id.databaseText, line]) else { continue }
                    try pace.next()
                    try write(row, job, importer, transaction, &outcome)
                }
            } else {
                // A cursor: the rows are read as they are written, not held (the import writes other tables than it reads).
                let rows = try Row.fetchCursor(transaction.db, sql: "SELECT \(columns) FROM import_rows WHERE job_id = ? ORDER BY line",
                                               arguments: [job.id.databaseText])
                while let row = try rows.next() {
                    try pace.next()
                    try write(row, job, importer, transaction, &outcome)
                }
            }
            try pace.finish()
            return outcome
        }
    }

    /// Writes one row as its decision says.
    private func write(_ row: Row, _ job: ImportJob, _ importer: RowImporter, _ transaction: RecordTransaction, _ outcome: inout ImportOutcome) throws {
        let line: Int = row["line"]
        let values = job.mapping.values(ImportJSON.strings(row["cells"]))
        let kept = ImportJSON.fields(row["kept_fields"])
        do {
            switch ImportDecision(rawValue: row["decision"]) ?? .skip {
            case .skip:
                outcome.skipped += 1
            case .merge:
                if let target = (row["match_id"] as String?).flatMap(UUID.init(uuidString:)),
                   try importer.merge(transaction, values.keeping(kept), into: target) {
                    outcome.merged += 1
                } else {
                    try importer.create(transaction, values, id: row.uuid("new_id"))
                    outcome.created += 1
                }
            case .create:
                try importer.create(transaction, values, id: row.uuid("new_id"))
                outcome.created += 1
            }
        } catch let errors as ValidationError {
            let message = errors.fieldErrors.map(\.message).joined(separator: "; ")
            throw ImportRefusal(message: "Row \(line) could not be imported: \(message). Nothing was imported; fix the row, or skip it, and import again.")
        }
    }
}
