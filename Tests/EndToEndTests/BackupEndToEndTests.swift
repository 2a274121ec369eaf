import Foundation
import Testing
import TestSupport

/// Through the real executable: serve backs up by itself, the administrators' page lists and takes
/// backups, Home warns while the folder is missing, a backup killed half way leaves nothing, and restore puts one back.
@Suite(.serialized) struct BackupEndToEndTests {
    let password = "correct horse battery staple"

    func signIn(_ server: FieldbookProcess) throws -> BrowserSession {
        let browser = BrowserSession(port: server.port)
        if let code = server.setupCode {
            #expect(try browser.post("/setup", [("setup_code", code), ("name", "Ada Admin"), ("email", "admin@example.org"),
                                                ("password", password), ("password_confirmation", password)]).status == 303)
        } else {
            #expect(try browser.post("/login", [("email", "admin@example.org"), ("password", password)]).status == 303)
        }
        return browser
    }

    func backups(in folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasPrefix("fieldbook-backup-") }.sorted()
    }

    /// Waits up to 60 s for `condition`, looking every 20 ms.
    func eventually(_ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            if try condition() { return true }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return try condition()
    }

    @Test func thePageListsBackupsTakesOneNowDownloadsAFreshOneAndHomeWarnsWhileTheFolderIsMissing() throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let stick = root.appendingPathComponent("stick")
        let server = try FieldbookProcess(dataDirectory: root.appendingPathComponent("data"), extraArguments: ["--backup-dir", stick.path])
        defer { server.terminate() }
        let admin = try signIn(server)
        let home = try admin.get("/")
        #expect(home.body.contains("Backups need attention") && home.body.contains("The backup folder \(stick.path) is missing."), "\(home.body)")
        let missing = try admin.get("/settings/backups")
        #expect(missing.status == 200 && missing.body.contains("No backup has been taken yet."))
        #expect(try admin.post("/settings/backups/now", [], formPath: "/settings/backups").status == 303)
        let notTaken = try admin.get("/settings/backups").body
        #expect(notTaken.contains("No backup was taken. The backup folder \(stick.path) is missing."), "\(notTaken)")

        try FileManager.default.createDirectory(at: stick, withIntermediateDirectories: false)
        #expect(try admin.post("/settings/backups/now", []).status == 303)
        #expect(try eventually { backups(in: stick).count == 1 })
        let listed = try admin.get("/settings/backups")
        #expect(listed.body.contains("<td>\(backups(in: stick)[0])</td>") && listed.body.contains("<td>Daily</td>"), "\(listed.body)")
        #expect(listed.body.contains("<h2 id=\"backups-kept\">Backups kept</h2>") && listed.body.contains("<tr><th scope=\"row\">"))
        #expect(!(try admin.get("/").body.contains("Backups need attention")))

        let download = try admin.post("/settings/backups/download", [], formPath: "/settings/backups")
        #expect(download.status == 200)
        #expect(download.headers["content-type"] == "application/zip")
        #expect(download.headers["content-disposition"]?.hasPrefix("attachment; filename=\"fieldbook-backup-") == true)
        #expect(download.body.hasPrefix("PK"))
        #expect(backups(in: stick).count == 1, "a download is not kept")
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("data").path).allSatisfy {
            !$0.hasPrefix(".fieldbook-backup-")
        }, "nor is anything left of it in the data folder")
    }

    @Test func aDownloadedBackupHoldsTheAuthorityKeyOnlyWhenTheAdministratorAsks() throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let data = root.appendingPathComponent("data"), tls = data.appendingPathComponent("tls")
        try FileManager.default.createDirectory(at: tls, withIntermediateDirectories: true)
        try "authority certificate".write(to: tls.appendingPathComponent("authority.pem"), atomically: true, encoding: .utf8)
        try "authority key".write(to: tls.appendingPathComponent("authority-key.pem"), atomically: true, encoding: .utf8)
        let server = try FieldbookProcess(dataDirectory: data)
        defer { server.terminate() }
        let admin = try signIn(server)
        #expect(try admin.get("/settings/backups").body.contains("Include the HTTPS authority's key"))
        let without = try admin.post("/settings/backups/download", [], formPath: "/settings/backups")
        #expect(without.status == 200 && without.body.contains("tls/authority.pem"))
        #expect(!without.body.contains("tls/authority-key.pem"))
        let with = try admin.post("/settings/backups/download", [("authority_key", "on")], formPath: "/settings/backups")
        #expect(with.status == 200 && with.body.contains("tls/authority.pem") && with.body.contains("tls/authority-key.pem"))
    }

    @Test func aBackupKilledHalfWayLeavesNothingAndTheNextSucceeds() throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let data = root.appendingPathComponent("data"), folder = data.appendingPathComponent("backups")
        let demo = try FieldbookProcess.command(["demo-data", "--data", data.path, "--participants", "10000", "--activities", "1000"])
        #expect(demo.status == 0, "\(demo.output)")
        let first = try FieldbookProcess(dataDirectory: data)
        // Killed while the archive is being written (its database copy checked already), the step a rename guards.
        #expect(try eventually {
            ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).contains { $0.hasPrefix(".fieldbook-backup-") && $0.hasSuffix(".zip") }
        }, "the first backup starts with serve")
        first.kill9()
        #expect(backups(in: folder).isEmpty, "killed half way: nothing carries a backup's name")

        let second = try FieldbookProcess(dataDirectory: data)
        defer { second.terminate() }
        #expect(try eventually { backups(in: folder).count == 1 })
        #expect(try eventually { (try FileManager.default.contentsOfDirectory(atPath: folder.path)) == backups(in: folder) },
                "what the killed one left is gone")
    }

    @Test func restoreIsRefusedWhileServingAndPutsABackupBackOnceStopped() throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let data = root.appendingPathComponent("data"), folder = root.appendingPathComponent("stick")
        // The stick is plugged in only once there is something to back up, so the one backup is the one asked for.
        let server = try FieldbookProcess(dataDirectory: data, extraArguments: ["--backup-dir", folder.path])
        let admin = try signIn(server)
        #expect(try admin.post("/activity-types/new", [("name", "Night Market")]).status == 303)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        #expect(try admin.post("/settings/backups/now", []).status == 303)
        #expect(try eventually { backups(in: folder).count == 1 })
        let backup = folder.appendingPathComponent(backups(in: folder)[0])
        #expect(try admin.post("/activity-types/new", [("name", "After the backup")]).status == 303)

        let refused = try FieldbookProcess.command(["restore", "--data", data.path, backup.path])
        #expect(refused.status == 1)
        #expect(refused.output.hasPrefix("Error: \(data.path) is in use by fieldbook serve, process \(server.process.processIdentifier)"), "\(refused.output)")
        #expect(!refused.output.contains("Usage:"))
        #expect(server.terminate() == 0)

        let restored = try FieldbookProcess.command(["restore", "--data", data.path, backup.path])
        #expect(restored.status == 0, "\(restored.output)")
        #expect(restored.output.contains("The database that was there is kept as \(data.path)/fieldbook.sqlite.before-restore-"), "\(restored.output)")
        let again = try FieldbookProcess(dataDirectory: data)
        defer { again.terminate() }
        let types = try signIn(again).get("/activity-types").body
        #expect(types.contains("Night Market") && !types.contains("After the backup"))

        let notABackup = try FieldbookProcess.command(["restore", "--data", data.path, root.appendingPathComponent("nothing.zip").path])
        #expect(notABackup.status == 1 && notABackup.output.contains("cannot be read"), "\(notABackup.output)")
    }
}
