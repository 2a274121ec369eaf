import Domain
import Foundation
import HTTPServer
import Records
import Storage
import Surface
import Sync
import Translations

/// /sync: hub status, the running session's progress and its controls, failed operations and the session history.
enum SyncPages {
    static func show(_ context: inout PageContext) throws -> Response {
        let database = context.database
        let link = try database.hubLink()
        let snapshot = context.web.syncEngine?.snapshot()
        let status = context.syncStatus
        let isAdmin = context.user?.role.canAdminister ?? false
        let hideHub = HubAddressRedactor(link: isAdmin ? nil : link)
        let failed = try database.failedOperations().map { try failedView($0, database, linksUsers: isAdmin) }
        let sessions = try database.syncSessions(limit: 20).map { sessionView($0, hideHub) }
        let words = SyncStatusText(status: status, translator: context.translator)
        var view: TemplateView = [
            "linked": link != nil,
            "hub_label": words.state,
            "hub": status.hub.rawValue,
            "pending": status.pendingOperations,
            "failed_count": try database.failedOperationCount(),
            "conflict_count": try database.openConflictCount(),
            "last_sync": status.lastSuccessfulSync.map { Message.verbatim(DateText.format($0)) } ?? Message("Never"),
            "paused": status.paused,
            "current_sync": words.currentSync,
            "last_error": hideHub(snapshot?.lastError ?? ""),
            "has_last_error": !(snapshot?.lastError ?? "").isEmpty,
            "failed": failed,
            "sessions": sessions,
        ]
        if let checked = try database.lastEmptyCheck() { view["last_empty_check"] = DateText.format(checked) }
        // Only administrators see the hub's address; the key is absent otherwise, so the sentence has no dangling "at".
        if isAdmin, let link { view["hub_address"] = link.upstream.absoluteString }
        view["hub_offline_hidden"] = status.hub != .offline
        view.merge(try SyncNotice.view(database, for: context.actor))
        view.merge(DiskSpaceNotice.view(database))
        if let progress = status.progress {
            view["progress"] = ["percent": progress.percent, "message": SyncStatusText.progressLabel(progress),
                                "phase": SyncStatusText.phase(progress)] as TemplateView
        }
        view["has_failed"] = !failed.isEmpty
        view["has_sessions"] = !sessions.isEmpty
        return context.page("sync/status", title: Message("Sync"), section: .sync, view: view)
    }

    static func run(_ context: inout PageContext) throws -> Response {
        try linkedEngine(context).syncNow()
        return context.redirect(to: Paths.sync(), flash: Message("Syncing with the hub now. This page shows the progress."))
    }

    static func pause(_ context: inout PageContext) throws -> Response {
        try linkedEngine(context).pause()
        return context.redirect(to: Paths.sync(), flash: Message("Sync paused. Changes keep queuing here until you resume."))
    }

    static func resume(_ context: inout PageContext) throws -> Response {
        try linkedEngine(context).resume()
        return context.redirect(to: Paths.sync(), flash: Message("Sync resumed."))
    }

    static func cancel(_ context: inout PageContext) throws -> Response {
        try linkedEngine(context).cancel()
        return context.redirect(to: Paths.sync(), flash: Message("The current sync stops after its current step. Nothing done so far is lost."))
    }

    static func retry(_ context: inout PageContext) throws -> Response {
        try context.database.retryFailedOperation(try context.request.uuidParameter("operationId"))
        context.web.syncEngine?.wake(reason: "retry")
        return context.redirect(to: Paths.sync(), flash: Message("The operation is back in the queue and goes with the next sync."))
    }

    static func discardConfirmation(_ context: inout PageContext) throws -> Response {
        let id = try context.request.uuidParameter("operationId")
        guard let entry = try context.database.failedOperations().first(where: { $0.operationId == id }) else {
            throw DomainError.notFound(entity: "failed operation")
        }
        return context.page("sync/discard", title: Message("Discard a failed operation"), section: .sync,
                            view: ["operation": try failedView(entry, context.database,
                                                               linksUsers: context.user?.role.canAdminister ?? false)])
    }

    static func discard(_ context: inout PageContext) throws -> Response {
        try context.database.discardFailedOperation(try context.request.uuidParameter("operationId"))
        return context.redirect(to: Paths.sync(), flash: Message("The failed operation was discarded; the record keeps the hub's values."))
    }

    private static func linkedEngine(_ context: PageContext) throws -> SyncEngine {
        guard let engine = context.web.syncEngine, try context.database.hubLink() != nil else {
            throw HTTPError(.conflict, "This Fieldbook is standalone: there is no hub to sync with. An administrator can link one under Settings → Sync.")
        }
        return engine
    }

    static func failedView(_ entry: OutboxEntry, _ database: AppDatabase, linksUsers: Bool) throws -> TemplateView {
        let label = try database.recordLabel(entity: entry.change.entity, id: entry.change.entityId)
        var view = RecordText.view(entity: entry.change.entity, id: entry.change.entityId, label: label, linksUsers: linksUsers)
        view["retry_path"] = Paths.retryFailedOperation(entry.operationId)
        view["discard_path"] = Paths.discardFailedOperation(entry.operationId)
        view["operation"] = entry.change.operation.rawValue.capitalized
        view["when"] = DateText.format(entry.createdAt)
        view["reason"] = entry.lastError.map(Message.verbatim) ?? Message("Refused by the hub")
        view["attempts"] = entry.attempts
        return view
    }

    private static func sessionView(_ session: SyncSessionRecord, _ hideHub: HubAddressRedactor) -> TemplateView {
        let stats = session.statistics
        return ["started": DateText.format(session.startedAt),
                "duration": session.duration.map { Message("{seconds} s", ["seconds": .text(String(format: "%.1f", $0))]) }
                    ?? Message("running", context: "a sync session's duration while it runs"),
                "outcome": outcomeText(session), "refused": session.refused > 0, "pushed": stats.pushed, "pulled": stats.pulled,
                "photos_sent": stats.photosSent, "photos_received": stats.photosReceived, "merged": stats.merged, "conflicts": stats.conflicts, "failures": stats.failures, "error": hideHub(session.error ?? "")]
    }

    /// How a session ended, in words; one that ran to its end with operations refused is not called a success.
    static func outcomeText(_ session: SyncSessionRecord) -> Message {
        if session.refused > 0 {
            return Message("Finished with {count} refused", plural: "Finished with {count} refused", count: session.refused)
        }
        return Message.verbatim(session.outcome.rawValue.capitalized)
    }
}

/// The notice shown on the home and sync pages while edits that lost a conflict wait for review; it tells the person
/// looking about their own edits first.
enum SyncNotice {
    static func view(_ database: AppDatabase, for actor: Actor) throws -> TemplateView {
        let open = try database.openConflictCount()
        guard open > 0 else { return ["has_conflicts": false] }
        let mine = try database.openConflictCount(authoredBy: actor)
        let text = mine > 0
            ? Message("{count} of your edits lost a conflict with a change that reached the hub first.",
                      plural: "{count} of your edits lost conflicts with changes that reached the hub first.", count: mine)
            : Message("{count} edit made here lost a conflict with a change that reached the hub first.",
                      plural: "{count} edits made here lost conflicts with changes that reached the hub first.", count: open)
        return ["has_conflicts": true, "conflict_notice": text]
    }
}

/// Replaces the hub's address in texts that quote it (errors) for people who may not see it: only administrators do.
struct HubAddressRedactor {
    /// The link whose address to hide; nil shows texts as they are.
    let link: HubLink?

    /// "The hub did not answer at http://10.0.0.5:8080/." reads "The hub did not answer." ("at the hub" would repeat it).
    func callAsFunction(_ text: String) -> String {
        guard let link else { return text }
        var result = text
        for address in [link.upstream.absoluteString, link.upstream.host ?? ""] where !address.isEmpty {
            // The address with any path after it, up to a space or the sentence's closing punctuation.
            let url = NSRegularExpression.escapedPattern(for: address) + #"\S*?(?=[.,;:)]?(?:\s|$))"#
            result = result.replacingOccurrences(of: " at " + url, with: "", options: .regularExpression)
                .replacingOccurrences(of: url, with: "the hub", options: .regularExpression)
        }
        return result
    }
}

/// How synced records are named and linked on the sync pages: by their kind's label, linked to their page when the
/// pages list the kind.
enum RecordText {
    /// `linksUsers`: only administrators can open user pages, so only they get links to them.
    static func view(entity: String, id: UUID, label: String?, linksUsers: Bool) -> TemplateView {
        let kind = RecordKind.named(entity)?.label.one ?? entity.replacingOccurrences(of: "_", with: " ")
        var view: TemplateView = ["kind": kind.capitalizedFirst, "label": label ?? "", "has_label": label != nil]
        if let collection = RecordCollection(entity: entity), label != nil, entity != RecordKind.accountEntity || linksUsers {
            view["path"] = RecordRoutes(collection.path(under: Paths.home)).record(id)
        }
        view["has_path"] = view["path"] != nil
        return view
    }
}
