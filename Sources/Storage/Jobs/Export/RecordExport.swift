import Domain
import Foundation
import Records
import GRDB

/// Lists exported whole: the rows a list page shows (its filters and order, every page of it), written part by part
/// into `write`, which answers false when the reader has gone (the export stops there). One read transaction, so the
/// file is one moment's records however long the download takes. Each returns how many rows it wrote.
extension AppDatabase {
    public func exportParticipants(_ query: ParticipantQuery, seen: ParticipantVisibility, as format: ExportFormat,
                                   into write: ([UInt8]) -> Bool) throws -> Int {
        let (list, order) = Self.participantList(query)
        return try export(Participant.kind, list: list, order: order, hiding: seen.hiddenColumns(of: Participant.kind), as: format, into: write)
    }

    public func exportVenues(_ query: VenueQuery, as format: ExportFormat, into write: ([UInt8]) -> Bool) throws -> Int {
        let (list, order) = Self.venueList(query)
        return try export(Venue.kind, list: list, order: order, as: format, into: write)
    }

    public func exportActivities(_ query: ActivityQuery, as format: ExportFormat, into write: ([UInt8]) -> Bool) throws -> Int {
        let (list, order) = Self.activityList(query)
        return try export(Activity.kind, list: list, order: order, as: format, into: write)
    }

    private func export(_ kind: RecordKind, list: ListQuery, order: String, hiding hidden: Set<String> = [],
                        as format: ExportFormat, into write: ([UInt8]) -> Bool) throws -> Int {
        try read { db in
            try Self.writeRows(db, kind, list: list, order: order, hiding: hidden, as: format, into: write).rows
        }
    }

    /// The records of `scope` (of each kind `inFullExport`), one file per kind named after its table (`participants.json`
    /// or `.csv`), and a manifest saying what each file holds: one read transaction, so the files are one moment's
    /// records (in everything, every address period's participant is in participants.json; a scope leaves out records
    /// outside it that its records name). Stops when the archive says its reader has gone.
    public func exportArchive(_ scope: ExportScope, as format: ExportFormat, into archive: inout some ExportArchive) throws {
        try read { db in
            var files: [(file: String, entity: String, count: Int)] = []
            for kind in RecordKind.all where kind.inFullExport {
                guard let rows = scope.rows(of: kind) else { continue }
                let file = kind.table + "." + format.rawValue
                guard try archive.begin(file: file) else { return }
                var failure: (any Error)?
                let before = files.reduce(0) { $0 + $1.count }
                let (count, readerLeft) = try Self.writeRows(db, kind, list: rows, order: "t.id", as: format, rows: { archive.progress(records: before + $0) }) { part in
                    do { return try archive.write(part) } catch { failure = error; return false }
                }
                if let failure { throw failure }
                guard !readerLeft else { return }
                files.append((file, kind.entity, count))
                guard archive.progress(records: before + count) else { return }
            }
            guard let photoFiles = try writePhotoFiles(db, scope, into: &archive) else { return }
            guard try archive.begin(file: Self.manifestFile) else { return }
            _ = try archive.write(Self.manifest(files, photoFiles: photoFiles, scope: scope))
            try archive.finish()
        }
    }

    /// How many records an archive of `scope` holds, for its progress.
    public func archiveRecordCount(_ scope: ExportScope) throws -> Int {
        try read { db in
            try RecordKind.all.filter(\.inFullExport).reduce(0) { total, kind in total + (try scope.rows(of: kind)?.count(db) ?? 0) }
        }
    }

    /// The name an archive of `scope` is downloaded under, before its date: "fieldbook", or "fieldbook-" and the area's
    /// or activity's name.
    public func archiveName(_ scope: ExportScope) throws -> String {
        switch scope {
        case .everything: scope.name(nil)
        case .area(let id): scope.name(try area(id: id).name)
        case .activity(let id): scope.name(try activity(id: id).name)
        }
    }

    /// Names the export's files and what each holds, so an import can tell a Fieldbook export from any ZIP.
    public static let manifestFile = "fieldbook-export.json"

    /// The image files of the scope's photos (`photos/<sha256>.jpg`), each read a part at a time; answers how many, or nil
    /// when the reader has gone. A photo whose files have not reached this node yet is exported without them.
    private func writePhotoFiles(_ db: Database, _ scope: ExportScope, into archive: inout some ExportArchive) throws -> Int? {
        guard let photos = scope.rows(of: Photo.kind) else { return 0 }
        var hashes = Set<String>()
        let files = [\Photo.display.sha256, \Photo.thumbnail.sha256].map { "t." + Photo.declaration.column($0) }
        try photos.forEachRow(db, order: "t.id", select: files.joined(separator: ", ")) { row in
            hashes.insert(row[0])
            hashes.insert(row[1])
            return true
        }
        var written = 0
        for sha in hashes.sorted() {
            guard let handle = FileHandle(forReadingAtPath: photoFiles.path(sha)) else { continue }
            defer { try? handle.close() }
            guard try archive.begin(file: PhotoFiles.archiveMember(sha)) else { return nil }
            while let part = try handle.read(upToCount: 1 << 16), !part.isEmpty {
                guard try archive.write(Array(part)) else { return nil }
            }
            written += 1
        }
        return written
    }

    private static func manifest(_ files: [(file: String, entity: String, count: Int)], photoFiles: Int, scope: ExportScope) -> [UInt8] {
        var json = JSONBytes(capacity: 4096)
        json.raw("{\"exported_at\":")
        json.string(SyncDateFormat.string(from: Date()))
        switch scope {
        case .everything: break
        case .area(let id):
            json.raw(",\"area_id\":")
            json.string(id.lowercaseText)
        case .activity(let id):
            json.raw(",\"activity_id\":")
            json.string(id.lowercaseText)
        }
        json.raw(",\"files\":")
        json.array(files) { json, file in
            json.raw("{\"count\":")
            json.integer(Int64(file.count))
            json.raw(",\"entity\":")
            json.string(file.entity)
            json.raw(",\"file\":")
            json.string(file.file)
            json.raw("}")
        }
        json.raw(",\"format\":\"fieldbook-export\",\"photo_files\":")
        json.integer(Int64(photoFiles))
        json.raw(",\"version\":1}\n")
        return json.bytes
    }

    /// Writes the rows of `list` as `format`; answers how many and whether the reader left part way.
    private static func writeRows(_ db: Database, _ kind: RecordKind, list: ListQuery, order: String, hiding hidden: Set<String> = [],
                                  as format: ExportFormat, rows written: (Int) -> Bool = { _ in true },
                                  into write: ([UInt8]) -> Bool) throws -> (rows: Int, readerLeft: Bool) {
        var writer = RecordExportWriter(kind: kind, hiding: hidden, format: format)
        writer.begin()
        var readerLeft = false
        try list.forEachRow(db, order: order, select: writer.selectList(alias: list.alias)) { row in
            writer.append(row)
            guard writer.hasPart else { return true }
            readerLeft = !write(writer.take()) || !written(writer.rowCount)
            return !readerLeft
        }
        guard !readerLeft else { return (writer.rowCount, true) }
        writer.end()
        return (writer.rowCount, !write(writer.take()))
    }
}

/// Where "export everything" writes: one file after another, each part by part (a ZIP archive, as it downloads).
/// Each call answers false when the reader has gone: the export stops there.
public protocol ExportArchive {
    mutating func begin(file name: String) throws -> Bool
    mutating func write(_ bytes: [UInt8]) throws -> Bool
    /// Ends the last file and the archive.
    mutating func finish() throws
    /// How many records the archive holds so far; false stops the export (it was cancelled).
    mutating func progress(records: Int) -> Bool
}

extension ExportArchive {
    public mutating func progress(records: Int) -> Bool { true }
}
