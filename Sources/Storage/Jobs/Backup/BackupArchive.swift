import Archives
import Foundation
import GRDB

/// A backup is one ZIP file holding the database (`fieldbook.sqlite`) and every photo file that database shows
/// (`photos/<sha256>.jpg`, as in an export): any single file on a backup stick puts everything back, it appears in its
/// folder with one rename, retention removes whole files, and the download is the same file as the daily one. The
/// cost is that each backup carries its own copy of the photos, and an archive stops at 4 GiB and 65,535 files: a
/// larger backup is refused before it is written.
public enum BackupArchive {
    static let databaseMember = "fieldbook.sqlite"
    /// Files of the data folder a backup carries as they are, by their path in it: Fieldbook's certificate authority
    /// (LANCertificates' TLSFolder), so that a Fieldbook restored on a new machine is still trusted by the devices that
    /// trusted it. The server certificate is not carried: it is made again for the new machine's names.
    public static let dataFolderMembers = ["tls/authority.pem", authorityKeyMember]
    /// The authority's key, which can sign for the LAN names devices trust it for: a backup an administrator downloads
    /// in a browser leaves it out unless asked, as such a file ends up in download folders and mail.
    public static let authorityKeyMember = "tls/authority-key.pem"
}

/// Which of the data folder's own files a backup carries.
public enum BackupDataFiles: Sendable {
    /// Everything, as the backups serve takes and `fieldbook backup` do: a restore puts back the same authority.
    case all
    /// All but the authority's key: a restore keeps devices' trust only if the data folder still has the key.
    case withoutAuthorityKey

    var members: [String] {
        switch self {
        case .all: BackupArchive.dataFolderMembers
        case .withoutAuthorityKey: BackupArchive.dataFolderMembers.filter { $0 != BackupArchive.authorityKeyMember }
        }
    }
}

/// What a backup holds.
public struct BackupContents: Sendable, Equatable {
    public var databaseBytes = 0
    public var photoFiles = 0
    /// Photo files removed here between the database copy and their own (their photos were deleted meanwhile).
    public var photosGoneMeanwhile = 0
}

public enum BackupFailure: Error, CustomStringConvertible, Equatable {
    /// SQLite's integrity check found the copy damaged: the database itself is, or the disk the copy went to.
    case copyDamaged(String)
    case cannotWrite(String)
    /// The backup folder is missing or cannot be written to; the words say what to do.
    case folderUnusable(String)
    /// Fieldbook was stopping, so the backup was given up; the next start takes it again.
    case stopped
    /// The database and its photos are more than one backup file holds.
    case tooLarge(String)

    public var description: String {
        switch self {
        case .copyDamaged(let problem):
            "The copy failed SQLite's integrity check (\(problem)), so it was not kept. Run `fieldbook check` on the data folder, and try another backup folder."
        case .folderUnusable(let problem): problem
        case .stopped: "Fieldbook stopped before the backup was done; it is taken again once Fieldbook runs."
        case .cannotWrite(let reason): "The backup could not be written (\(reason)). Check that the backup folder's disk is there, writable and not full."
        case .tooLarge(let what):
            "No backup was taken: \(what), more than one backup file can hold (4 GiB and 65,535 files). Until backups can hold more, stop Fieldbook and copy its whole data folder to back it up."
        }
    }
}

extension AppDatabase {
    /// Writes a whole backup to `path`, a new file made for its owner alone: an online copy of the database (made at
    /// `scratch` and removed after), checked with SQLite's integrity check, then the archive. `path` is only usable
    /// once this returns: the caller renames it into place. `afterMember` runs after each member is written (tests
    /// stop a backup half way with it).
    public func writeBackupArchive(to path: String, scratch: String, carrying dataFiles: BackupDataFiles = .all,
                                   limits: ZipArchiveWriter.Limits = .zip, afterMember: () throws -> Void = {}) throws -> BackupContents {
        try backup(to: scratch)
        defer { unlink(scratch) }
        let problems = try DatabaseCheck.integrityProblems(path: scratch)
        if let first = problems.first { throw BackupFailure.copyDamaged(first) }
        let hashes = try Self.photoHashes(shownBy: scratch)
        try checkFits(database: scratch, photos: hashes, in: limits)
        do {
            return try writeArchive(to: path, database: scratch, photos: hashes, dataFiles: dataFiles, limits: limits, afterMember: afterMember)
        } catch let failure as ZipArchiveWriter.Failure {
            if case .tooLarge(let what) = failure { throw BackupFailure.tooLarge("it would hold \(what)") }
            throw BackupFailure.cannotWrite("\(failure)")
        }
    }

    /// Refuses, before anything is written, a backup whose files are more than an archive holds (compression is not
    /// counted on: photos do not compress).
    private func checkFits(database: String, photos hashes: [String], in limits: ZipArchiveWriter.Limits) throws {
        if hashes.count + 1 + BackupArchive.dataFolderMembers.count > limits.members { throw BackupFailure.tooLarge("there are \(hashes.count) photo files") }
        let bytes = ([database] + hashes.map(photoFiles.path)).reduce(UInt64(0)) { $0 + UInt64(BackupFolder.bytes(of: $1)) }
        if bytes > limits.bytes { throw BackupFailure.tooLarge("the database and its photo files are \(bytes) bytes") }
    }

    private func writeArchive(to path: String, database scratch: String, photos hashes: [String], dataFiles: BackupDataFiles,
                              limits: ZipArchiveWriter.Limits,
                              afterMember: () throws -> Void) throws -> BackupContents {
        let output = try BackupOutput.creating(path)
        var contents = BackupContents()
        var zip = ZipArchiveWriter(limits: limits)
        try output.write(zip.beginMember(BackupArchive.databaseMember))
        try Self.forEachPart(of: scratch) { part in
            contents.databaseBytes += part.count
            try output.write(zip.write(part))
        }
        try output.write(zip.endMember())
        try afterMember()
        for member in dataFiles.members {
            guard let bytes = FileManager.default.contents(atPath: folderBeside(member)) else { continue }
            try output.write(zip.beginMember(member))
            try output.write(zip.write(Array(bytes)))
            try output.write(zip.endMember())
        }
        for sha in hashes {
            guard let bytes = FileManager.default.contents(atPath: photoFiles.path(sha)) else { contents.photosGoneMeanwhile += 1; continue }
            try output.write(zip.beginMember(PhotoFiles.archiveMember(sha)))
            try output.write(zip.write(Array(bytes)))
            try output.write(zip.endMember())
            contents.photoFiles += 1
            try afterMember()
        }
        try output.write(zip.finish())
        try output.finish()
        return contents
    }

    /// The photo files (display size and thumbnail) the database at `path` shows.
    static func photoHashes(shownBy path: String) throws -> [String] {
        try DatabaseCheck.readingOnly(path) { db in
            try String.fetchAll(db, sql: "SELECT file_sha256 FROM photos UNION SELECT thumb_sha256 FROM photos")
        }
    }

    /// Hands `emit` the file's bytes a mebibyte at a time.
    static func forEachPart(of path: String, _ emit: ([UInt8]) throws -> Void) throws {
        guard let file = FileHandle(forReadingAtPath: path) else { throw BackupFailure.cannotWrite("\(path) cannot be read") }
        defer { try? file.close() }
        while let part = try file.read(upToCount: 1 << 20), !part.isEmpty { try emit(Array(part)) }
    }
}

/// Backups' files, failing as a backup that cannot be written.
enum BackupOutput {
    static func creating(_ path: String) throws -> NewFileOutput {
        try NewFileOutput(creating: path) { BackupFailure.cannotWrite($0) }
    }
}
