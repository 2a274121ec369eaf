import Foundation
import Testing
import TestSupport

/// What scripts rely on: each command's environment variables, exit status 64 for arguments and settings it cannot use
/// (the argument parser's validation failure, printed with the usage), and status 1, without the usage, for everything
/// else: what it found cannot be used (a data folder, a database, a hub), or the machine failed.
@Suite struct CommandLineTests {
    let password = "correct horse battery staple"

    @Test func serveRefusesUnusableSettingsBeforeListening() throws {
        let data = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: data) }
        let port = try FieldbookProcess.command(["serve", "--data", data.path], variables: ["FIELDBOOK_PORT": "abc"])
        #expect(port.status == 64)
        #expect(port.output.hasPrefix("Error: FIELDBOOK_PORT must be a number, got 'abc'\nUsage:"), "\(port.output)")
        let tls = try FieldbookProcess.command(["serve", "--data", data.path, "--tls-cert", "/nowhere.pem"])
        #expect(tls.status == 64)
        #expect(tls.output.hasPrefix("Error: --tls-cert and --tls-key go together"), "\(tls.output)")
        let interval = try FieldbookProcess.command(["serve", "--data", data.path], variables: ["FIELDBOOK_SYNC_INTERVAL": "0"])
        #expect(interval.status == 64)
        #expect(interval.output.hasPrefix("Error: --sync-interval must be at least 1 second"), "\(interval.output)")
    }

    /// Scripts stop the server as soon as it prints its address. A SIGTERM that came before the handler was in place
    /// killed it with the database open, or was ignored and left it running (about one start in three).
    @Test func serveStopsCleanlyWhenSignalledTheMomentItIsReady() throws {
        let data = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: data) }
        for _ in 1...5 {
            let server = try FieldbookProcess(dataDirectory: data)
            server.process.terminate()
            let deadline = Date().addingTimeInterval(10)
            while server.process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
            guard !server.process.isRunning else {
                server.kill9()
                Issue.record("SIGTERM was ignored: the server still ran 10 s later")
                return
            }
            #expect(server.process.terminationReason == .exit && server.process.terminationStatus == 0)
        }
    }

    @Test func oneShotCommandsTakeTheDataFolderFromTheEnvironmentAndIgnoreServerVariables() throws {
        let data = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: data) }
        let variables = ["FIELDBOOK_DATA": data.path, "FIELDBOOK_PORT": "abc", "FIELDBOOK_TLS_CERT": "/nowhere.pem"]
        let created = try FieldbookProcess.command(["create-user", "--email", "Ann@Example.org", "--role", "editor"],
                                                   input: password + "\n", variables: variables)
        #expect(created.status == 0)
        #expect(created.output.wholeMatch(of: /Created editor ann@example\.org \([0-9a-f-]{36}\)\.\n/) != nil, "\(created.output)")
        let copy = data.appendingPathComponent("copy.sqlite")
        let backup = try FieldbookProcess.command(["backup", copy.path], variables: variables)
        #expect(backup.status == 0)
        #expect(backup.output == "Backed up \(data.appendingPathComponent("fieldbook.sqlite").path) to \(copy.path).\n")
        let nowhere = try FieldbookProcess.command(["backup", "--data", data.path, "/nonexistent/folder/copy.sqlite"])
        #expect(nowhere.status == 1, "a disk failure is not a refusal: \(nowhere.output)")
    }

    @Test func createUserRefusesWhatItCannotUse() throws {
        let data = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: data) }
        let noPassword = try FieldbookProcess.command(["create-user", "--data", data.path, "--email", "a@example.org", "--role", "editor"])
        #expect(noPassword.status == 64)
        #expect(noPassword.output.hasPrefix("Error: no password on standard input; pipe it in, e.g. printf '%s\\n' \"$PASSWORD\" | fieldbook create-user ..."))
        let invalid = try FieldbookProcess.command(["create-user", "--data", data.path, "--email", "nobody", "--role", "boss"],
                                                   input: password + "\n")
        #expect(invalid.status == 64)
        #expect(invalid.output.hasPrefix("Error: email: Enter an email address in the correct format, like name@example.org\nrole: Choose a role\n"),
                "\(invalid.output)")
    }

    @Test func demoDataFillsOnlyAnEmptyDatabase() throws {
        let data = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: data) }
        let arguments = ["demo-data", "--data", data.path, "--participants", "8", "--activities", "2", "--venues", "2"]
        let first = try FieldbookProcess.command(arguments)
        #expect(first.status == 0)
        #expect(first.output.hasPrefix("Created ") && first.output.contains("2 venues, 8 participants"), "\(first.output)")
        let second = try FieldbookProcess.command(arguments)
        #expect(second.status == 1)
        #expect(second.output.contains("demo data only fills an empty one. Use a new --data folder."), "\(second.output)")
        #expect(!second.output.contains("Usage:"), "\(second.output)")
    }

    @Test func linkRefusesAnAddressItCannotUse() throws {
        let data = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: data) }
        let notURL = try FieldbookProcess.command(["link", "--data", data.path, "--upstream", "", "--email", "a@example.org"])
        #expect(notURL.status == 64)
        #expect(notURL.output.hasPrefix("Error: --upstream must be a URL like http://192.168.1.20:8080"), "\(notURL.output)")
        let unreachable = try FieldbookProcess.command(["link", "--data", data.path, "--upstream", "http://127.0.0.1:1", "--email", "a@example.org"],
                                                       input: password + "\n")
        #expect(unreachable.status == 1)
        #expect(unreachable.output.hasPrefix("Error: The hub could not be reached"), "\(unreachable.output)")
        #expect(!unreachable.output.contains("Usage:"), "\(unreachable.output)")
    }

    // Issue 36, item 6: a wrong or missing --data made an empty database there, and backup said "Backed up".
    @Test func oneShotCommandsRefuseAFolderWithoutADatabaseAndCreateNothingThere() throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let missing = root.appendingPathComponent("missing")
        let other = root.appendingPathComponent("other")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: false)
        try Data("not Fieldbook's".utf8).write(to: other.appendingPathComponent("notes.txt"))
        let copy = root.appendingPathComponent("copy.sqlite")
        let readers: [[String]] = [["backup", copy.path], ["check"], ["tiles", "list"], ["tiles", "import", other.appendingPathComponent("notes.txt").path]]
        let starters: [[String]] = [["create-user", "--email", "a@example.org", "--role", "editor"],
                                    ["link", "--upstream", "http://127.0.0.1:1", "--email", "a@example.org"],
                                    ["demo-data", "--participants", "1", "--activities", "0", "--venues", "1"]]
        var runs = readers.map { ($0, missing, "does not exist") } + (readers + starters).map { ($0, other, "holds no Fieldbook database") }
        runs.append((["hub-migrate", "--database-url", "postgresql://nobody@127.0.0.1:1/none", "--from", other.path], other, "holds no"))
        for (arguments, folder, finding) in runs {
            let run = try FieldbookProcess.command(arguments + (arguments.contains("--from") ? [] : ["--data", folder.path]),
                                                   input: password + "\n")
            let said = "\(arguments.joined(separator: " ")): \(run.output)"
            #expect(run.status == 1, "\(said)")
            #expect(run.output.hasPrefix("Error: \(folder.path) \(finding)"), "\(said)")
            #expect(run.output.contains(arguments[0] == "hub-migrate" ? "--from" : "--data (or FIELDBOOK_DATA)"), "\(said)")
            #expect(!run.output.contains("Usage:"), "\(said)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path).sorted() == ["other"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: other.path) == ["notes.txt"])
    }

    @Test func backupWritesExactlyOneFileForItsOwnerAlone() throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let data = root.appendingPathComponent("data")
        let created = try FieldbookProcess.command(["create-user", "--data", data.path, "--email", "a@example.org", "--role", "editor"],
                                                   input: password + "\n")
        #expect(created.status == 0, "\(created.output)")
        let copies = root.appendingPathComponent("copies")
        try FileManager.default.createDirectory(at: copies, withIntermediateDirectories: false)
        let copy = copies.appendingPathComponent("nightly.sqlite")
        for _ in 1...2 {
            let backup = try FieldbookProcess.command(["backup", "--data", data.path, copy.path])
            #expect(backup.status == 0, "\(backup.output)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: copies.path) == ["nightly.sqlite"])
            // With no server running, the data folder is left as the backup found it.
            #expect(try FileManager.default.contentsOfDirectory(atPath: data.path) == ["fieldbook.sqlite"])
        }
        #expect(try FileManager.default.attributesOfItem(atPath: copy.path)[.posixPermissions] as? Int == 0o600)
        let check = try FieldbookProcess.command(["check", "--data", copies.path])
        #expect(check.status == 1, "the copy is not named fieldbook.sqlite: \(check.output)")
    }

    // Issue 40, item 1: there was no --version.
    @Test func versionNamesTheReleaseAndTheCommit() throws {
        let version = try FieldbookProcess.command(["--version"])
        #expect(version.status == 0)
        #expect(version.output.wholeMatch(of: /0\.1\.0 \(commit [0-9a-z-]+\)\n/) != nil, "\(version.output)")
    }

    // Issue 40, item 6: a second serve of a folder already served shared its database with the first.
    @Test func serveRefusesAFolderAnotherFieldbookServes() throws {
        let data = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: data) }
        let first = try FieldbookProcess(dataDirectory: data)
        defer { first.terminate() }
        let second = try FieldbookProcess.command(["serve", "--data", data.path, "--port", "0", "--resources", FieldbookProcess.repositoryRoot.path],
                                                  timeout: 20)
        #expect(second.status == 1)
        #expect(second.output.hasPrefix("""
            Error: \(data.path) is already in use by another Fieldbook (fieldbook serve, process \(first.process.processIdentifier)). \
            Use the one that is running, or stop it first
            """), "\(second.output)")
        #expect(!second.output.contains("Usage:") && !second.output.contains("serving at"), "\(second.output)")
        #expect(first.terminate() == 0)
        let again = try FieldbookProcess(dataDirectory: data)
        #expect(again.terminate() == 0, "once the first has stopped, the folder is served again")
    }

    // Issue 40, item 6: without its templates, start-up listed every template missing but not how to point at them.
    @Test func serveWithoutItsTemplatesSaysHowToPointAtThem() throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let run = try FieldbookProcess.command(["serve", "--data", root.appendingPathComponent("data").path, "--port", "0",
                                                "--resources", root.path])
        #expect(run.status == 1)
        #expect(run.output.hasPrefix("Error: \(root.path) holds no Fieldbook templates (templates/layout.mustache)"), "\(run.output)")
        #expect(run.output.contains("--resources FOLDER or FIELDBOOK_RESOURCES=FOLDER"), "\(run.output)")
        #expect(run.output.split(separator: "\n").count == 1 && !run.output.contains("Usage:"), "\(run.output)")
    }

    // Issue 36, item 11: a folder made by hand (or restored) stayed readable by everyone.
    @Test func serveClosesAnExistingDataFolderToOtherUsers() throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let data = root.appendingPathComponent("data")
        #expect(try FieldbookProcess.command(["create-user", "--data", data.path, "--email", "a@example.org", "--role", "editor"],
                                             input: password + "\n").status == 0)
        let database = data.appendingPathComponent("fieldbook.sqlite").path
        let files = [database, database + "-wal", database + "-shm"]
        for path in files.dropFirst() where !FileManager.default.fileExists(atPath: path) {
            FileManager.default.createFile(atPath: path, contents: nil)
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: data.path)
        for path in files { try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path) }
        let server = try FieldbookProcess(dataDirectory: data)
        defer { server.process.terminate(); server.process.waitUntilExit() }
        let mode = { (path: String) in try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int }
        #expect(try mode(data.path) == 0o700)
        for path in files { #expect(try mode(path) == 0o600, "\(path)") }
    }
}
