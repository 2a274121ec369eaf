import Archives
import Foundation
import GRDB
import Hub

/// What a restore found wrong with the file it was given, or with where to put it; nothing was changed.
public struct BackupRefusal: Error, CustomStringConvertible, Equatable {
    public let description: String
}

/// What a restore did.
public struct RestoreOutcome: Sendable, Equatable {
    /// Where the database that was there before went; nil when there was none.
    public let keptAside: String?
    public let photosRestored: Int
    /// Whether the backup's certificate authority (key and certificate) is now the data folder's.
    public var authorityRestored = false
    /// Where the data folder's own certificate folder went when the backup's authority replaced it.
    public var authorityKeptAside: String?
}

/// Puts a backup back into a data folder nobody serves: a backup's ZIP, or a database file `fieldbook backup FILE`
/// wrote (its photos in `FILE.photos`). The file is checked whole first (SQLite's integrity check on its database, which
/// must be a Fieldbook database this version knows), photos are added, and only then is the database there kept aside
/// (`fieldbook.sqlite.before-restore-…`) and the backup's renamed over it. A restore that would cost this node's sync
/// (unsent changes, nodes linked here, a hub link) is refused unless forced.
public enum BackupRestore {
    /// Staged copies get a prefix of their own: serve clears `.fieldbook-backup-` files in the data folder when it starts.
    static let stagedPrefix = ".fieldbook-restore-"

    public static func restore(_ file: String, intoDatabase databasePath: String, force: Bool = false, at time: Date = Date()) throws -> RestoreOutcome {
        let dataFolder = (databasePath as NSString).deletingLastPathComponent
        let source = try BackupSource(file)
        let staged = (dataFolder as NSString).appendingPathComponent("\(stagedPrefix)\(UUID().uuidString.lowercased()).sqlite")
        defer { unlink(staged) }
        try source.copyDatabase(to: staged)
        try checkIsFieldbookDatabase(staged, from: file)
        let target = try RestoreTarget(path: databasePath)
        try target.accept(staged, force: force)
        let photos = PhotoFiles(folder: (dataFolder as NSString).appendingPathComponent("photos"))
        var restored = 0
        for sha in try AppDatabase.photoHashes(shownBy: staged) where !photos.exists(sha) {
            guard let bytes = try source.photo(sha), PhotoFileRules.sha256(bytes) == sha else { continue }
            try photos.write(bytes)
            restored += 1
        }
        let authority = try source.restoreAuthority(into: dataFolder, at: time)
        let aside = try target.replace(with: staged, at: time)
        return RestoreOutcome(keptAside: aside, photosRestored: restored, authorityRestored: authority.restored,
                              authorityKeptAside: authority.keptAside)
    }

    /// Refuses a file that is not there or cannot be read, before anything else is done.
    public static func checkReadable(_ file: String) throws {
        guard FileManager.default.isReadableFile(atPath: file) else {
            throw BackupRefusal(description: "\(file) cannot be read: check its name, and that it is there. Nothing was changed.")
        }
    }

    /// Refuses a damaged database, one that is not Fieldbook's, and one from a newer Fieldbook than this.
    private static func checkIsFieldbookDatabase(_ path: String, from file: String) throws {
        let problems: [String]
        let applied: [String]
        do {
            problems = try DatabaseCheck.integrityProblems(path: path)
            applied = try DatabaseCheck.readingOnly(path) { db in
                try db.tableExists("grdb_migrations") ? try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations") : []
            }
        } catch {
            throw BackupRefusal(description: "\(file) is not a Fieldbook backup: its database cannot be read (\(error)). Nothing was changed.")
        }
        if let first = problems.first {
            throw BackupRefusal(description: "\(file) is damaged (\(first)); nothing was changed. Restore an older backup.")
        }
        let known = Set(Migrations.migrator.migrations)
        guard applied.contains("v1-schema") else {
            throw BackupRefusal(description: "\(file) holds a SQLite database that is not Fieldbook's; nothing was changed.")
        }
        guard applied.allSatisfy(known.contains) else {
            throw BackupRefusal(description: "\(file) was made by a newer Fieldbook than this one; nothing was changed. Install that version (or a later one) first.")
        }
    }
}

/// The file a restore reads: a backup's ZIP, or a database file with its photos beside it.
private enum BackupSource {
    case archive(ZipArchiveReader)
    case database(String, photos: PhotoFiles)

    init(_ file: String) throws {
        try BackupRestore.checkReadable(file)
        if ZipArchiveReader.looksLikeArchive(file) {
            let reader: ZipArchiveReader
            do { reader = try ZipArchiveReader(path: file) } catch {
                throw BackupRefusal(description: "\(file) is not a whole ZIP archive (it may have been cut short); nothing was changed.")
            }
            guard reader.member(named: BackupArchive.databaseMember) != nil else {
                throw BackupRefusal(description: "\(file) is a ZIP archive but not a Fieldbook backup (it holds no \(BackupArchive.databaseMember)); nothing was changed. An export is restored on the Import page instead.")
            }
            self = .archive(reader)
        } else {
            self = .database(file, photos: PhotoFiles(folder: file + ".photos"))
        }
    }

    /// Copies the database, made for its owner alone, to `path`: a database file through SQLite's backup, so a
    /// write-ahead log beside it counts.
    func copyDatabase(to path: String) throws {
        switch self {
        case .archive(let reader):
            let output = try BackupOutput.creating(path)
            do { try reader.read(BackupArchive.databaseMember) { try output.write($0) } } catch let failure as ZipArchiveReader.Failure {
                throw BackupRefusal(description: "The backup's database is damaged in the archive (\(failure)); nothing was changed. Restore an older backup.")
            }
            try output.finish()
        case .database(let file, _):
            do {
                var configuration = Configuration()
                configuration.readonly = true
                let source = try DatabaseQueue(path: file, configuration: configuration)
                defer { try? source.close() }
                try AppDatabase.copySelfContained(source, to: path)
            } catch let error as DatabaseError {
                throw BackupRefusal(description: "\(file) is not a Fieldbook backup: its database cannot be read (\(error.message ?? "\(error.resultCode)")). Nothing was changed.")
            }
        }
    }

    /// Puts the backup's certificate authority back, key and certificate as one pair, for its owner alone: the devices
    /// trusted the backed-up machine's authority, and a key beside another authority's certificate would stop the
    /// server. A different authority already there (a replacement machine's service made one at install) is moved
    /// aside whole, with the server certificate it signed, which the next start makes anew from the restored one. A
    /// backup without the key (downloaded from the backups page) leaves the folder's authority as it is.
    func restoreAuthority(into dataFolder: String, at time: Date) throws -> (restored: Bool, keptAside: String?) {
        guard case .archive(let reader) = self,
              BackupArchive.dataFolderMembers.allSatisfy({ reader.member(named: $0) != nil }) else { return (false, nil) }
        var members: [String: [UInt8]] = [:]
        for member in BackupArchive.dataFolderMembers {
            var bytes: [UInt8] = []
            try reader.read(member) { bytes += $0 }
            members[member] = bytes
        }
        let path = { (member: String) in (dataFolder as NSString).appendingPathComponent(member) }
        if members.allSatisfy({ FileManager.default.contents(atPath: path($0.key)).map(Array.init) == $0.value }) { return (true, nil) }
        let folder = (path(BackupArchive.dataFolderMembers[0]) as NSString).deletingLastPathComponent
        var aside: String?
        if FileManager.default.fileExists(atPath: folder) {
            let name = folder + ".before-restore-" + BackupFolder.stamp(time) + "-" + UUID().uuidString.prefix(8).lowercased()
            guard rename(folder, name) == 0 else { throw BackupFailure.cannotWrite(String(cString: strerror(errno))) }
            aside = name
        }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        for (member, bytes) in members {
            let output = try BackupOutput.creating(path(member))
            try output.write(bytes)
            try output.finish()
        }
        return (true, aside)
    }

    /// A photo file's bytes, nil when the backup lacks it (deleted while the backup was taken).
    func photo(_ sha: String) throws -> [UInt8]? {
        switch self {
        case .archive(let reader):
            guard reader.member(named: PhotoFiles.archiveMember(sha)) != nil else { return nil }
            var bytes: [UInt8] = []
            try reader.read(PhotoFiles.archiveMember(sha)) { bytes += $0 }
            return bytes
        case .database(_, let photos):
            return FileManager.default.contents(atPath: photos.path(sha)).map(Array.init)
        }
    }
}
