import Foundation
import Sync
import Translations

/// The words for a sync status in one language, shared by the page layout, the sync page and the live /events
/// updates so all say the same.
struct SyncStatusText {
    let status: SyncStatus
    let translator: Translator

    /// The hub's state.
    var state: Message {
        switch status.hub {
        case .standalone: Message("Standalone")
        case .checking: Message("Checking the hub")
        case .online: Message("Hub online")
        case .offline: Message("Hub offline")
        case .refused: Message("Hub refused this node's sign-in")
        }
    }

    /// Nil when standalone: nothing waits for a hub that does not exist.
    var pending: Message? {
        guard status.hub != .standalone else { return nil }
        return Message("{count} change not yet synced", plural: "{count} changes not yet synced", count: status.pendingOperations)
    }

    /// Nil when standalone.
    var lastSync: Message? {
        guard status.hub != .standalone else { return nil }
        guard let date = status.lastSuccessfulSync else { return Message("Never synced") }
        return Message("Last synced {time}", ["time": .text(translator.formats.moment(date))])
    }

    /// What /sync says under "Current sync": a pause first, since no new session starts while paused.
    var currentSync: Message {
        switch (status.paused, status.progress?.phase) {
        case (true, .some): Message("Paused: the sync under way stops after its current step.")
        case (true, nil): Message("Paused: no sync runs until you resume it.")
        case (false, .connecting?): Message("Sync running: connecting to the hub")
        case (false, .pushing?): Message("Sync running: sending changes")
        case (false, .pulling?): Message("Sync running: receiving changes")
        case (false, nil): Message("No sync is running now.")
        }
    }

    /// The running session's step.
    static func phase(_ progress: SyncProgress) -> Message {
        switch progress.phase {
        case .connecting: Message("connecting to the hub")
        case .pushing: Message("sending changes")
        case .pulling: Message("receiving changes")
        }
    }

    /// The running session's counts: "Sent 3 of 10 changes".
    static func progressLabel(_ progress: SyncProgress) -> Message {
        switch progress.phase {
        case .connecting: Message("Connecting to the hub")
        case .pushing: Message("Sent {pushed} of {count} change", plural: "Sent {pushed} of {count} changes", count: progress.toSend,
                               ["pushed": .number(progress.pushed)])
        case .pulling: Message("Received {count} change from the hub", plural: "Received {count} changes from the hub", count: progress.pulled)
        }
    }

    /// The layout's `sync` section.
    var layoutView: TemplateView {
        ["state": state, "hub": status.hub.rawValue, "pending_label": pending, "last_sync_label": lastSync]
    }

    /// The data of an `event: status` message, its texts in this language (its other fields are for the script).
    var json: String {
        let text = translator.text(_:)
        let payload = StatusPayload(hub: status.hub.rawValue, hubLabel: text(state), pendingOperations: status.pendingOperations,
                                    pendingLabel: pending.map(text), lastSuccessfulSync: status.lastSuccessfulSync?.formatted(.iso8601),
                                    lastSuccessfulSyncLabel: lastSync.map(text), paused: status.paused, currentSyncLabel: text(currentSync),
                                    progressPercent: status.progress?.percent,
                                    progressPhase: status.progress.map { text(Self.phase($0)) },
                                    progressLabel: status.progress.map { text(Self.progressLabel($0)) })
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
