import Domain
import Foundation
import HTTPServer
import Storage
import Surface
import Translations

/// One row of an import beside the stored record it matches, merged field by field (issue 14): for each field where
/// the two differ, keep the stored value or take the file's.
enum ImportComparePages {
    /// GET /imports/{id}/rows/{line}
    static func form(_ context: inout PageContext) throws -> Response {
        let (job, line) = try address(context)
        let found = try context.database.importRow(of: job.id, line: line)
        return try page(&context, job, found.row, found.stored, kept: found.row.keptFields)
    }

    /// POST /imports/{id}/rows/{line}: the choices saved, the row set to merge.
    static func save(_ context: inout PageContext) throws -> Response {
        let (job, line) = try address(context)
        let kept = Set(job.target.fields.filter { context.request.field($0.rawValue) == "stored" })
        do {
            try context.database.setImportMerge(of: job.id, line: line, keeping: kept)
        } catch let errors as ValidationError {
            let found = try context.database.importRow(of: job.id, line: line)
            return try page(&context, job, found.row, found.stored, kept: kept, errors: errors, status: .conflict)
        }
        return context.redirect(to: Paths.importRecord(job.id) + "#row-\(line)-row", flash: Message("Row {line} will be merged with the values you chose.", ["line": .number(line)]))
    }

    private static func address(_ context: PageContext) throws -> (ImportJob, Int) {
        let job = try context.database.importJob(id: context.request.uuidParameter())
        guard let line = Int(context.request.pathParameter("line") ?? "") else { throw HTTPError.notFound(context.request.path) }
        return (job, line)
    }

    private static func page(_ context: inout PageContext, _ job: ImportJob, _ row: ImportRow, _ stored: [ImportField: String],
                             kept: Set<ImportField>, errors: ValidationError = ValidationError(), status: HTTPStatus = .ok) throws -> Response {
        let name = row.matchName ?? "the stored record"
        var view: TemplateView = [
            "line": row.line, "match_name": name, "back": Paths.importRecord(job.id) + "#row-\(row.line)-row",
            "action": Paths.importRow(job.id, row.line), "comparable": row.comparesWithStored && job.state == .preview,
        ]
        let mapped = Set(job.mapping.fields.compactMap { $0 })
        view["fields"] = job.target.fields.filter { $0 != .id && $0 != .firstName && $0 != .lastName }.filter {
            mapped.contains($0) || ($0 == .name && (mapped.contains(.firstName) || mapped.contains(.lastName)))
        }.map { field -> TemplateView in
            let file = field == .name ? row.values.name : row.values[field]
            let current = stored[field] ?? ""
            var view: TemplateView = ["name": field.rawValue, "label": field.heading, "stored": current.isEmpty ? "None" : current,
                                       "file": file, "keeps_stored": kept.contains(field)]
            if file.isEmpty { view["file_empty"] = true } else if file == current { view["same"] = true } else { view["differs"] = true }
            return view
        }
        if !errors.isEmpty {
            view["errors"] = errors.fieldErrors.map { ["anchor": "main", "message": $0.message] }
            view["has_errors"] = true
        }
        return context.page("imports/compare", title: Message("Row {line} beside {name}", ["line": .number(row.line), "name": .text(name)]), section: nil, view: view, status: status,
                            hasErrors: !errors.isEmpty)
    }
}
