import Foundation
@testable import Storage
import Testing

/// The file `fieldbook backup` copies everyone's records into.
@Suite struct BackupCopyTests {
    /// Issue 36, item 11: the copy was made with the default mode (644 under the usual umask) and closed to others only
    /// once it was complete, so for the whole copy other users could read it.
    @Test func theCopyIsForItsOwnerAloneFromTheMomentItIsCreated() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fieldbook-backup-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("copy.sqlite.partial").path
        let copy = try AppDatabase.newOwnerOnlyDatabase(at: path)
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        try copy.close()
        #expect(mode == 0o600, "mode \(String(mode ?? 0, radix: 8))")
    }

    /// Issue 36, item 6: `fieldbook backup` of a folder no server had open left an empty -wal and a -shm file in it.
    /// Its copy reads with one of the pool's read-only connections, and GRDB closes the writer before the readers: the
    /// last connection to close removes those files, but a read-only one cannot.
    @Test func aBackupLeavesNoWALFilesBesideTheDatabaseOnceItIsClosed() throws {
        let given = try TestDatabase(linked: false)
        try given.database.backup(to: given.directory.appendingPathComponent("copy.sqlite").path)
        try given.database.close()
        let beside = try FileManager.default.contentsOfDirectory(atPath: given.directory.path).sorted()
        #expect(beside == ["copy.sqlite", "fieldbook.sqlite"])
    }
}
