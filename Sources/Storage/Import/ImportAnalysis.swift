import Domain
import Foundation
import GRDB

/// Checks every row of an import as the participant form would, resolves home venues named in it, and finds who each
/// row may already be: a stored participant (same Fieldbook id, email, or folded name) or an earlier row of the file.
/// Each row gets the choice a careful person would make first: problems are skipped, the same id or email is merged,
/// a repeat of an earlier row is skipped, an earlier row's email merges into that row, and a name alone (two people
/// can share one) is created but shown as a possible duplicate.
struct ImportAnalysis {
    let db: Database
    let job: UUID
    let mapping: ImportMapping

    private struct Verdict {
        var errors: [FieldError] = []
        var reason: ImportMatchReason?
        var matchId: String?
        var matchLine: Int?
        var decision = ImportDecision.create
    }

    /// What the file's rows before this one hold, for matching within the file: by values, email, folded name and id.
    private struct EarlierRows {
        var rows: [String: (line: Int, id: String)] = [:]
        var emails: [String: (line: Int, id: String)] = [:]
        var names: [String: (line: Int, id: String)] = [:]
        var ids: [String: Int] = [:]

        /// A row's values as one text, a much smaller key than the values themselves.
        static func fingerprint(_ values: ImportedParticipant) -> String {
            ImportField.allCases.map { values[$0] }.joined(separator: SearchText.separator)
        }
    }

    /// Rows are read and updated a batch at a time, so memory stays flat whatever the file's length (SQLite must not
    /// update rows a cursor is walking).
    static let batchSize = 2_000

    func run() throws {
        let venues = try VenueNames(db)
        var earlier = EarlierRows()
        let update = try db.makeStatement(sql: """
            UPDATE import_rows SET errors = ?, match_reason = ?, match_id = ?, match_line = ?, decision = ?, new_id = ? WHERE job_id = ? AND line = ?
            """)
        var after = 0
        while true {
            let batch = try Row.fetchAll(db.cachedStatement(sql: """
                SELECT line, cells, new_id FROM import_rows WHERE job_id = ? AND line > ? ORDER BY line LIMIT ?
                """), arguments: [job.databaseText, after, Self.batchSize])
            guard let last = batch.last else { return }
            after = last["line"]
            for row in batch {
                let line: Int = row["line"]
                let values = mapping.values(ImportJSON.strings(row["cells"]))
                var newId: String = row["new_id"]
                let verdict = try judge(values, line: line, newId: &newId, venues, &earlier)
                try update.execute(arguments: [ImportJSON.text(verdict.errors), verdict.reason?.rawValue, verdict.matchId, verdict.matchLine,
                                               verdict.decision.rawValue, newId, job.databaseText, line])
            }
        }
    }

    /// One row's problems, match and first choice; remembers the row for the rows after it.
    private func judge(_ values: ImportedParticipant, line: Int, newId: inout String, _ venues: VenueNames,
                       _ earlier: inout EarlierRows) throws -> Verdict {
        var verdict = Verdict()
        let venue = venues.resolve(values[.homeVenue])
        if let problem = venue.problem { verdict.errors.append(FieldError(field: "home_venue", message: problem)) }
        do {
            _ = try values.input(homeVenueId: venue.id).validated()
        } catch let errors as ValidationError {
            verdict.errors += errors.fieldErrors.map { FieldError(field: $0.field == "home_venue_id" ? "home_venue" : $0.field, message: $0.message) }
        }
        let fileId = values[.id]
        if !fileId.isEmpty {
            if let id = UUID(uuidString: fileId) { newId = id.databaseText } else {
                verdict.errors.append(FieldError(field: "id", message: "Leave the Fieldbook id empty for new participants, or use the id from a Fieldbook export"))
            }
        }
        guard verdict.errors.isEmpty else {
            verdict.decision = .skip
            return verdict
        }
        let email = values[.email].lowercased(), name = SearchText.fold(values.name)
        let fingerprint = EarlierRows.fingerprint(values)
        if !fileId.isEmpty, let line = earlier.ids[newId] {
            (verdict.reason, verdict.matchId, verdict.matchLine, verdict.decision) = (.idOfRow, newId, line, .merge)
        } else {
            try match(values, newId: newId, email: email, name: name, earlier.rows[fingerprint], earlier.emails[email], earlier.names[name], into: &verdict)
        }
        let own = (line, verdict.decision == .merge ? verdict.matchId ?? newId : newId)
        if !fileId.isEmpty, earlier.ids[newId] == nil { earlier.ids[newId] = line }
        if earlier.rows[fingerprint] == nil { earlier.rows[fingerprint] = own }
        if !email.isEmpty, earlier.emails[email] == nil { earlier.emails[email] = own }
        if !name.isEmpty, earlier.names[name] == nil { earlier.names[name] = own }
        return verdict
    }

    /// The row's match, the strongest first; `sameRow`, `emailRow` and `nameRow` are the earlier rows sharing its values,
    /// email and name.
    private func match(_ values: ImportedParticipant, newId: String, email: String, name: String, _ sameRow: (line: Int, id: String)?,
                       _ emailRow: (line: Int, id: String)?, _ nameRow: (line: Int, id: String)?, into verdict: inout Verdict) throws {
        func matched(_ reason: ImportMatchReason, _ id: String, line: Int? = nil, _ decision: ImportDecision) {
            (verdict.reason, verdict.matchId, verdict.matchLine, verdict.decision) = (reason, id, line, decision)
        }
        if !values[.id].isEmpty, try stored("SELECT id FROM participants WHERE id = ?", [newId]) != nil {
            matched(.sameID, newId, .merge)
        } else if let earlier = sameRow {
            matched(.sameAsRow, earlier.id, line: earlier.line, .skip)
        } else if !email.isEmpty, let id = try stored("SELECT id FROM participants WHERE email = ? COLLATE NOCASE ORDER BY created_at LIMIT 1", [email]) {
            matched(.sameEmail, id, .merge)
        } else if !email.isEmpty, let earlier = emailRow {
            matched(.emailOfRow, earlier.id, line: earlier.line, .merge)
        } else if let id = try stored("SELECT id FROM participants WHERE search_text >= ? AND search_text < ? ORDER BY created_at LIMIT 1",
                                      [name + SearchText.separator, name + "\u{20}"]) {
            matched(.sameName, id, .create)
        } else if let earlier = nameRow {
            matched(.nameOfRow, earlier.id, line: earlier.line, .create)
        }
    }

    /// The id of the stored participant a query finds.
    private func stored(_ sql: String, _ arguments: StatementArguments) throws -> String? {
        try String.fetchOne(db.cachedStatement(sql: sql), arguments: arguments)
    }
}

/// Venues by folded name and by id, for rows that name a home venue.
struct VenueNames {
    private var byName: [String: [String]] = [:]
    private var ids = Set<String>()

    init(_ db: Database) throws {
        for row in try Row.fetchAll(db, sql: "SELECT id, name FROM venues") {
            let id: String = row["id"]
            ids.insert(id)
            byName[SearchText.fold((row["name"] as String).trimmingCharacters(in: .whitespaces)), default: []].append(id)
        }
    }

    /// The venue a cell names (its Fieldbook id or its name, case and accents ignored), "" for an empty cell, or why it
    /// names none.
    func resolve(_ cell: String) -> (id: String, problem: String?) {
        if cell.isEmpty { return ("", nil) }
        if let id = UUID(uuidString: cell)?.databaseText {
            return ids.contains(id) ? (id, nil) : ("", "No venue has the id \(cell) on this Fieldbook: import the venues first, or leave the home venue empty")
        }
        let found = byName[SearchText.fold(cell)] ?? []
        switch found.count {
        case 1: return (found[0], nil)
        case 0: return ("", "No venue is named “\(cell)”: add it first, write its name as Fieldbook shows it, or leave the home venue empty")
        default: return ("", "\(found.count) venues are named “\(cell)”: use the venue's Fieldbook id instead of its name")
        }
    }
}
