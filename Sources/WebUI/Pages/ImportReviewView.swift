import Domain
import Foundation
import HTTPServer
import Storage
import Surface
import Translations

/// The page of one import, whatever its state: the review (columns, summary, rows with their choices), the progress
/// while it is written, or what it did.
enum ImportReviewView {
    static func page(_ context: inout PageContext, _ job: ImportJob, errors: ValidationError, proposed: ImportMapping? = nil,
                     proposedCreating: ImportCreating? = nil, status: HTTPStatus = .ok) throws -> Response {
        var view: TemplateView = [
            "file_name": job.fileName, "rows": ImportPages.rowsText(job.rowCount), "state_text": stateText(job),
            "separator": job.separator.name, "windows_1252": job.windows1252, "back": Paths.imports(),
            "delete_action": Paths.importDelete(job.id), "is_archive": job.archive != nil,
            "list_path": job.archive == nil ? routes(job.target).list() : Paths.home(),
            "list_label": job.archive == nil ? Message("Go to {records}", ["records": .text(job.target.noun.many)]) : Message("Go to the home page"),
        ]
        switch job.state {
        case .preview where job.archive != nil:
            view["restore"] = [
                "files": (job.archive ?? []).map { ["file": $0.file, "label": $0.label, "count": $0.count.formatted()] },
                "start_action": Paths.importStart(job.id),
                "start_label": Message("Restore {count} record", plural: "Restore {count} records", count: job.rowCount),
            ] as TemplateView
        case .preview:
            var review = try review(context, job, proposed: proposed ?? job.mapping, errors: errors)
            review["references"] = references(job, proposedCreating ?? job.creating, errors)
            view["review"] = review
        case .queued, .running:
            let progress = context.web.imports.progress(of: job.id)
            let done = progress?.done ?? 0
            view["working"] = [
                "text": job.state == .queued ? Message("Waiting to start.")
                    : Message("{done} of {count} row written.", plural: "{done} of {count} rows written.", count: job.rowCount,
                              ["done": .number(done)]),
                "done": done, "total": max(job.rowCount, 1), "progress_url": Paths.importProgress(job.id),
                "cancel_action": Paths.importCancel(job.id), "refresh": Paths.importRecord(job.id),
            ] as TemplateView
        case .done where job.archive != nil:
            view["report"] = [
                "created": Message("{count} record restored", plural: "{count} records restored", count: job.created),
                "skipped": Message("{count} record already here, left as it was", plural: "{count} records already here, left as they were",
                                   count: job.skipped),
                "note": job.note ?? "",
            ] as TemplateView
        case .done:
            view["report"] = [
                "created": count(job.created, "\(job.target.noun.one) added", "\(job.target.noun.many) added"),
                "merged": count(job.merged, "row merged into \(article(job.target)) \(job.target.noun.one) already here",
                                "rows merged into \(job.target.noun.many) already here"),
                "skipped": Message("{count} row skipped", plural: "{count} rows skipped", count: job.skipped),
            ] as TemplateView
        case .cancelled, .failed:
            view["ended"] = ["failure": job.failure ?? "", "review_action": Paths.importReview(job.id)]
        }
        if !errors.isEmpty {
            view["errors"] = errors.fieldErrors.map { ["anchor": $0.field, "message": $0.message] }
            view["has_errors"] = true
        }
        return context.page("imports/show", title: Message("Import of {file}", ["file": .text(job.fileName)]), section: section(job.target), view: view, status: status,
                            hasErrors: !errors.isEmpty)
    }

    private static func review(_ context: PageContext, _ job: ImportJob, proposed: ImportMapping, errors: ValidationError) throws -> TemplateView {
        let mappingProblems = job.mapping.problems(headers: job.headers, target: job.target)
        var view: TemplateView = [
            "columns_action": Paths.importColumns(job.id), "columns": try columns(context, job, proposed, errors),
            "columns_open": !mappingProblems.isEmpty || errors.fieldErrors.contains { $0.field.hasPrefix("column-") },
        ]
        guard mappingProblems.isEmpty else {
            view["columns_needed"] = true
            return view
        }
        let summary = try context.database.importSummary(of: job.id)
        let reader = LenientListReader(context.request)
        let filter = context.request.query["show"].flatMap(ImportRowFilter.init) ?? .all
        let page = try context.database.importRows(of: job.id, filter, page: reader.page())
        let shown = Set(proposed.fields.compactMap { $0 }).subtracting([.id, .name, .firstName, .lastName])
        let fields = job.target.fields.filter(shown.contains)
        view["summary"] = [
            "create": count(summary.toCreate, "row to add as a new \(job.target.noun.one)", "rows to add as new \(job.target.noun.many)"),
            "merge": count(summary.toMerge, "row to merge into \(article(job.target)) \(job.target.noun.one) already here",
                           "rows to merge into \(job.target.noun.many) already here") + " (the file's values replace theirs; empty cells keep them)",
            "skip": Message("{count} row to skip", plural: "{count} rows to skip", count: summary.toSkip),
            "problems": Message("{count} row with problems, skipped until they are fixed in the file",
                                plural: "{count} rows with problems, skipped until they are fixed in the file", count: summary.withProblems),
            "duplicates": count(summary.possibleDuplicates, "row that may be \(what(job.target)) already here or in an earlier row",
                                "rows that may be \(what(job.target)) already here or in an earlier row"),
        ] as TemplateView
        view["filters"] = ImportRowFilter.allCases.map { option -> TemplateView in
            ["label": filterLabel(option), "href": Paths.importRecord(job.id) + (option == .all ? "" : "?show=\(option.rawValue)"), "current": option == filter]
        }
        view["headings"] = fields.map { ["label": $0.heading] }
        view["rows"] = page.items.map { row(job, $0, fields, errors) }
        view["has_rows"] = !page.items.isEmpty
        view["pagination"] = Pagination.view(page, request: context.request, noun: .importRows, formats: context.translator.formats)
        view["choices_action"] = Paths.importChoices(job.id)
        view["show"] = filter == .all ? "" : filter.rawValue
        view["page"] = page.request.page
        view["has_duplicates"] = summary.possibleDuplicates > 0
        view["bulk_choices"] = ImportDecision.allCases.map { decision -> TemplateView in
            ["value": decision.rawValue, "label": Message("Set every possible duplicate to “{choice}”", ["choice": .message(label(decision))])]
        }
        view["start_action"] = Paths.importStart(job.id)
        let writes = summary.toCreate + summary.toMerge
        view["start_label"] = writes == 0 ? nil : Message("Import {count} row", plural: "Import {count} rows", count: writes)
        return view
    }

    /// The records the rows name that are not here, one choice per field to create them, and the type of the areas it
    /// creates; nil when there are none.
    private static func references(_ job: ImportJob, _ creating: ImportCreating, _ errors: ValidationError) -> TemplateView? {
        let creatable = ImportCreating.creatable(job.target)
        let groups = job.missing.compactMap { group in group.importField.flatMap { creatable.contains($0) ? (group, $0) : nil } }
        guard !groups.isEmpty else { return nil }
        var view: TemplateView = [
            "action": Paths.importReferences(job.id),
            "choices": groups.map { group, field -> TemplateView in
                let names = group.names.prefix(5).joined(separator: ", ") + (group.names.count > 5 ? ", …" : "")
                return ["id": "create-\(field.rawValue)", "value": field.rawValue, "checked": creating.fields.contains(field),
                        "label": createLabel(field, group.names.count),
                        "hint": Message("{names} (named by {count} row)", plural: "{names} (named by {count} rows)", count: group.rows,
                                        ["names": .text(names)])]
            },
        ]
        if groups.contains(where: { ImportCreating.namesArea($0.1) }) {
            view["area_types"] = [["value": "", "label": Message("Choose a type"), "selected": creating.areaType == nil] as TemplateView]
                + AreaType.allCases.map { ["value": $0.rawValue, "label": $0.message, "selected": $0 == creating.areaType] as TemplateView }
            view["has_area_types"] = true
            if let message = errors.text(for: "area_type") { view["type_error"] = message }
        }
        return view
    }

    private static func createLabel(_ field: ImportField, _ count: Int) -> Message {
        switch field {
        case .homeVenue, .venues: Message("Create the {count} missing venue", plural: "Create the {count} missing venues", count: count)
        case .activityType: Message("Create the {count} missing activity type", plural: "Create the {count} missing activity types", count: count)
        case .role: Message("Create the {count} missing role", plural: "Create the {count} missing roles", count: count)
        default: Message("Create the {count} missing area", plural: "Create the {count} missing areas", count: count)
        }
    }

    private static func columns(_ context: PageContext, _ job: ImportJob, _ mapping: ImportMapping, _ errors: ValidationError) throws -> [TemplateView] {
        let samples = try context.database.importRows(of: job.id, .all, page: PageRequest(page: 1, perPage: 3)).items
        return job.headers.enumerated().map { index, header -> TemplateView in
            let chosen = index < mapping.fields.count ? mapping.fields[index] : nil
            let examples = samples.compactMap { $0.cells.indices.contains(index) ? $0.cells[index] : nil }
            var column: TemplateView = [
                "id": "column-\(index)", "header": header.isEmpty ? Message("Column {number} (no name)", ["number": .number(index + 1)]) : Message.verbatim(header),
                "examples": examples.filter { !$0.isEmpty }.prefix(3).joined(separator: ", "),
                "options": ([nil] + job.target.fields.map { Optional($0) }).map { field -> TemplateView in
                    ["value": field?.rawValue ?? "", "label": field.map { Message.verbatim($0.label) } ?? Message("Leave out"), "selected": field == chosen]
                },
            ]
            if let message = errors.message(for: "column-\(index)") { column["error"] = message }
            return column
        }
    }

    private static func row(_ job: ImportJob, _ row: ImportRow, _ fields: [ImportField], _ errors: ValidationError) -> TemplateView {
        var view: TemplateView = [
            "line": row.line, "name": row.values.name.isEmpty ? Message("(no name)") : Message.verbatim(row.values.name),
            "cells": fields.map { ["value": row.values[$0], "label": $0.heading] },
            "problems": row.errors.map { ["message": $0.message] }, "has_problems": !row.errors.isEmpty,
            "select_id": "row-\(row.line)",
            "options": row.choices.map { choice -> TemplateView in
                ["value": choice.rawValue, "label": label(choice), "selected": choice == row.decision]
            },
            "fixed": row.choices.count == 1,
            "decision_text": label(row.decision),
        ]
        if let message = errors.message(for: "row-\(row.line)") { view["error"] = message }
        if let reason = row.matchReason { view["match"] = match(reason, row, job.target) }
        if row.comparesWithStored { view["compare_path"] = Paths.importRow(job.id, row.line) }
        if !row.keptFields.isEmpty, row.decision == .merge { view["kept_text"] = Message("Merging field by field.") }
        return view
    }

    private static func match(_ reason: ImportMatchReason, _ row: ImportRow, _ target: ImportTarget) -> TemplateView {
        let line = row.matchLine.map(String.init) ?? ""
        let key = switch target {
        case .participants: "this email address"
        case .venues: "this name and address"
        case .activities: "this name and start date"
        case .areas: "this path"
        case .assignments: "this activity, participant and role"
        }
        var view: TemplateView = switch reason {
        case .sameID: ["before": "Already here, with the same Fieldbook id:"]
        case .sameKey: ["before": "Already here, with \(key):"]
        case .sameName: ["before": "Possible duplicate, with the same name:"]
        case .sameAsRow: ["text": "The same as row \(line)."]
        case .idOfRow: ["text": "Row \(line) has this Fieldbook id."]
        case .keyOfRow: ["text": "Row \(line) has \(key)."]
        case .nameOfRow: ["text": "Possible duplicate of row \(line), with the same name."]
        case .similarName: ["before": "Possible duplicate, with a similar name:"]
        case .similarToRow: ["text": "Possible duplicate of row \(line), with a similar name."]
        }
        if !reason.isEarlierRow, let id = row.matchId {
            // An assignment has no page of its own to link to: it is named in words.
            if target == .assignments, let before = view.text("before") {
                return ["text": "\(before) \(row.matchName ?? ""), \(row.matchDetail ?? "")."]
            }
            view["path"] = routes(target).record(id)
            view["name"] = row.matchName ?? "a record"
            view["detail"] = row.matchDetail ?? ""
        }
        return view
    }

    private static func section(_ target: ImportTarget) -> Section {
        switch target {
        case .participants: .participants
        case .venues: .venues
        case .activities, .assignments: .activities
        case .areas: .areas
        }
    }

    private static func routes(_ target: ImportTarget) -> RecordRoutes {
        switch target {
        case .participants: Paths.participants
        case .venues: Paths.venues
        case .activities, .assignments: Paths.activities
        case .areas: Paths.areas
        }
    }

    /// "someone" for people, "a venue" or "an activity" for the rest ("a row that may be someone already here").
    private static func what(_ target: ImportTarget) -> String { target == .participants ? "someone" : "\(article(target)) \(target.noun.one)" }

    private static func article(_ target: ImportTarget) -> String { target == .activities || target == .areas || target == .assignments ? "an" : "a" }

    private static func count(_ number: Int, _ one: String, _ many: String) -> String {
        number == 1 ? "1 \(one)" : "\(number.formatted()) \(many)"
    }

    static func label(_ decision: ImportDecision) -> Message {
        switch decision {
        case .create: Message("Add as new")
        case .merge: Message("Merge into the match")
        case .skip: Message("Skip")
        }
    }

    static func stateText(_ job: ImportJob) -> Message {
        switch job.state {
        case .preview: Message("Waiting for your review")
        case .queued: Message("Waiting to start")
        case .running: Message("Being imported")
        case .done where job.archive != nil:
            Message("Restored: {added} added, {here} already here", ["added": .number(job.created), "here": .number(job.skipped)])
        case .done:
            Message("Imported: {added} added, {merged} merged, {skipped} skipped",
                    ["added": .number(job.created), "merged": .number(job.merged), "skipped": .number(job.skipped)])
        case .cancelled: Message("Cancelled: nothing imported")
        case .failed: Message("Failed: nothing imported")
        }
    }

    private static func filterLabel(_ filter: ImportRowFilter) -> Message {
        switch filter {
        case .all: Message("All rows")
        case .problems: Message("Rows with problems")
        case .duplicates: Message("Possible duplicates")
        }
    }

    /// The review's filter and page, kept across a save of choices.
    static func query(_ form: Parameters) -> String {
        var kept = Parameters()
        if let show = form["show"], !show.isEmpty { kept.append("show", show) }
        if let page = form["page"], let number = Int(page), number > 1 { kept.append("page", String(number)) }
        return kept.isEmpty ? "" : "?" + QueryString.encode(kept)
    }
}
