import Crypto
import Domain
import Foundation
import Imaging

/// Photo files as every Fieldbook keeps them, whichever store holds them: named by the SHA-256 of their bytes, and a
/// JPEG without metadata.
public enum PhotoFileRules {
    /// The photo columns that name a file by its hash.
    public static let fileColumns = ["file_sha256", "thumb_sha256"]
    /// Deleting a record of these kinds may free files: a photo, or a record whose deletion cascades to its photos.
    public static let deletesThatMayFreeFiles: Set<String> = ["photo", "participant", "venue", "activity"]

    public static func sha256(_ bytes: [UInt8]) -> String {
        SHA256.hash(data: bytes).lowercaseHex
    }

    /// Refuses bytes received as a photo file (sync, a restore) unless they have the hash they were sent as and are a
    /// photo as Fieldbook keeps them.
    public static func checkReceived(_ bytes: [UInt8], sha256: String) throws {
        let actual = Self.sha256(bytes)
        guard actual == sha256 else { throw PhotoFileError.hashMismatch(expected: sha256, actual: actual) }
        // Not judged is not refused: a node would otherwise count the file as refused and never send it again.
        if let reason = PhotoProcessor.unavailableReason { throw PhotoFileError.cannotCheck(reason) }
        guard PhotoProcessor.isKeptPhoto(bytes) else { throw PhotoFileError.notAKeptPhoto }
    }
}
