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

extension AppDatabase {
    /// Writes a queued import's rows in one transaction through the participant writer, so a linked node pushes every
    /// one and a failure or a cancel keeps none. Each row is checked again (a venue may have gone since the review).
    /// `progress` hears how many rows are done; `isCancelled` is asked between rows.
    func writeImport(_ job: ImportJob, by actor: Actor, progress: (Int) -> Void, isCancelled: () -> Bool) throws -> ImportOutcome {
        try transaction(by: actor) { transaction in
            let db = transaction.db
            let venues = try VenueNames(db)
            var outcome = ImportOutcome()
            // A cursor: the rows are read as they are written, not held (the import writes other tables than it reads).
            let rows = try Row.fetchCursor(db, sql: "SELECT line, cells, new_id, match_id, decision FROM import_rows WHERE job_id = ? ORDER BY line",
                                           arguments: [job.id.databaseText])
            var index = 0
            while let row = try rows.next() {
                defer { index += 1 }
                if index % 256 == 0 {
                    if isCancelled() { throw ImportCancelled() }
                    progress(index)
                }
                let line: Int = row["line"]
                let values = job.mapping.values(ImportJSON.strings(row["cells"]))
                do {
                    switch ImportDecision(rawValue: row["decision"]) ?? .skip {
                    case .skip:
                        outcome.skipped += 1
                    case .merge:
                        if try transaction.mergeImported(values, into: (row["match_id"] as String?).flatMap(UUID.init), venues) {
                            outcome.merged += 1
                        } else {
                            try transaction.createImported(values, id: row.uuid("new_id"), venues)
                            outcome.created += 1
                        }
                    case .create:
                        try transaction.createImported(values, id: row.uuid("new_id"), venues)
                        outcome.created += 1
                    }
                } catch let errors as ValidationError {
                    let message = errors.fieldErrors.map(\.message).joined(separator: "; ")
                    throw ImportRefusal(message: "Row \(line) could not be imported: \(message). Nothing was imported; fix the row, or skip it, and import again.")
                }
            }
            // A cancel that came after the last row's check still keeps nothing.
            if isCancelled() { throw ImportCancelled() }
            progress(index)
            return outcome
        }
    }
}

extension RecordTransaction {
    func createImported(_ values: ImportedParticipant, id: UUID, _ venues: VenueNames) throws {
        let venue = try venues.checked(values[.homeVenue])
        try createParticipant(values.input(homeVenueId: venue).validated(), id: id)
    }

    /// Writes the row's values over a stored participant; false when the participant is not there (deleted since the
    /// review, or an earlier row that was skipped), so the caller creates them instead.
    func mergeImported(_ values: ImportedParticipant, into id: UUID?, _ venues: VenueNames) throws -> Bool {
        guard let id, let stored = try Participant.fetchOne(db, key: id.databaseText) else { return false }
        let venue = try venues.checked(values[.homeVenue])
        let current = ParticipantInput(name: stored.name, email: stored.email, phone: stored.phone ?? "", notes: stored.notes ?? "",
                                       homeVenueId: stored.homeVenueId?.databaseText ?? "")
        try updateParticipant(id: id, values.input(over: current, homeVenueId: venue).validated(), expectedVersion: nil)
        return true
    }
}

extension VenueNames {
    /// The venue a cell names, or a ValidationError saying why it names none.
    func checked(_ cell: String) throws -> String {
        let venue = resolve(cell)
        if let problem = venue.problem { throw ValidationError([FieldError(field: "home_venue", message: problem)]) }
        return venue.id
    }
}
