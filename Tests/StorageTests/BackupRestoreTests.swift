import Domain
import Foundation
import GRDB
@testable import Storage
import Testing

/// What a restore copies from a database file, and what it refuses to replace without --force.
@Suite struct BackupRestoreTests {
    let helpers = BackupServiceTests()

    func database(_ given: TestDatabase) -> String { given.directory.appendingPathComponent("fieldbook.sqlite").path }

    func backup(holding name: String) throws -> (TestDatabase, BackupListing) {
        let given = try TestDatabase(linked: false)
        _ = try given.database.createParticipant(ParticipantInput(name: name, email: "\(name.lowercased())@example.org"), by: .system("test"))
        return (given, try #require(helpers.service(given, clock: .init(BackupServiceTests.start)).runOnce()))
    }

    @Test func aDatabaseFileIsCopiedWithWhatItsWriteAheadLogHolds() throws {
        let given = try TestDatabase(linked: false)
        _ = try given.database.createParticipant(ParticipantInput(name: "Ada", email: "ada@example.org"), by: .system("test"))
        #expect(FileManager.default.fileExists(atPath: database(given) + "-wal"), "the source is still open, its last writes in its log")
        let other = try TestDatabase(linked: false)
        try other.database.close()
        _ = try BackupRestore.restore(database(given), intoDatabase: database(other))
        #expect(try helpers.names(try AppDatabase(path: database(other), passwordCost: .test)) == ["Ada"])
    }

    /// Devices trust the backed-up machine's certificate authority, so a Fieldbook restored on a new machine must
    /// have the same one, key and certificate together; one the new machine made is moved aside whole, with the
    /// server certificate it signed.
    @Test func theCertificateAuthorityTravelsWithABackupAndIsPutBackAsAPair() throws {
        let given = try TestDatabase(linked: false)
        try writeAuthority(in: given, key: "KEY", certificate: "AUTHORITY")
        let backup = try #require(try helpers.service(given, clock: .init(BackupServiceTests.start)).runOnce())
        let fresh = try TestDatabase(linked: false)
        try fresh.database.close()
        _ = try BackupRestore.restore(backup.path, intoDatabase: database(fresh))
        let key = fresh.directory.appendingPathComponent("tls/authority-key.pem").path
        #expect(try String(contentsOfFile: key, encoding: .utf8) == "KEY")
        #expect(try String(contentsOfFile: fresh.directory.appendingPathComponent("tls/authority.pem").path, encoding: .utf8) == "AUTHORITY")
        #expect(try FileManager.default.attributesOfItem(atPath: key)[.posixPermissions] as? Int == 0o600)
        let own = try TestDatabase(linked: false)
        try writeAuthority(in: own, key: "OWN KEY", certificate: "OWN AUTHORITY")
        let tls = own.directory.appendingPathComponent("tls")
        try "SERVER".write(to: tls.appendingPathComponent("server.pem"), atomically: true, encoding: .utf8)
        try own.database.close()
        let outcome = try BackupRestore.restore(backup.path, intoDatabase: database(own))
        #expect(try String(contentsOfFile: tls.appendingPathComponent("authority-key.pem").path, encoding: .utf8) == "KEY")
        #expect(try String(contentsOfFile: tls.appendingPathComponent("authority.pem").path, encoding: .utf8) == "AUTHORITY")
        #expect(!FileManager.default.fileExists(atPath: tls.appendingPathComponent("server.pem").path), "signed by the authority replaced")
        #expect(outcome.authorityRestored)
        let aside = try #require(outcome.authorityKeptAside)
        #expect(try String(contentsOfFile: aside + "/authority-key.pem", encoding: .utf8) == "OWN KEY")
        #expect(try FileManager.default.attributesOfItem(atPath: tls.path)[.posixPermissions] as? Int == 0o700)
    }

    /// A backup downloaded without the authority's key cannot sign: the data folder's own authority stays.
    @Test func aBackupWithoutTheAuthorityKeyLeavesTheFoldersAuthority() throws {
        let given = try TestDatabase(linked: false)
        try writeAuthority(in: given, key: "KEY", certificate: "AUTHORITY")
        let withoutKey = given.directory.appendingPathComponent("without-key.zip").path
        try helpers.service(given, clock: .init(BackupServiceTests.start)).withFreshBackup(carrying: .withoutAuthorityKey) {
            try FileManager.default.copyItem(atPath: $0, toPath: withoutKey)
        }
        let own = try TestDatabase(linked: false)
        try writeAuthority(in: own, key: "OWN KEY", certificate: "OWN AUTHORITY")
        try own.database.close()
        let outcome = try BackupRestore.restore(withoutKey, intoDatabase: database(own))
        #expect(try String(contentsOfFile: own.directory.appendingPathComponent("tls/authority.pem").path, encoding: .utf8) == "OWN AUTHORITY")
        #expect(!outcome.authorityRestored && outcome.authorityKeptAside == nil)
    }

    private func writeAuthority(in given: TestDatabase, key: String, certificate: String) throws {
        let folder = given.directory.appendingPathComponent("tls")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try key.write(to: folder.appendingPathComponent("authority-key.pem"), atomically: true, encoding: .utf8)
        try certificate.write(to: folder.appendingPathComponent("authority.pem"), atomically: true, encoding: .utf8)
    }

    @Test func unsentChangesAndAHubLinkRefuseARestoreUnlessForcedAndForcedKeepsTheLinkNotTheCursor() throws {
        let (source, backup) = try backup(holding: "Ada")
        defer { withExtendedLifetime(source) {} }
        let current = try TestDatabase(linked: true)
        _ = try current.database.createParticipant(ParticipantInput(name: "Unsent", email: "unsent@example.org"), by: .system("test"))
        try current.database.pool.write { try AppDatabase.putSettings($0, ["sync.cursor": "42"]) }
        let link = try current.database.hubLink()
        try current.database.close()
        let before = try helpers.files(current.directory.path)
        #expect {
            try BackupRestore.restore(backup.path, intoDatabase: database(current))
        } throws: { error in
            let words = "\(error)"
            return error is BackupRefusal && words.contains("1 changes made here have not been sent to the hub yet: the restore loses them.")
                && words.contains("linked to the hub") && words.contains("give --force")
        }
        #expect(try helpers.files(current.directory.path) == before)

        _ = try BackupRestore.restore(backup.path, intoDatabase: database(current), force: true)
        let restored = try AppDatabase(path: database(current), passwordCost: .test)
        #expect(try helpers.names(restored) == ["Ada"])
        #expect(try restored.hubLink() == link)
        #expect(try restored.pullCursor() == 0)
    }

    @Test func aHubWithLinkedNodesRefusesARestoreUnlessForced() throws {
        let (source, backup) = try backup(holding: "Ada")
        defer { withExtendedLifetime(source) {} }
        let hub = try TestDatabase(linked: false)
        let admin = try hub.database.createUser(.forTests("admin@example.org", .administrator), by: .system("test"))
        _ = try hub.database.issueNodeCredential(for: admin, nodeName: "Kibera laptop")
        try hub.database.close()
        #expect {
            try BackupRestore.restore(backup.path, intoDatabase: database(hub))
        } throws: { error in
            "\(error)".contains("the hub of 1 linked nodes: its change log would go back") && "\(error)".contains("give --force")
        }
        _ = try BackupRestore.restore(backup.path, intoDatabase: database(hub), force: true)
        #expect(try helpers.names(try AppDatabase(path: database(hub), passwordCost: .test)) == ["Ada"])
    }
}
