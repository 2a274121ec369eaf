import Foundation
import GRDB

/// The database a restore replaces: made one self-contained file before it is kept aside, and what replacing it
/// would cost, for the sync this node takes part in.
struct RestoreTarget {
    /// The settings of this node's link to its hub; the pull cursor is the restored copy's own.
    static let linkSettings = ["sync.upstream", "sync.email", "sync.refresh_token", "sync.linked_at", AppDatabase.credentialRefusedKey]

    /// The keys as an SQL list (they are constants, free of quotes).
    private static let linkSettingList = linkSettings.map { "'\($0)'" }.joined(separator: ",")

    let path: String
    private(set) var consequences: [String] = []
    private(set) var hubLink: [String: String] = [:]

    /// Opens the database at `path` (when there is one), folds its write-ahead log into it, leaves it in rollback
    /// journal mode so the file alone is the whole database, and reads what replacing it would cost.
    init(path: String) throws {
        self.path = path
        guard FileManager.default.fileExists(atPath: path) else { return }
        do { try read() } catch let error as DatabaseError {
            throw BackupRefusal(description: "The database at \(path) cannot be made ready to be kept aside (\(error.message ?? "\(error.resultCode)")): stop whatever has it open, then restore again. Nothing was changed.")
        }
    }

    private mutating func read() throws {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
            try db.execute(sql: "PRAGMA journal_mode = DELETE")
            guard try db.tableExists("settings") else { return }
            let rows = try Row.fetchAll(db, sql: "SELECT key, value FROM settings WHERE key IN (\(Self.linkSettingList))")
            hubLink = Dictionary(uniqueKeysWithValues: rows.map { ($0["key"] as String, $0["value"] as String) })
            consequences = try Self.consequences(db, linkedTo: hubLink["sync.upstream"])
        }
    }

    private static func consequences(_ db: Database, linkedTo hub: String?) throws -> [String] {
        var found: [String] = []
        let unsent = try db.tableExists("outbox") ? try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM outbox") ?? 0 : 0
        if unsent > 0 {
            found.append("\(unsent) changes made here have not been sent to the hub yet: the restore loses them.")
        }
        let nodes = try db.tableExists("node_credentials")
            ? try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM node_credentials WHERE revoked_at IS NULL") ?? 0 : 0
        if nodes > 0 {
            found.append("This Fieldbook is the hub of \(nodes) linked nodes: its change log would go back to the backup's while the nodes have pulled past it, so they would miss changes made here after the restore.")
        }
        if let hub {
            found.append("This Fieldbook is linked to the hub \(hub): the backup's sign-in there is no longer valid.")
        }
        return found
    }

    /// Refuses a restore that costs something unless `force` is given; with it, the restored copy at `staged` keeps
    /// this database's hub link.
    func accept(_ staged: String, force: Bool) throws {
        guard !consequences.isEmpty else { return }
        guard force else {
            throw BackupRefusal(description: (consequences + ["Nothing was changed. To restore all the same, give --force: this node's hub link is kept in the restored database."]).joined(separator: " "))
        }
        let queue = try DatabaseQueue(path: staged)
        defer { try? queue.close() }
        try queue.write { db in
            try db.execute(sql: "DELETE FROM settings WHERE key IN (\(Self.linkSettingList))")
            for (key, value) in hubLink {
                try db.execute(sql: "INSERT INTO settings (key, value) VALUES (?, ?)", arguments: [key, value])
            }
        }
    }

    /// Keeps the database aside under a new name (a hard link, refused should the name exist), then renames `staged`
    /// over it: there is a database under `path` at every moment. Answers the name kept aside, nil when there was none.
    func replace(with staged: String, at time: Date) throws -> String? {
        let folder = (path as NSString).deletingLastPathComponent
        var aside: String?
        if FileManager.default.fileExists(atPath: path) {
            let name = path + ".before-restore-" + BackupFolder.stamp(time) + "-" + UUID().uuidString.prefix(8).lowercased()
            guard link(path, name) == 0 else { throw BackupFailure.cannotWrite(String(cString: strerror(errno))) }
            aside = name
        }
        guard rename(staged, path) == 0 else { throw BackupFailure.cannotWrite(String(cString: strerror(errno))) }
        PhotoFiles.flush(directory: folder)
        return aside
    }
}
