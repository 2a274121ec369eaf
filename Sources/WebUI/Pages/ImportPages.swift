import Archives
import Domain
import Foundation
import HTTPServer
import Storage
import Surface
import Translations

/// Importing participants, venues or activities from a CSV file (issue 14): upload, a review of every row (columns, problems, possible
/// duplicates, a choice per row), then the import written in the background with its progress, and what it did.
enum ImportPages {
    /// GET /imports: the upload form and this node's imports.
    static func list(_ context: inout PageContext) throws -> Response {
        try listPage(&context, error: nil, kind: context.request.query["kind"] ?? ImportTarget.participants.rawValue)
    }

    /// POST /imports: reads the uploaded file into a new import and opens its review.
    static func upload(_ context: inout PageContext) throws -> Response {
        let kind = context.request.field("kind")
        let target = ImportTarget(rawValue: kind) ?? .participants
        guard let file = context.request.files.first(where: { $0.fieldName == "file" }), !file.isEmpty || !file.filename.isEmpty else {
            return try listPage(&context, error: "Choose a file to import", kind: kind, status: .unprocessableContent)
        }
        guard let user = context.user else { throw AccessDenied(message: "Sign in to import.") }
        do {
            // Judged by content: a ZIP archive is an export to restore, whatever was chosen.
            if kind == archiveKind || ZipArchiveReader.looksLikeArchive(file.path) {
                let job = try context.database.createArchiveImport(fromFile: file.path, named: file.filename, by: user.id, open: WebUI.openArchive)
                return context.redirect(to: Paths.importRecord(job.id), flash: Message("“{file}” read: {count} record. Check it, then restore.",
                                                                                      plural: "“{file}” read: {count} records. Check them, then restore.",
                                                                                      count: job.rowCount, ["file": .text(job.fileName)]))
            }
            let job = try context.database.createImport(fromFile: file.path, named: file.filename, holding: target, by: user.id)
            return context.redirect(to: Paths.importRecord(job.id), flash: Message("“{file}” read: {count} row. Check it, then import.",
                                                                                  plural: "“{file}” read: {count} rows. Check them, then import.",
                                                                                  count: job.rowCount, ["file": .text(job.fileName)]))
        } catch let refusal as ImportRefusal {
            return try listPage(&context, error: refusal.message, kind: kind, status: .unprocessableContent)
        }
    }

    /// GET /imports/{id}: the review, the progress, or what the import did.
    static func show(_ context: inout PageContext) throws -> Response {
        let job = try context.database.importJob(id: context.request.uuidParameter())
        return try ImportReviewView.page(&context, job, errors: ValidationError())
    }

    /// POST /imports/{id}/columns: which field each column holds; every row is checked again.
    static func columns(_ context: inout PageContext) throws -> Response {
        let job = try context.database.importJob(id: context.request.uuidParameter())
        let mapping = ImportMapping(fields: job.headers.indices.map { ImportField(rawValue: context.request.field("column-\($0)")) })
        do {
            try context.database.setImportMapping(of: job.id, mapping)
            return context.redirect(to: Paths.importRecord(job.id), flash: Message("Columns saved, and every row checked again."))
        } catch let errors as ValidationError {
            return try ImportReviewView.page(&context, job, errors: errors, proposed: mapping, status: .unprocessableContent)
        }
    }

    /// POST /imports/{id}/choices: the choices of the rows on one page, or one choice for every possible duplicate.
    static func choices(_ context: inout PageContext) throws -> Response {
        let job = try context.database.importJob(id: context.request.uuidParameter())
        let back = Paths.importRecord(job.id) + ImportReviewView.query(context.request.form)
        do {
            if let all = ImportDecision(rawValue: context.request.field("every_duplicate")) {
                try context.database.setImportDecisionForMatches(of: job.id, all)
                return context.redirect(to: back, flash: Message("Every possible duplicate set to “{choice}”.", ["choice": .message(ImportReviewView.label(all))]))
            }
            try context.database.setImportDecisions(of: job.id, rowDecisions(context.request))
            return context.redirect(to: back, flash: Message("Choices saved."))
        } catch let errors as ValidationError {
            return try ImportReviewView.page(&context, job, errors: errors, status: .unprocessableContent)
        }
    }

    /// POST /imports/{id}/references: which records the rows name that are not here the import creates; every row is
    /// checked again.
    static func references(_ context: inout PageContext) throws -> Response {
        let job = try context.database.importJob(id: context.request.uuidParameter())
        let fields = context.request.form.pairs.filter { $0.0 == "create" }.compactMap { ImportField(rawValue: $0.1) }
        let creating = ImportCreating(fields: Set(fields), areaType: AreaType(rawValue: context.request.field("area_type")))
        do {
            try context.database.setImportCreating(of: job.id, creating)
            return context.redirect(to: Paths.importRecord(job.id), flash: Message("Saved, and every row checked again."))
        } catch let errors as ValidationError {
            return try ImportReviewView.page(&context, job, errors: errors, proposedCreating: creating, status: .unprocessableContent)
        }
    }

    /// POST /imports/{id}/start: the import leaves the review and is written in the background, with the choices the
    /// page showed (the import button belongs to the rows' form, so they come with it).
    static func start(_ context: inout PageContext) throws -> Response {
        let job = try context.database.importJob(id: context.request.uuidParameter())
        do {
            try context.database.queueImport(job.id, decisions: rowDecisions(context.request))
        } catch let errors as ValidationError {
            let status: HTTPStatus = errors.fieldErrors.contains { $0.field.hasPrefix("row-") } ? .unprocessableContent : .conflict
            return try ImportReviewView.page(&context, context.database.importJob(id: job.id), errors: errors, status: status)
        }
        context.web.imports.wake()
        return context.redirect(to: Paths.importRecord(job.id), flash: Message("The import has started."))
    }

    /// POST /imports/{id}/cancel: nothing of the import is kept.
    static func cancel(_ context: inout PageContext) throws -> Response {
        let id = try context.request.uuidParameter()
        try context.web.imports.cancel(id)
        return context.redirect(to: Paths.importRecord(id), flash: Message("Cancel requested. This page says whether the import was cancelled or had already finished."))
    }

    /// POST /imports/{id}/review: a cancelled or failed import back to its review, every row checked again.
    static func review(_ context: inout PageContext) throws -> Response {
        let id = try context.request.uuidParameter()
        try context.database.reviewImportAgain(id)
        return context.redirect(to: Paths.importRecord(id), flash: Message("Every row checked again. Change what needs changing, then import."))
    }

    /// POST /imports/{id}/delete: the import and its rows forgotten (records it wrote stay).
    static func delete(_ context: inout PageContext) throws -> Response {
        let id = try context.request.uuidParameter()
        do {
            try context.database.deleteImport(id)
        } catch let errors as ValidationError {
            return try ImportReviewView.page(&context, context.database.importJob(id: id), errors: errors, status: .conflict)
        }
        return context.redirect(to: Paths.imports(), flash: Message("Import removed."))
    }

    /// GET /imports/{id}/progress: the import's state and rows done, for the page's script.
    static func progress(_ context: inout PageContext) throws -> Response {
        let job = try context.database.importJob(id: context.request.uuidParameter())
        let progress = context.web.imports.progress(of: job.id)
        return .json(try JSONEncoder.sortingKeys.encode(JobProgress(state: job.state.rawValue, done: progress?.done ?? 0, total: job.rowCount)))
    }

    /// The choices of a review's rows as the form sent them (`row-LINE` = decision).
    private static func rowDecisions(_ request: Request) -> [Int: ImportDecision] {
        var decisions: [Int: ImportDecision] = [:]
        for (name, value) in request.form.pairs where name.hasPrefix("row-") {
            if let line = Int(name.dropFirst(4)), let decision = ImportDecision(rawValue: value) { decisions[line] = decision }
        }
        return decisions
    }

    /// The upload form's choice for a Fieldbook export to restore.
    static let archiveKind = "archive"

    private static func listPage(_ context: inout PageContext, error: String?, kind: String, status: HTTPStatus = .ok) throws -> Response {
        let chosen = kind == archiveKind ? kind : (ImportTarget(rawValue: kind) ?? .participants).rawValue
        var kinds = ImportTarget.allCases.map { option -> TemplateView in
            ["value": option.rawValue, "label": option.noun.many.prefix(1).uppercased() + option.noun.many.dropFirst(),
             "hint": hint(option), "checked": option.rawValue == chosen]
        }
        kinds.append(["value": archiveKind, "label": Message("A Fieldbook export (ZIP) to restore"), "checked": chosen == archiveKind,
                      "hint": Message("Everything, downloaded as JSON from the Export page (an area's or an activity's export restores into a Fieldbook that has what it refers to). Records already here stay as they are.")])
        let imports = try context.database.importJobs().map { job -> TemplateView in
            ["name": job.fileName, "path": Paths.importRecord(job.id), "rows": rowsText(job.rowCount), "kind": job.archive == nil ? Message.verbatim(job.target.noun.many) : Message("Fieldbook export"),
             "state": ImportReviewView.stateText(job), "when": DateStyle.current.text(job.createdAt)]
        }
        var view: TemplateView = [
            "action": Paths.imports(),
            "kinds": kinds,
            "imports": imports,
            "max_rows": AppDatabase.maxImportRows.formatted(),
        ]
        view["has_imports"] = !imports.isEmpty
        if let error {
            view["file_error"] = error
            view["errors"] = [["anchor": "file", "message": error]]
            view["has_errors"] = true
        }
        return context.page("imports/list", title: Message("Import from a spreadsheet"), section: nil, view: view, status: status, hasErrors: error != nil)
    }

    /// What a file of each kind holds, for the choice on the upload form.
    private static func hint(_ target: ImportTarget) -> String {
        switch target {
        case .participants: "Name (or first and last names) and email address; phone, notes and home venue if you have them."
        case .venues: "Name, address and area (by name); latitude, longitude and venue type if you have them."
        case .activities: "Name, type (by name), start date and status; end date, description and venues (names separated by semicolons) if you have them."
        case .areas: "Name, type and parent area (by path, such as “World / Kenya”, or name); parents may be rows of the same file."
        case .assignments: "Activity (by name), participant (by email or name) and role (by name)."
        }
    }

    static func rowsText(_ count: Int) -> Message { Message("{count} row", plural: "{count} rows", count: count) }
}
