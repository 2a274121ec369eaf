import Domain
import Foundation
import Hub

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
        try PhotoFileRules.checkReceived(bytes, sha256: sha256)
        // Under the change log's lock: a push writing the photo that shows this file either committed before (and the
        // file is shown at once) or comes after (and marks it shown); never both unseen.
        try pool.transaction { connection in
            try connection.execute("SELECT pg_advisory_xact_lock($1)", [Self.changeLogLock])
            try connection.execute("""
                INSERT INTO photo_files (sha256, bytes, shown) VALUES ($1, decode($2, 'base64'), \(Self.aPhotoShows("$1")))
                ON CONFLICT (sha256) DO NOTHING
                """, [sha256, Data(bytes).base64EncodedString()])
        }
    }

    /// Keeps the files in step with the photos a push wrote or deleted, in the push's transaction: the photos' files
    /// are shown from now on, and a deletion (of a photo, or of a record whose deletion cascades to its photos) removes
    /// the files no photo shows any more. The SQLite hub does the same with triggers and `PhotoFileSweeper`.
    static func followPhotos(_ connection: PostgresConnection, written operations: [SyncOperation]) throws {
        let shown = operations.filter { $0.entity == "photo" && $0.operation != .delete }
            .flatMap { operation in PhotoFileRules.fileColumns.map { operation.fields.text($0) } }.filter { !$0.isEmpty }
        if !shown.isEmpty {
            try connection.execute("UPDATE photo_files SET shown = true WHERE sha256 = ANY($1::text[]) AND NOT shown",
                                   [PostgresArray.literal(shown)])
        }
        if operations.contains(where: { $0.operation == .delete && PhotoFileRules.deletesThatMayFreeFiles.contains($0.entity) }) {
            try connection.execute("DELETE FROM photo_files WHERE shown AND NOT \(aPhotoShows("sha256"))")
        }
    }

    /// SQL: whether a live photo shows the file whose hash is `hash` (a column or a parameter).
    private static func aPhotoShows(_ hash: String) -> String {
        let tests = PhotoFileRules.fileColumns.map { column in
            "EXISTS (SELECT 1 FROM records WHERE entity = 'photo' AND NOT deleted AND fields->>'\(column)' = \(hash))"
        }
        return "(" + tests.joined(separator: " OR ") + ")"
    }

    public func heldPhotoFile(_ sha256: String) throws -> HeldPhotoFile? {
        // As text, base64 (PostgreSQL breaks its lines, which the decoding skips).
        let rows = try pool.withConnection { try $0.execute("SELECT encode(bytes, 'base64') AS base64 FROM photo_files WHERE sha256 = $1", [sha256]) }
        guard let text = rows.text(0, "base64"), let bytes = Data(base64Encoded: text, options: .ignoreUnknownCharacters) else { return nil }
        return .bytes(Array(bytes))
    }
}
