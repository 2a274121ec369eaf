import Domain
import Foundation
import Hub

/// A SQLite hub: the hub side of sync served from this node's own database.
extension AppDatabase: SyncHub {
    public func keepPhotoFileFromNode(_ bytes: [UInt8], sha256: String) throws {
        try keepReceivedPhotoFile(bytes, sha256: sha256, onHub: false)
    }

    public func heldPhotoFile(_ sha256: String) throws -> HeldPhotoFile? {
        photoFiles.exists(sha256) ? .path(photoFiles.path(sha256)) : nil
    }

    public func observeChanges(_ onChange: @escaping @Sendable () -> Void) {
        changeFeed.subscribe { _ in onChange() }
    }
}
