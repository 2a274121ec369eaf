import Foundation

/// One backup in the backup folder.
public struct BackupListing: Sendable, Equatable {
    public let name: String
    public let path: String
    public let takenAt: Date
    public let bytes: Int
    public var kind: BackupKind
}

/// The folder backups are kept in (`--backup-dir`; a USB stick may be mounted there). A backup is written under a
/// hidden temporary name and renamed to `fieldbook-backup-YYYYMMDD-HHMMSSZ.zip` once whole, so only whole, checked
/// backups carry that name; temporaries a killed process left are removed at start.
public struct BackupFolder: Sendable {
    public let path: String
    /// The default folder (in the data folder) is made when missing; a chosen one is not, as a stick that is not
    /// plugged in leaves an empty mount point, and backups written there would fill the system's disk instead.
    let createsItself: Bool

    public init(path: String, createsItself: Bool) {
        self.path = path
        self.createsItself = createsItself
    }

    /// The default: `backups` in the data folder, made when missing.
    public static func inDataFolder(_ dataFolder: String) -> BackupFolder {
        BackupFolder(path: (dataFolder as NSString).appendingPathComponent("backups"), createsItself: true)
    }

    static let prefix = "fieldbook-backup-"
    static let temporaryPrefix = ".fieldbook-backup-"

    /// Why backups cannot be written here now, in words that say what to do; nil when they can.
    public func problem() -> String? {
        var isFolder: ObjCBool = false
        if !FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), createsItself {
            try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            return "The backup folder \(path) is missing. Plug in or mount the disk that holds it, or choose another folder with --backup-dir or FIELDBOOK_BACKUP_DIR."
        }
        guard isFolder.boolValue else { return "The backup folder \(path) is not a folder. Choose a folder with --backup-dir or FIELDBOOK_BACKUP_DIR." }
        guard access(path, W_OK | X_OK) == 0 else {
            return "Fieldbook cannot write in the backup folder \(path). Give the user Fieldbook runs as write access to it, or choose another folder with --backup-dir or FIELDBOOK_BACKUP_DIR."
        }
        return nil
    }

    /// A backup dated more than this after now was taken under a clock that was wrong, or is wrong now.
    static let clockTolerance: TimeInterval = 300

    /// The whole backups here: those dated up to now, newest first, each with whether retention keeps it, and those
    /// dated ahead of `now`, which are kept but neither counted by retention nor taken as the newest, so a wrong clock
    /// once does not stop backups being taken and pruned.
    public func backups(now: Date) -> (listed: [(listing: BackupListing, kept: Bool)], datedAhead: [BackupListing]) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        let found = names.compactMap { name -> BackupListing? in
            guard let time = Self.time(named: name) else { return nil }
            let file = (path as NSString).appendingPathComponent(name)
            return BackupListing(name: name, path: file, takenAt: time, bytes: Self.bytes(of: file), kind: .daily)
        }.sorted { $0.takenAt > $1.takenAt }
        let ahead = found.filter { $0.takenAt.timeIntervalSince(now) > Self.clockTolerance }
        let listed = found.filter { $0.takenAt.timeIntervalSince(now) <= Self.clockTolerance }
        let kept = BackupRetention.kept(listed.map(\.takenAt))
        return (listed.map { backup in
            var listing = backup
            listing.kind = kept[backup.takenAt] ?? .daily
            return (listing, kept[backup.takenAt] != nil)
        }, ahead)
    }

    /// The file's size, 0 when it cannot be read.
    static func bytes(of file: String) -> Int {
        (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0
    }

    /// A new temporary path here, which `removeTemporaries` clears should the backup be cut short.
    func temporary(_ suffix: String) -> String {
        (path as NSString).appendingPathComponent("\(Self.temporaryPrefix)\(UUID().uuidString.lowercased())\(suffix)")
    }

    /// Removes what backups cut short left (by a kill, a power cut, a full disk).
    func removeTemporaries() {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] where name.hasPrefix(Self.temporaryPrefix) {
            try? FileManager.default.removeItem(atPath: (path as NSString).appendingPathComponent(name))
        }
    }

    /// Renames a whole backup into place under the name of the time it was taken, and flushes the folder so the
    /// rename survives a power cut.
    func place(_ temporary: String, takenAt time: Date) throws -> String {
        let final = (path as NSString).appendingPathComponent(Self.name(at: time))
        guard rename(temporary, final) == 0 else { throw BackupFailure.cannotWrite(String(cString: strerror(errno))) }
        PhotoFiles.flush(directory: path)
        return final
    }

    /// Removes the backups retention no longer keeps.
    func prune(now: Date) {
        for (listing, kept) in backups(now: now).listed where !kept { try? FileManager.default.removeItem(atPath: listing.path) }
    }

    /// A backup's file name: `fieldbook-backup-YYYYMMDD-HHMMSSZ.zip`.
    public static func name(at time: Date) -> String { prefix + stamp(time) + ".zip" }

    /// The time in a file's name: `YYYYMMDD-HHMMSSZ`, UTC.
    static func stamp(_ time: Date) -> String { stampFormat.string(from: time) }

    static func time(named name: String) -> Date? {
        guard name.hasPrefix(prefix), name.hasSuffix(".zip") else { return nil }
        return stampFormat.date(from: String(name.dropFirst(prefix.count).dropLast(".zip".count)))
    }

    private static var stampFormat: DateFormatter {
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.timeZone = TimeZone(identifier: "UTC")
        format.dateFormat = "yyyyMMdd-HHmmss'Z'"
        return format
    }
}
