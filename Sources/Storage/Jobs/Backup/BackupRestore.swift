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
}

/// Puts a backup back into a data folder nobody serves: a backup's ZIP, or a database file `fieldbook backup FILE`
/// wrote (its photos in `FILE.photos`). The file is checked whole first (SQLite's integrity check on its database, which
/// must be a Fieldbook database this version knows), photos are added, and only then is the database there renamed
/// aside (`fieldbook.sqlite.before-restore-…`) and the backup's renamed into its place.
public enum BackupRestore {
    public static func restore(_ file: String, intoDatabase databasePath: String, at time: Date = Date()) throws -> RestoreOutcome {
        let dataFolder = (databasePath as NSString).deletingLastPathComponent
        let source = try BackupSource(file)
        let staged = BackupFolder(path: dataFolder, createsItself: false).temporary(".sqlite")
        defer { unlink(staged) }
        try source.copyDatabase(to: staged)
        try checkIsFieldbookDatabase(staged, from: file)
        let photos = PhotoFiles(folder: (dataFolder as NSString).appendingPathComponent("photos"))
        var restored = 0
        for sha in try AppDatabase.photoHashes(shownBy: staged) where !photos.exists(sha) {
            guard let bytes = try source.photo(sha), PhotoFileRules.sha256(bytes) == sha else { continue }
            try photos.write(bytes)
            restored += 1
        }
        let aside = try keepAside(databasePath, at: time)
        guard rename(staged, databasePath) == 0 else { throw BackupFailure.cannotWrite(String(cString: strerror(errno))) }
        return RestoreOutcome(keptAside: aside, photosRestored: restored)
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

    /// Renames the database (and a write-ahead log left beside it) to `…before-restore-YYYYMMDD-HHMMSSZ`.
    private static func keepAside(_ databasePath: String, at time: Date) throws -> String? {
        guard FileManager.default.fileExists(atPath: databasePath) else { return nil }
        let aside = databasePath + ".before-restore-" + BackupFolder.stamp(time)
        for suffix in ["-wal", "-shm", ""] where FileManager.default.fileExists(atPath: databasePath + suffix) {
            guard rename(databasePath + suffix, aside + suffix) == 0 else { throw BackupFailure.cannotWrite(String(cString: strerror(errno))) }
        }
        return aside
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

    /// Copies the database, made for its owner alone, to `path`.
    func copyDatabase(to path: String) throws {
        let output = try BackupOutput(creating: path)
        do {
            switch self {
            case .archive(let reader): try reader.read(BackupArchive.databaseMember) { try output.write($0) }
            case .database(let file, _): try AppDatabase.forEachPart(of: file) { try output.write($0) }
            }
        } catch let failure as ZipArchiveReader.Failure {
            throw BackupRefusal(description: "The backup's database is damaged in the archive (\(failure)); nothing was changed. Restore an older backup.")
        }
        try output.finish()
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
