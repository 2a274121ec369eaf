import Domain
import Foundation
import HTTPServer
import Storage
import Surface
import Translations

/// Archives prepared in the background (issue 14): asked for on the Export page, followed on their own page with a
/// progress bar, cancelled, and downloaded once written. Each person sees their own; administrators see all.
enum ExportJobPages {
    /// POST /export/jobs: `scope` (everything, area or activity, with `id`) and `format`.
    static func create(_ context: inout PageContext) throws -> Response {
        let scope: ExportScope
        switch context.request.field("scope") {
        case "area": scope = .area(try id(context.request.field("id"), in: context.database.area(id:)))
        case "activity": scope = .activity(try id(context.request.field("id"), in: context.database.activity(id:)))
        default: scope = .everything
        }
        let format = ExportFormat(rawValue: context.request.field("format")) ?? .json
        let job = try context.database.queueExport(scope, as: format, by: try context.signedInUser.id)
        context.web.exports.wake()
        return context.redirect(to: Paths.exportJob(job.id))
    }

    private static func id(_ text: String, in load: (UUID) throws -> some Any) throws -> UUID {
        guard let id = UUID(uuidString: text) else { throw DomainError.notFound(entity: "record") }
        _ = try load(id)
        return id
    }

    static func show(_ context: inout PageContext) throws -> Response {
        let job = try ownJob(context)
        let title = try title(context.database, job)
        var view: TemplateView = ["title": title, "state": job.state.rawValue, "records": job.records.formatted()]
        switch job.state {
        case .queued, .running:
            let done = context.web.exports.progress(of: job.id) ?? 0
            view["working"] = [
                "done": done, "total": max(job.records, 1), "progress_url": Paths.exportJobProgress(job.id), "refresh": Paths.exportJob(job.id),
                "cancel_action": Paths.exportJobCancel(job.id),
                "text": job.state == .queued ? "Waiting to start." : "\(done.formatted()) of \(job.records.formatted()) records written.",
            ] as TemplateView
        case .done:
            let kept = (job.finishedAt ?? Date()).addingTimeInterval(AppDatabase.exportKeptFor)
            view["ready"] = [
                "download": Paths.exportJobDownload(job.id), "file": fileName(context.database, job),
                "size": megabytes(job.fileBytes ?? 0), "kept_until": DateText.format(kept),
                "ready_text": Message("Ready: {count} record, {size}.", plural: "Ready: {count} records, {size}.", count: job.records,
                                      ["size": .text(megabytes(job.fileBytes ?? 0))]),
            ] as TemplateView
        case .failed, .cancelled:
            view["ended"] = [
                "message": job.state == .cancelled ? "This export was cancelled; nothing of it was kept." : job.failure ?? "This export failed.",
                "is_failure": job.state == .failed, "again": againFields(job),
            ] as TemplateView
        }
        view["action"] = Paths.exportJobs()
        return context.page("export_job", title: title, section: nil, view: view)
    }

    static func progress(_ context: inout PageContext) throws -> Response {
        let job = try ownJob(context)
        let done = context.web.exports.progress(of: job.id) ?? 0
        return .json(try JSONEncoder.sortingKeys.encode(JobProgress(state: job.state.rawValue, done: done, total: job.records)))
    }

    static func cancel(_ context: inout PageContext) throws -> Response {
        let job = try ownJob(context)
        let stopped = try context.web.exports.cancel(job.id)
        return context.redirect(to: Paths.exportJob(job.id), flash: stopped ? Message("Export cancelled.") : Message("The export had already ended."))
    }

    /// GET /export/jobs/{id}/download: the finished file, sent from its descriptor.
    static func download(_ context: inout PageContext) throws -> Response {
        let job = try ownJob(context)
        guard job.state == .done, let file = OpenFile(path: context.database.exportFile(job.id)) else {
            throw HTTPError(.notFound, "This export is not ready, or was removed after a day. Prepare it again on the Export page.")
        }
        let name = fileName(context.database, job)
        return Response.file(file, contentType: "application/zip", headers: [
            ("Content-Disposition", "attachment; filename=\"\(name)\""), ("Cache-Control", "private, no-store"), ("X-Content-Type-Options", "nosniff"),
        ])
    }

    /// The job, if the person asked for it (or is an administrator); else, as for a job that does not exist, 404.
    private static func ownJob(_ context: PageContext) throws -> ExportJob {
        let job = try context.database.exportJob(id: context.request.uuidParameter())
        let user = try context.signedInUser
        guard job.createdBy == user.id || user.role.canAdminister else { throw DomainError.notFound(entity: "export") }
        return job
    }

    private static func title(_ database: AppDatabase, _ job: ExportJob) throws -> Message {
        let format: MessageArgument = .text(job.format == .json ? "JSON" : "CSV")
        func name(_ found: String?) -> MessageArgument { found.map { .text($0) } ?? .message(Message("no longer here")) }
        return switch job.scope {
        case .everything: Message("Export of everything ({format} files)", ["format": format])
        case .area(let id): Message("Export of the area “{name}” ({format} files)",
                                    ["name": name(try? database.area(id: id).name), "format": format])
        case .activity(let id): Message("Export of the activity “{name}” ({format} files)",
                                        ["name": name(try? database.activity(id: id).name), "format": format])
        }
    }

    /// The form fields that ask for the same export again.
    private static func againFields(_ job: ExportJob) -> TemplateView {
        switch job.scope {
        case .everything: ["scope": "everything", "id": "", "format": job.format.rawValue]
        case .area(let id): ["scope": "area", "id": id.lowercaseText, "format": job.format.rawValue]
        case .activity(let id): ["scope": "activity", "id": id.lowercaseText, "format": job.format.rawValue]
        }
    }

    /// The name the file downloads under; an area or activity deleted since is no longer named.
    private static func fileName(_ database: AppDatabase, _ job: ExportJob) -> String {
        (try? Download.archiveFileName(database, job.scope, job.format, on: day(job.createdAt))) ?? "fieldbook-export-\(day(job.createdAt)).zip"
    }

    /// The day the export was asked for, which its file is named after.
    private static func day(_ date: Date) -> CalendarDate { .today(date) }

    static func megabytes(_ bytes: Int) -> String {
        bytes < 1_048_576 ? "\(max(1, bytes / 1024).formatted()) KB" : String(format: "%.1f MB", Double(bytes) / 1_048_576)
    }
}
