import App
import Foundation
import Testing

/// The one-shot commands' tasks on a data folder: what they print, and what they refuse as InvalidInput.
@Suite struct DataFolderTests {
    let password = "a long password 1"

    func temporaryConfiguration() throws -> (AppConfiguration, URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fieldbook-app-\(UUID().uuidString)")
        let configuration = try AppConfiguration([GivenSetting(.data, folder.appendingPathComponent("data").path)],
                                                 environment: ["FIELDBOOK_PASSWORD_COST": "test"])
        return (configuration, folder)
    }

    @Test func createsUsersNamedAfterTheirEmailAndRefusesADuplicate() throws {
        let (configuration, folder) = try temporaryConfiguration()
        defer { try? FileManager.default.removeItem(at: folder) }
        let line = try DataFolder.open(configuration, .existingDatabaseOrNewFolder) {
            try $0.createUser(email: "Rita@Example.org", role: "read-only", name: nil, password: password)
        }
        #expect(line.wholeMatch(of: /Created read-only rita@example\.org \([0-9a-f-]{36}\)\./) != nil, "\(line)")
        let permissions = try FileManager.default.attributesOfItem(atPath: configuration.dataDirectory)[.posixPermissions] as? Int
        #expect(permissions == 0o700)
        let duplicate = refusal {
            try DataFolder.open(configuration, .existingDatabaseOrNewFolder) { try $0.createUser(email: "rita@example.org", role: "editor", name: "R", password: password) }
        }
        #expect(duplicate == "email: A user with the email rita@example.org already exists; use another address")
    }

    /// Issue 36, item 6: a data folder at a mount point holds lost+found, and one a desktop showed holds .DS_Store.
    @Test func aFolderHoldingOnlyLostAndFoundAndDotFilesCountsAsEmpty() throws {
        let (configuration, folder) = try temporaryConfiguration()
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = URL(fileURLWithPath: configuration.dataDirectory)
        try FileManager.default.createDirectory(at: data.appendingPathComponent("lost+found"), withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: data.appendingPathComponent(".DS_Store").path, contents: Data([0]))
        FileManager.default.createFile(atPath: data.appendingPathComponent("notes.txt").path, contents: Data([0]))
        let withNotes = refusal {
            try DataFolder.open(configuration, .existingDatabaseOrNewFolder) { try $0.createUser(email: "ann@example.org", role: "editor", name: "Ann", password: password) }
        }
        #expect(withNotes?.contains("holds no Fieldbook database") == true, "\(withNotes ?? "created")")
        try FileManager.default.removeItem(at: data.appendingPathComponent("notes.txt"))
        let line = try DataFolder.open(configuration, .existingDatabaseOrNewFolder) {
            try $0.createUser(email: "ann@example.org", role: "editor", name: "Ann", password: password)
        }
        #expect(line.hasPrefix("Created editor ann@example.org"), "\(line)")
    }

    @Test func listsEveryFieldARefusedUserGetsWrong() throws {
        let (configuration, folder) = try temporaryConfiguration()
        defer { try? FileManager.default.removeItem(at: folder) }
        let refused = refusal { try DataFolder.open(configuration, .existingDatabaseOrNewFolder) { try $0.createUser(email: "x", role: "boss", name: nil, password: "short") } }
        let lines = try #require(refused).split(separator: "\n")
        #expect(lines.map { $0.prefix { $0 != ":" } } == ["email", "role", "password"], "\(lines)")
    }

    @Test func backsUpACopyThatOpensWithTheSameRecords() throws {
        let (configuration, folder) = try temporaryConfiguration()
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try DataFolder.open(configuration, .existingDatabaseOrNewFolder) { try $0.createUser(email: "ann@example.org", role: "editor", name: "Ann", password: password) }
        let copy = folder.appendingPathComponent("copy/fieldbook.sqlite")
        try FileManager.default.createDirectory(at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
        let line = try DataFolder.open(configuration, .existingDatabase) { try $0.backup(to: copy.path) }
        #expect(line == "Backed up \(configuration.databasePath) to \(copy.path).")
        let restored = try AppConfiguration([GivenSetting(.data, copy.deletingLastPathComponent().path)],
                                            environment: ["FIELDBOOK_PASSWORD_COST": "test"])
        let again = refusal {
            try DataFolder.open(restored, .existingDatabaseOrNewFolder) { try $0.createUser(email: "ann@example.org", role: "editor", name: "Ann", password: password) }
        }
        #expect(again?.contains("already exists") == true, "\(again ?? "created")")
    }

    @Test func importsTheDemoCommunityOnlyIntoAnEmptyDatabase() throws {
        let (configuration, folder) = try temporaryConfiguration()
        defer { try? FileManager.default.removeItem(at: folder) }
        let line = try DataFolder.open(configuration, .existingDatabaseOrNewFolder) { try $0.importDemoCommunity(venues: 2, participants: 6, activities: 1, seed: 3) }
        #expect(line.hasPrefix("Created ") && line.contains(" 2 venues, 6 participants (") && line.hasSuffix(" s."), "\(line)")
        let again = refusal { try DataFolder.open(configuration, .existingDatabaseOrNewFolder) { try $0.importDemoCommunity(venues: 2, participants: 6, activities: 1, seed: 3) } }
        #expect(again?.hasSuffix("demo data only fills an empty one. Use a new --data folder.") == true, "\(again ?? "imported")")
    }

    @Test func aHubThatCannotBeUsedIsRefusedWithWhatToChange() throws {
        let (configuration, folder) = try temporaryConfiguration()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scheme = refusal {
            try DataFolder.open(configuration, .existingDatabaseOrNewFolder) { try $0.linkHub(upstream: URL(string: "ftp://hub")!, email: "a@example.org", password: password) }
        }
        #expect(scheme == "The hub address must start with http:// or https://, like https://192.168.1.20:8080")
        // Port 1 on loopback: nothing listens, the connection is refused at once.
        let unreachable = refusal {
            try DataFolder.open(configuration, .existingDatabaseOrNewFolder) {
                try $0.linkHub(upstream: URL(string: "http://127.0.0.1:1")!, email: "a@example.org", password: password)
            }
        }
        #expect(unreachable?.hasPrefix("The hub could not be reached") == true, "\(unreachable ?? "linked")")
    }
}

/// One Fieldbook serves a folder at a time, and hub-migrate moves a stopped SQLite hub only: a served folder's later
/// writes would be left behind. Each refusal names the process holding the folder.
@Suite struct ServingLockTests {
    func hubFolder() throws -> (AppConfiguration, String, URL) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("fieldbook-lock-\(UUID().uuidString)")
        let folder = root.appendingPathComponent("hub").path
        let configuration = try AppConfiguration([GivenSetting(.data, folder),
                                                  GivenSetting(.databaseURL, "postgresql://nobody@127.0.0.1:1/none")],
                                                 environment: ["FIELDBOOK_PASSWORD_COST": "test"])
        _ = try DataFolder.open(configuration, .existingDatabaseOrNewFolder) { _ in "" }
        return (configuration, folder, root)
    }

    @Test func aSecondServerAndAMigrationAreRefusedWhileAFolderIsServedAndAServerWhileItIsMoved() throws {
        let (configuration, folder, root) = try hubFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let process = "process \(getpid())"
        var server: ServingLock? = try ServingLock.serving(folder)
        let second = refusal { _ = try ServingLock.serving(folder) }
        #expect(second?.hasPrefix("\(folder) is already in use by another Fieldbook (fieldbook serve, \(process)).") == true,
                "\(second ?? "nothing refused")")
        let refused = refusal { try HubMigration.run(configuration, from: folder) { _ in } }
        #expect(refused?.hasPrefix("The hub in \(folder) is still serving. Stop it (fieldbook serve, \(process))") == true,
                "\(refused ?? "nothing refused")")
        #expect(server != nil)
        server = nil
        // Stopped: the migration goes on to PostgreSQL (here an address where none listens, so it fails there instead).
        let stopped = refusal { try HubMigration.run(configuration, from: folder) { _ in } }
        #expect(stopped != nil && stopped?.contains("still serving") != true, "\(stopped ?? "nothing refused")")
        var moving: ServingLock? = try ServingLock.alone(folder)
        let whileMoving = refusal { _ = try ServingLock.serving(folder) }
        #expect(whileMoving?.hasPrefix("A hub-migrate (fieldbook hub-migrate, \(process)) is moving the hub in \(folder)") == true,
                "\(whileMoving ?? "nothing refused")")
        moving = nil
        #expect(moving == nil && refusal { _ = try ServingLock.serving(folder) } == nil)
    }
}
