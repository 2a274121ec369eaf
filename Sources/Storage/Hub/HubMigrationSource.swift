import Domain
import Foundation
import GRDB
import Hub

/// What `fieldbook hub-migrate` reads from a SQLite hub besides its change log (`changes(after:limit:)`): the
/// operations it applied, the tokens its nodes sign in with, and the photo files it holds. Read a page at a time, so
/// memory stays flat whatever the hub's size.
extension AppDatabase {
    /// Applied operations after `rowid`, in the order they were applied, with the rowid to continue from.
    public func appliedOperations(afterRow rowid: Int64, limit: Int) throws -> (operations: [AppliedOperation], next: Int64) {
        try read { db in
            let rows = try Row.fetchAll(db, sql: "SELECT rowid, operation_id, result FROM applied_operations WHERE rowid > ? ORDER BY rowid LIMIT ?",
                                        arguments: [rowid, limit])
            return (rows.map { AppliedOperation(operationId: $0["operation_id"], result: $0["result"]) }, rows.last?["rowid"] ?? rowid)
        }
    }

    /// Every live token, in the order they were issued (a refresh's retry rule compares the newest two of a sign-in).
    public func apiTokensForHubMigration(now: Date = Date()) throws -> [StoredAPIToken] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM api_tokens WHERE expires_at > ? ORDER BY rowid", arguments: [now.storedText]).map { row in
                StoredAPIToken(tokenHash: row["token_hash"], kind: row["kind"], userId: row["user_id"], familyId: row["family_id"],
                               createdAt: row["created_at"], expiresAt: row["expires_at"], revoked: row["revoked"], lost: row["lost"])
            }
        }
    }

    /// The hashes of the photo files this hub holds on its disk.
    public func heldPhotoFileHashes() throws -> [String] {
        try read { db in try String.fetchAll(db, sql: "SELECT sha256 FROM photo_files ORDER BY sha256") }.filter(photoFiles.exists)
    }
}
