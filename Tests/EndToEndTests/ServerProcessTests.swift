import Foundation
import Testing
import TestSupport

/// End-to-end: the real executable, on a real port, with a real database file.
@Suite(.serialized) struct ServerProcessTests {
    let password = "correct horse battery staple"

    /// Completes /setup with the printed code and returns a signed-in browser.
    func setUp(_ server: FieldbookProcess) throws -> BrowserSession {
        let browser = BrowserSession(port: server.port)
        let code = try #require(server.setupCode)
        let answer = try browser.post("/setup", [("setup_code", code), ("name", "Ada Admin"), ("email", "admin@example.org"),
                                                 ("password", password), ("password_confirmation", password)])
        #expect(answer.status == 303)
        return browser
    }

    @Test func anAcknowledgedWriteSurvivesKill9() throws {
        let data = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: data) }
        let first = try FieldbookProcess(dataDirectory: data)
        let browser = try setUp(first)
        let created = try browser.post("/activity-types/new", [("name", "Night Market")])
        #expect(created.status == 303)
        first.kill9()

        let second = try FieldbookProcess(dataDirectory: data)
        defer { second.terminate() }
        #expect(second.setupCode == nil)
        let again = BrowserSession(port: second.port)
        #expect(try again.post("/login", [("email", "admin@example.org"), ("password", password)]).status == 303)
        #expect(try again.get("/activity-types").body.contains("Night Market"))
    }

    @Test func transportFailuresArePages() throws {
        let data = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: data) }
        let server = try FieldbookProcess(dataDirectory: data, extraArguments: ["--max-body", "2048"])
        defer { server.terminate() }
        let tooLarge = try RawHTTPClient.send("""
            POST /login HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 4096\r\nConnection: close\r\n\r\n
            """, port: server.port)
        #expect(tooLarge.status == 413)
        #expect(tooLarge.headers["content-type"] == "text/html; charset=utf-8")
        #expect(tooLarge.body.contains("What you sent is too large"))
        let body = "email=a&password"
        let malformed = try RawHTTPClient.send("""
            POST /login HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)
            """, port: server.port)
        #expect(malformed.status == 400)
        #expect(malformed.body.contains("The request could not be read"))
        let missing = try RawHTTPClient.send("GET /nowhere HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", port: server.port)
        #expect(missing.status == 404)
        #expect(missing.body.contains("<!DOCTYPE html>") && missing.body.contains("Page not found"))
        let wrongMethod = try RawHTTPClient.send("POST /activity-types/x/edit/more HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n", port: server.port)
        #expect(wrongMethod.status == 404)
        let notAllowed = try RawHTTPClient.send("PUT /login HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n", port: server.port)
        #expect(notAllowed.status == 405)
        #expect(notAllowed.headers["allow"] == "GET, HEAD, POST")
    }

    @Test func healthStaticFilesAndGracefulShutdown() throws {
        let data = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: data) }
        let server = try FieldbookProcess(dataDirectory: data)
        let health = try RawHTTPClient.send("GET /api/v1/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", port: server.port)
        #expect(health.status == 200)
        #expect(health.headers["content-type"] == "application/json")
        #expect(health.body.contains("\"database\":\"ok\"") && health.body.contains("\"status\":\"ok\""))
        let apiMissing = try RawHTTPClient.send("GET /api/v1/nothing HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", port: server.port)
        #expect(apiMissing.status == 404)
        #expect(apiMissing.body.contains("\"code\":\"not_found\""))
        let login = try RawHTTPClient.send("GET /setup HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", port: server.port)
        let cssPath = try #require(login.body.range(of: "href=\"/static/[^\"]*app.css", options: .regularExpression)
            .map { String(login.body[$0].dropFirst(6)) })
        let css = try RawHTTPClient.send("GET \(cssPath) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", port: server.port)
        #expect(css.status == 200)
        #expect(css.headers["cache-control"] == "public, max-age=31536000, immutable")
        #expect(server.terminate() == 0)
        #expect(!FileManager.default.fileExists(atPath: data.appendingPathComponent("fieldbook.sqlite-wal").path)
            || ((try? FileManager.default.attributesOfItem(atPath: data.appendingPathComponent("fieldbook.sqlite-wal").path)[.size] as? Int) ?? 0) == 0)
    }

    // Started from a folder with no templates and without --resources, the program finds the checkout it was built
    // in (installed, PREFIX/share/fieldbook; ResourceFolder): pages and static files are served.
    @Test func servesFromAnyFolderWithoutBeingToldWhereItsTemplatesAre() throws {
        let data = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: data) }
        let server = try FieldbookProcess(dataDirectory: data, namingResources: false, workingDirectory: URL(fileURLWithPath: "/"))
        let setup = try RawHTTPClient.send("GET /setup HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", port: server.port)
        #expect(setup.status == 200)
        let cssPath = try #require(setup.body.range(of: "href=\"/static/[^\"]*app.css", options: .regularExpression)
            .map { String(setup.body[$0].dropFirst(6)) })
        #expect(try RawHTTPClient.send("GET \(cssPath) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", port: server.port).status == 200)
        #expect(server.terminate() == 0)
    }

    @Test func createUserAndBackupCommands() throws {
        let data = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: data) }
        let create = Process()
        create.executableURL = FieldbookProcess.binary
        create.arguments = ["create-user", "--data", data.path, "--email", "Rita@Example.org", "--role", "read-only"]
        var environment = ProcessInfo.processInfo.environment
        environment["FIELDBOOK_PASSWORD_COST"] = "test"
        create.environment = environment
        let stdin = Pipe()
        create.standardInput = stdin
        try create.run()
        stdin.fileHandleForWriting.write(Data((password + "\n").utf8))
        try stdin.fileHandleForWriting.close()
        create.waitUntilExit()
        #expect(create.terminationStatus == 0)

        let server = try FieldbookProcess(dataDirectory: data)
        defer { server.terminate() }
        #expect(server.setupCode == nil)
        let browser = BrowserSession(port: server.port)
        #expect(try browser.post("/login", [("email", "rita@example.org"), ("password", password)]).status == 303)
        #expect(try browser.get("/activity-types/new").status == 403)

        let backupFile = data.appendingPathComponent("backup.sqlite")
        let backup = Process()
        backup.executableURL = FieldbookProcess.binary
        backup.arguments = ["backup", "--data", data.path, backupFile.path]
        try backup.run()
        backup.waitUntilExit()
        #expect(backup.terminationStatus == 0)
        #expect(((try? FileManager.default.attributesOfItem(atPath: backupFile.path)[.size] as? Int) ?? 0) > 0)
    }
}
