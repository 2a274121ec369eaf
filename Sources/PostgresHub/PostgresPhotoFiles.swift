import Domain
import Foundation
import Storage

/// Photo contents on a PostgreSQL hub: checked as on every Fieldbook (their hash, and a photo as Fieldbook keeps them),
/// then kept in the database, where every hub process finds them.
extension PostgresHub {
    public func photoFilesHeld(among hashes: [String]) throws -> Set<String> {
        guard !hashes.isEmpty else { return [] }
        return try pool.withConnection { connection in
            Set(try connection.execute("SELECT sha256 FROM photo_files WHERE sha256 = ANY($1::text[])", [PostgresArray.literal(hashes)])
                .values.compactMap { $0[0] })
        }
    }

    public func keepPhotoFileFromNode(_ bytes: [UInt8], sha256: String) throws {
        try PhotoFiles.checkReceived(bytes, sha256: sha256)
        // Under the change log's lock: a push writing the photo that shows this file either committed before (and the
        // file is shown at once) or comes after (and marks it shown); never both unseen.
        try pool.transaction { connection in
            try connection.execute("SELECT pg_advisory_xact_lock($1)", [Self.changeLogLock])
            try connection.execute("""
                INSERT INTO photo_files (sha256, bytes, shown) VALUES ($1, decode($2, 'hex'), \(Self.aPhotoShows("$1")))
                ON CONFLICT (sha256) DO NOTHING
                """, [sha256, Self.hex(bytes)])
        }
    }

    /// Keeps the files in step with the photos a push wrote or deleted, in the push's transaction: the photos' files
    /// are shown from now on, and a deletion (of a photo, or of a record whose deletion cascades to its photos) removes
    /// the files no photo shows any more. The SQLite hub does the same with triggers and `PhotoFileSweeper`.
    static func followPhotos(_ connection: PostgresConnection, written operations: [SyncOperation]) throws {
        let shown = operations.filter { $0.entity == "photo" && $0.operation != .delete }
            .flatMap { operation in PhotoFileSweeper.fileColumns.map { operation.fields.text($0) } }.filter { !$0.isEmpty }
        if !shown.isEmpty {
            try connection.execute("UPDATE photo_files SET shown = true WHERE sha256 = ANY($1::text[]) AND NOT shown",
                                   [PostgresArray.literal(shown)])
        }
        if operations.contains(where: { $0.operation == .delete && PhotoFileSweeper.deletesThatMayFreeFiles.contains($0.entity) }) {
            try connection.execute("DELETE FROM photo_files WHERE shown AND NOT \(aPhotoShows("sha256"))")
        }
    }

    /// SQL: whether a live photo shows the file whose hash is `hash` (a column or a parameter).
    private static func aPhotoShows(_ hash: String) -> String {
        let tests = PhotoFileSweeper.fileColumns.map { column in
            "EXISTS (SELECT 1 FROM records WHERE entity = 'photo' AND NOT deleted AND fields->>'\(column)' = \(hash))"
        }
        return "(" + tests.joined(separator: " OR ") + ")"
    }

    public func heldPhotoFile(_ sha256: String) throws -> HeldPhotoFile? {
        let rows = try pool.withConnection { try $0.execute("SELECT encode(bytes, 'hex') AS hex FROM photo_files WHERE sha256 = $1", [sha256]) }
        guard rows.count == 1 else { return nil }
        return rows.text(0, "hex").flatMap(Self.bytes).map(HeldPhotoFile.bytes)
    }

    private static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    private static func bytes(_ hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return nil }
        func value(_ digit: UInt8) -> UInt8? {
            switch digit {
            case 48...57: digit - 48
            case 97...102: digit - 87
            default: nil
            }
        }
        var bytes = [UInt8]()
        bytes.reserveCapacity(digits.count / 2)
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let high = value(digits[index]), let low = value(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes
    }
}
