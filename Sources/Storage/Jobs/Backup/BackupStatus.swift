import Foundation

/// How backups stand, for the administrators' page and Home's warning.
public struct BackupStatus: Sendable {
    public let folder: String
    /// Why backups cannot be written to the folder now; nil when they can.
    public let folderProblem: String?
    /// The whole backups in the folder, newest first.
    public let backups: [BackupListing]
    /// Backups dated after this server's clock: left alone, and not counted as the newest.
    public let datedAhead: [BackupListing]
    /// The last backup that failed, when it failed after the last one that succeeded.
    public let lastFailure: (at: Date, reason: String)?
    /// Whether a backup is being taken now.
    public let running: Bool

    public var lastGood: Date? { backups.first?.takenAt }

    /// A backup older than this is stale: Home warns administrators.
    public static let staleAfter: TimeInterval = 2 * 86_400

    /// What the backups page says while backups in the folder are dated after this server's clock; nil otherwise.
    public var clockWarning: String? {
        guard let newest = datedAhead.first else { return nil }
        return "\(datedAhead.count) backup files are dated after this server's clock (the newest is \(newest.name)): the clock is wrong now, or was when they were taken. Set the server's clock right. Fieldbook leaves those files alone, and takes and prunes backups as if they were not there."
    }

    /// What Home tells administrators, with what to do; nil while backups are fine.
    public func warning(now: Date) -> String? {
        if let folderProblem { return folderProblem }
        if let lastFailure, lastGood.map({ now.timeIntervalSince($0) > Self.staleAfter }) ?? true {
            return "The last backup failed: \(lastFailure.reason)"
        }
        guard let lastGood, now.timeIntervalSince(lastGood) > Self.staleAfter else { return nil }
        return "The last good backup is more than two days old. Keep Fieldbook running so it can back up daily, or take one now on the backups page."
    }
}
