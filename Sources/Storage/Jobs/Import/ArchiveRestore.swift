import Domain
import Foundation
import Hub
import Records
import GRDB

/// The files of an uploaded archive, each read a part at a time (a ZIP file, read by the HTTP server's reader).
public protocol ArchiveFiles {
    var fileNames: [String] { get }
    func read(_ name: String, _ emit: ([UInt8]) throws -> Void) throws
}

extension ArchiveFiles {
    /// A member's bytes, refused with `message` once they pass `limit` (so a huge member is never read into memory).
    func readWhole(_ name: String, atMost limit: Int, else message: String) throws -> [UInt8] {
        var bytes: [UInt8] = []
        try read(name) { part in
            bytes += part
            guard bytes.count <= limit else { throw ImportRefusal(message: message) }
        }
        return bytes
    }
}

/// One file of a Fieldbook archive: which kind of record it holds and how many.
public struct ArchiveEntry: Sendable, Codable, Equatable {
    public let file: String
    public let entity: String
    public let count: Int

    /// The kind in words ("participants").
    public var label: String { RecordKind.named(entity)?.label.many ?? entity }
}

/// The manifest an export writes beside its files (`fieldbook-export.json`).
private struct ArchiveManifest: Decodable {
    let format: String
    let version: Int
    let files: [ArchiveEntry]
}

extension AppDatabase {
    /// Where uploaded archives wait to be restored: beside the database, so they survive a restart.
    var archivesDirectory: String { folderBeside("imports") }

    /// Takes an uploaded Fieldbook archive (the Export page's "everything", or an area's or activity's, as JSON) into a
    /// restore waiting for review: the file is moved beside the database and its manifest read and checked.
    public func createArchiveImport(fromFile upload: String, named fileName: String, by user: UUID,
                                    open: (String) throws -> ArchiveFiles) throws -> ImportJob {
        let id = UUID()
        try FileManager.default.createDirectory(atPath: archivesDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let kept = (archivesDirectory as NSString).appendingPathComponent(id.lowercaseText + ".zip")
        try FileManager.default.moveItem(atPath: upload, toPath: kept)
        do {
            let entries = try Self.archiveEntries(try open(kept))
            return try writeLocal { db in
                try db.execute(sql: """
                    INSERT INTO import_jobs (id, kind, file_name, created_by, created_at, headers, mapping, separator, row_count, state,
                                             archive_path, archive_files)
                    VALUES (?, 'archive', ?, ?, ?, '[]', '[]', 'commas', ?, 'preview', ?, ?)
                    """, arguments: [id.databaseText, String(fileName.prefix(200)), user.databaseText, Date().storedText,
                                     entries.reduce(0) { $0 + $1.count }, kept,
                                     String(decoding: try JSONEncoder().encode(entries), as: UTF8.self)])
                return try Self.importJob(db, id)
            }
        } catch {
            try? FileManager.default.removeItem(atPath: kept)
            throw error
        }
    }

    /// The archive's files in the order their records are written (parents first), checked against the manifest.
    private static func archiveEntries(_ files: ArchiveFiles) throws -> [ArchiveEntry] {
        guard files.fileNames.contains(manifestFile) else {
            throw ImportRefusal(message: "This ZIP file is not a Fieldbook export: it has no \(manifestFile). Choose a file downloaded from the Export page.")
        }
        // A manifest lists a dozen files; one this large is not Fieldbook's, and is not read into memory.
        let bytes = try files.readWhole(manifestFile, atMost: JSONObjectSplitter.maxRecordBytes,
                                        else: "The export's \(manifestFile) is far larger than Fieldbook writes it. Choose a file downloaded from the Export page.")
        guard let manifest = try? JSONDecoder().decode(ArchiveManifest.self, from: Data(bytes)), manifest.format == "fieldbook-export" else {
            throw ImportRefusal(message: "The export's \(manifestFile) cannot be read. Download the export again.")
        }
        guard manifest.version == 1 else {
            throw ImportRefusal(message: "This export was written by a newer Fieldbook (format \(manifest.version)). Update this Fieldbook, then restore it.")
        }
        guard manifest.files.allSatisfy({ $0.file.hasSuffix(".json") }) else {
            throw ImportRefusal(message: "This export holds CSV files, which are for spreadsheets. Download everything as JSON (the Export page's main button) to restore it, or import each CSV file as a list.")
        }
        for entry in manifest.files where !files.fileNames.contains(entry.file) {
            throw ImportRefusal(message: "The export names \(entry.file), which is missing from the ZIP file. Download the export again.")
        }
        for entry in manifest.files where RecordKind.named(entry.entity).map(\.isRestorable) != true {
            throw ImportRefusal(message: "The export's \(entry.file) holds records an export never holds (\(entry.entity)). Choose a file downloaded from the Export page.")
        }
        let order = Dictionary(uniqueKeysWithValues: RecordKind.all.enumerated().map { ($1.entity, $0) })
        return manifest.files.sorted { order[$0.entity, default: 0] < order[$1.entity, default: 0] }
    }

    /// Restores an archive's records in one transaction through the row writer, each checked as its form would check
    /// it and recorded as created here (a linked node pushes them). Records already here (the same id: predefined
    /// categories, or a restore run twice) are left as they are. Visit lists assigned to someone without an account
    /// here (accounts are never exported) are given to the person restoring, and the note says so.
    func writeArchive(_ job: ImportJob, _ files: ArchiveFiles, by actor: Actor, progress: @escaping (Int) -> Void,
                      isCancelled: @escaping () -> Bool) throws -> (ImportOutcome, note: String?) {
        var pace = ImportPace(progress: progress, isCancelled: isCancelled)
        return try transaction(by: actor) { transaction in
            // A file's records come in id order, so an area may come before its parent: references are checked when the
            // transaction commits (SQLite turns this off again at its end).
            try transaction.db.execute(sql: "PRAGMA defer_foreign_keys = ON")
            var outcome = ImportOutcome(), reassigned = 0, deletedHere = 0
            for entry in job.archive ?? [] {
                guard let kind = RecordKind.named(entry.entity), kind.isRestorable else {
                    throw ImportRefusal(message: "The export's \(entry.file) holds records an export never holds. Nothing was restored.")
                }
                var record = 0
                try read(entry, from: files) { object in
                    record += 1
                    try pace.next()
                    do {
                        switch try transaction.restore(object, of: kind, assigningTo: job.createdBy) {
                        case .kept: outcome.skipped += 1
                        case .deletedHere:
                            outcome.skipped += 1
                            deletedHere += 1
                        case .created: outcome.created += 1
                        case .createdReassigned:
                            outcome.created += 1
                            reassigned += 1
                        }
                    } catch let errors as ValidationError {
                        throw ImportRefusal(message: "\(entry.file), record \(record): \(errors.fieldErrors.map(\.message).joined(separator: "; ")). Nothing was restored.")
                    } catch let error as DatabaseError {
                        throw ImportRefusal(message: "\(entry.file), record \(record) could not be written (\(error.message ?? "a database constraint")). Nothing was restored.")
                    }
                }
            }
            try pace.finish()
            try Self.ensureReferencesResolve(transaction.db)
            let photosWithoutFiles = try restorePhotoFiles(transaction.db, from: files)
            var notes: [String] = []
            if photosWithoutFiles > 0 {
                notes.append("\(photosWithoutFiles == 1 ? "1 photo file was" : "\(photosWithoutFiles) photo files were") not in the export (the photos had not reached the Fieldbook that made it); those photos show a placeholder until a sync brings them.")
            }
            if reassigned > 0 {
                notes.append("\(reassigned == 1 ? "1 visit list was" : "\(reassigned) visit lists were") assigned to you: the people they were assigned to have no account here. Reassign them on their pages.")
            }
            if deletedHere > 0 {
                notes.append("\(deletedHere == 1 ? "1 record was" : "\(deletedHere) records were") deleted here after the export was made, so \(deletedHere == 1 ? "it was" : "they were") not restored.")
            }
            return (outcome, notes.isEmpty ? nil : notes.joined(separator: " "))
        }
    }

    /// References are checked at commit; a record naming one that is neither in the export nor here (an area's export
    /// restored without its parent area) is told by name before the commit would fail with no name.
    private static func ensureReferencesResolve(_ db: Database) throws {
        guard let problem = try Row.fetchOne(db, sql: "PRAGMA foreign_key_check") else { return }
        let table: String = problem["table"], parent: String = problem["parent"]
        func named(_ table: String) -> String {
            let noun = RecordKind.all.first { $0.table == table }?.label.one ?? table
            return ("aeiou".contains(noun.prefix(1)) ? "an " : "a ") + noun
        }
        let what = named(table)
        throw ImportRefusal(message: "\(what.prefix(1).uppercased() + what.dropFirst()) in the export refers to \(named(parent)) that is neither in the export nor here. An area's or an activity's export restores only into a Fieldbook that has what it refers to; restore the export of everything instead. Nothing was restored.")
    }

    /// Writes the archive's image files of the photos here that lack them, each verified by its hash; answers how many
    /// the archive did not hold. The files are written before the commit, so a committed photo finds its file (an
    /// import rolled back leaves files no photo shows, which are harmless: they are named by their content).
    private func restorePhotoFiles(_ db: Database, from files: ArchiveFiles) throws -> Int {
        let members = Set(files.fileNames)
        var absent = 0
        for sha in try Self.photoFilesMissing(db) {
            let member = PhotoFiles.archiveMember(sha)
            guard members.contains(member) else { absent += 1; continue }
            let bytes = try files.readWhole(member, atMost: PhotoLimits.uploadBytes,
                                            else: "The export's \(member) is larger than any photo Fieldbook keeps. Download the export again. Nothing was restored.")
            do {
                try PhotoFileRules.checkReceived(bytes, sha256: sha)
            } catch PhotoFileError.cannotCheck(let reason) {
                throw ImportRefusal(message: "The export's photos cannot be checked on this machine (\(reason)). Install libvips, then restore it again. Nothing was restored.")
            } catch {
                throw ImportRefusal(message: "The export's \(member) is not a photo as Fieldbook keeps them (\(error)). Download the export again. Nothing was restored.")
            }
            try PhotoFiles.lock.withLock {
                try photoFiles.write(bytes)
                try PhotoFiles.list(db, sha, bytes: bytes.count, width: nil, height: nil, onHub: false, received: true)
            }
        }
        return absent
    }

    /// Hands `emit` each record of an archive file, checking the file ends where a record ends.
    private func read(_ entry: ArchiveEntry, from files: ArchiveFiles, _ emit: ([UInt8]) throws -> Void) throws {
        var objects = JSONObjectSplitter()
        try files.read(entry.file) { part in try objects.read(part, emit) }
        guard objects.isComplete else { throw ImportRefusal(message: "\(entry.file) ends in the middle of a record. Download the export again.") }
    }
}

enum RestoredRecord { case kept, deletedHere, created, createdReassigned }

extension RecordKind {
    /// Whether an export may bring records of this kind: what "everything" holds, never accounts (an editor restoring
    /// must not make administrators) nor one person's notifications.
    var isRestorable: Bool { inFullExport && ownerColumn == nil && requiredRole != .administrator }
}

extension RecordTransaction {
    /// One exported record written as a new record here, unless its id is already here.
    func restore(_ object: [UInt8], of kind: RecordKind, assigningTo user: UUID) throws -> RestoredRecord {
        guard let values = try? JSONDecoder().decode([String: JSONValue].self, from: Data(object)),
              case .string(let text) = values["id"], let id = UUID(uuidString: text) else {
            throw ValidationError([FieldError(field: "id", message: "A record without a readable id")])
        }
        if try exists(id, in: kind.table) { return .kept }
        // Deleted here since the export: the hub holds its deletion, which a new record with the same id would fight.
        if try RecordStates.wasEverWritten(db, kind, id: id) { return .deletedHere }
        var fields: [String: JSONValue] = [:]
        for column in kind.columns + kind.metaColumns {
            let value = values[column] ?? .null
            if kind.instantColumns.contains(column), case .string(let iso) = value { fields[column] = .string(StoredTimestamp.fromISO(iso)) } else { fields[column] = value }
        }
        var result = RestoredRecord.created
        if kind.entity == "visit_list", let assignee = UUID(uuidString: fields.text("assigned_user_id")), try !exists(assignee, in: "users") {
            fields["assigned_user_id"] = .string(user.databaseText)
            result = .createdReassigned
        }
        try kind.check(db, id, fields)
        try RecordStates.write(db, kind, RecordState(entity: kind.entity, entityId: id, deleted: false, version: 1, fields: fields))
        try changes.recordCreate(kind.entity, id: id, fields: changes.queuesForHub ? fields.filter { kind.columns.contains($0.key) } : [:])
        return result
    }
}

/// Export timestamps back to the stored form: `2026-11-24T09:30:00.123Z` is `2026-11-24 09:30:00.123`.
enum StoredTimestamp {
    static func fromISO(_ text: String) -> String {
        let utf8 = text.utf8
        guard utf8.count == 24, text.hasSuffix("Z"), utf8[utf8.index(utf8.startIndex, offsetBy: 10)] == UInt8(ascii: "T") else { return text }
        return text.prefix(10) + " " + text.dropFirst(11).dropLast()
    }
}

/// Cuts a JSON array of flat objects (an export's file) into its objects as their bytes arrive, so a file of any size
/// is read one record at a time.
struct JSONObjectSplitter {
    /// Larger than any record Fieldbook exports (notes are at most a few thousand characters).
    static let maxRecordBytes = 1 << 20

    private var current: [UInt8] = []
    private var depth = 0
    private var inString = false
    private var escaped = false

    /// True when no object was left open.
    var isComplete: Bool { depth == 0 }

    mutating func read(_ bytes: [UInt8], _ emit: ([UInt8]) throws -> Void) throws {
        for byte in bytes {
            if depth > 0 {
                current.append(byte)
                guard current.count <= Self.maxRecordBytes else {
                    throw ImportRefusal(message: "A record in the export is larger than Fieldbook writes one. Download the export again.")
                }
            }
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
            } else if byte == UInt8(ascii: "\"") {
                inString = depth > 0
            } else if byte == UInt8(ascii: "{") {
                if depth == 0 { current = [byte] }
                depth += 1
            } else if byte == UInt8(ascii: "}"), depth > 0 {
                depth -= 1
                if depth == 0 { try emit(current) }
            }
        }
    }
}
