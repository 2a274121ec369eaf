import Foundation
import HTTPServer
import Storage
import Surface
import Translations

/// /settings/backups, for administrators: the backups serve keeps by itself, taking one now, and downloading a fresh
/// one.
enum BackupPages {
    static func show(_ context: inout PageContext) throws -> Response {
        let status = context.web.backups.status()
        let rows: [TemplateView] = status.backups.map { backup in
            ["taken": DateText.format(backup.takenAt), "name": backup.name, "size": ExportJobPages.megabytes(backup.bytes),
             "kind": backup.kind == .daily ? Message("Daily") : Message("Weekly")]
        }
        var view: TemplateView = ["folder": status.folder, "rows": rows, "has_rows": !rows.isEmpty, "running": status.running,
                                  "days": BackupRetention.days, "weeks": BackupRetention.weeks,
                                  "has_clock_warning": status.clockWarning != nil, "clock_warning": status.clockWarning ?? ""]
        view.merge(BackupNotice.view(status, now: Date(), linksToPage: false))
        return context.page("settings/backups", title: Message("Backups"), section: .users, view: view)
    }

    static func backUpNow(_ context: inout PageContext) throws -> Response {
        if let problem = context.web.backups.folder.problem() {
            return context.redirect(to: Paths.backups(), flash: Message("No backup was taken. {problem}", ["problem": .text(problem)]))
        }
        context.web.backups.backUpSoon()
        return context.redirect(to: Paths.backups(), flash: Message("Backing up now. The backup appears in the list when it is done; reload this page to see it."))
    }

    /// POST /settings/backups/download: a backup taken for this download, sent from its open file and gone after. It
    /// holds one of the download slots while it is written, as an export does: both hold a database reader meanwhile.
    /// The HTTPS authority's key is in it only when the administrator ticked the box for it.
    static func download(_ context: inout PageContext) throws -> Response {
        let dataFiles: BackupDataFiles = context.request.field("authority_key") == "on" ? .all : .withoutAuthorityKey
        try Download.slots.takeOrRefuse()
        defer { Download.slots.release() }
        let opened: OpenFile?
        do {
            opened = try context.web.backups.withFreshBackup(carrying: dataFiles) { OpenFile(path: $0) }
        } catch let failure as BackupFailure {
            if case .cannotWrite = failure { throw HTTPError(.insufficientStorage, failure.description) }
            throw HTTPError(.internalServerError, failure.description)
        }
        guard let file = opened else { throw HTTPError(.internalServerError, "The backup was written but could not be opened. Try again.") }
        let name = BackupFolder.name(at: Date())
        return Response.file(file, contentType: "application/zip", headers: [
            ("Content-Disposition", "attachment; filename=\"\(name)\""), ("Cache-Control", "private, no-store"), ("X-Content-Type-Options", "nosniff"),
        ])
    }
}

/// The warning Home and the backups page show administrators while backups are not
/// being kept: the folder is missing, the last backup failed, or the last good one is more than two days old.
enum BackupNotice {
    /// `linksToPage`: Home links to the backups page; the page itself does not.
    static func view(_ status: BackupStatus, now: Date, linksToPage: Bool) -> TemplateView {
        guard let warning = status.warning(now: now) else { return ["backup_warning": false] }
        return ["backup_warning": true, "backup_notice": warning, "backup_notice_links": linksToPage]
    }
}
