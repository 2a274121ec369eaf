import Foundation
import Sync
import Translations

/// The words for a sync status, shared by the page layout and the live /events updates so both say the same.
struct SyncStatusText {
    let status: SyncStatus

    var state: String { status.hub.label }

    /// Nil when standalone: nothing waits for a hub that does not exist.
    var pending: String? {
        guard status.hub != .standalone else { return nil }
        return status.pendingOperations == 1 ? "1 change not yet synced" : "\(status.pendingOperations) changes not yet synced"
    }

    /// Nil when standalone.
    var lastSync: String? {
        guard status.hub != .standalone else { return nil }
        guard let date = status.lastSuccessfulSync else { return "Never synced" }
        return "Last synced " + date.formatted(.dateTime.day().month(.abbreviated).year().hour().minute())
    }

    /// What /sync says under "Current sync": a pause first, since no new session starts while paused.
    var currentSync: String {
        switch (status.paused, status.progress) {
        case (true, .some): "Paused: the sync under way stops after its current step."
        case (true, nil): "Paused: no sync runs until you resume it."
        case (false, let progress?): "Sync running: " + progress.phaseText
        case (false, nil): "No sync is running now."
        }
    }

    /// The hub's state as the page shows it, translated; the live updates (/events) still say it in English.
    var stateMessage: Message {
        switch status.hub {
        case .standalone: Message("Standalone")
        case .checking: Message("Checking the hub")
        case .online: Message("Hub online")
        case .offline: Message("Hub offline")
        case .refused: Message("Hub refused this node's sign-in")
        }
    }

    /// The layout's `sync` section.
    var layoutView: TemplateView {
        var view: TemplateView = ["state": stateMessage, "hub": status.hub.rawValue]
        if status.hub != .standalone {
            view["pending_label"] = Message("{count} change not yet synced", plural: "{count} changes not yet synced",
                                            count: status.pendingOperations)
        }
        view["last_sync_label"] = lastSync
        return view
    }

    /// The data of an `event: status` message.
    var json: String {
        let payload = StatusPayload(hub: status.hub.rawValue, hubLabel: state, pendingOperations: status.pendingOperations,
                                    pendingLabel: pending, lastSuccessfulSync: status.lastSuccessfulSync?.formatted(.iso8601),
                                    lastSuccessfulSyncLabel: lastSync, paused: status.paused, currentSyncLabel: currentSync,
                                    progressPercent: status.progress?.percent,
                                    progressPhase: status.progress?.phaseText, progressLabel: status.progress?.message)
        return String(decoding: (try? JSONEncoder.sortingKeys.encode(payload)) ?? Data("{}".utf8), as: UTF8.self)
    }
}

/// The JSON of a status event; absent values are sent as null so clients can clear what they show.
private struct StatusPayload: Encodable {
    let hub: String
    let hubLabel: String
    let pendingOperations: Int
    let pendingLabel: String?
    let lastSuccessfulSync: String?
    let lastSuccessfulSyncLabel: String?
    let paused: Bool
    let currentSyncLabel: String
    let progressPercent: Int?
    let progressPhase: String?
    let progressLabel: String?

    enum CodingKeys: String, CodingKey {
        case hub, hubLabel = "hub_label", pendingOperations = "pending_operations", pendingLabel = "pending_label"
        case lastSuccessfulSync = "last_successful_sync", lastSuccessfulSyncLabel = "last_successful_sync_label"
        case paused, currentSyncLabel = "current_sync_label"
        case progressPercent = "progress_percent", progressPhase = "progress_phase", progressLabel = "progress_label"
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(hub, forKey: .hub)
        try container.encode(hubLabel, forKey: .hubLabel)
        try container.encode(pendingOperations, forKey: .pendingOperations)
        try container.encode(pendingLabel, forKey: .pendingLabel)
        try container.encode(lastSuccessfulSync, forKey: .lastSuccessfulSync)
        try container.encode(lastSuccessfulSyncLabel, forKey: .lastSuccessfulSyncLabel)
        try container.encode(paused, forKey: .paused)
        try container.encode(currentSyncLabel, forKey: .currentSyncLabel)
        // Only while a sync runs: the script takes a missing progress as "no sync running".
        try container.encodeIfPresent(progressPercent, forKey: .progressPercent)
        try container.encodeIfPresent(progressPhase, forKey: .progressPhase)
        try container.encodeIfPresent(progressLabel, forKey: .progressLabel)
    }
}
