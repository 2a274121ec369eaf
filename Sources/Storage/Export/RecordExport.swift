import Domain
import GRDB

/// Lists exported whole: the rows a list page shows (its filters and order, every page of it), written part by part
/// into `write`, which answers false when the reader has gone (the export stops there). One read transaction, so the
/// file is one moment's records however long the download takes. Each returns how many rows it wrote.
extension AppDatabase {
    public func exportParticipants(_ query: ParticipantQuery, seen: ParticipantVisibility, as format: ExportFormat,
                                   into write: ([UInt8]) -> Bool) throws -> Int {
        let (list, order) = Self.participantList(query)
        return try export(Participant.kind, list: list, order: order, hiding: seen.hiddenColumns, as: format, into: write)
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
        var writer = RecordExportWriter(kind: kind, hiding: hidden, format: format)
        return try read { db in
            // Read through SQLite's bounded page cache rather than the memory map: an export touches every page of the
            // table once, and mapped pages count as the server's resident memory (100,000 participants: about 110 MB).
            try db.execute(sql: "PRAGMA mmap_size = 0")
            defer { try? db.execute(sql: "PRAGMA mmap_size = \(Self.mappedBytes)") }
            writer.begin()
            var readerLeft = false
            try list.forEachRow(db, order: order, select: writer.selectList(alias: list.alias)) { row in
                writer.append(row)
                guard writer.hasPart else { return true }
                readerLeft = !write(writer.take())
                return !readerLeft
            }
            guard !readerLeft else { return writer.rowCount }
            writer.end()
            _ = write(writer.take())
            return writer.rowCount
        }
    }
}

extension ParticipantVisibility {
    /// The participant columns a reader with this visibility may not see: left out of what they export.
    public var hiddenColumns: Set<String> {
        var hidden: Set<String> = []
        if !contacts { hidden.formUnion(["email", "phone"]) }
        if !notes { hidden.insert("notes") }
        if !homes { hidden.insert("home_venue_id") }
        return hidden
    }
}
