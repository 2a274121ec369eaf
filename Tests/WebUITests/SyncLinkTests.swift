import App
import Domain
import Foundation
import HTTPServer
import Logging
import Storage
import Testing

/// Linking from /settings/sync against a real hub (a whole Fieldbook, in this process, on loopback).
@Suite(.serialized) struct SyncLinkTests {
    static let hubAdmin = "hub-admin@example.org"

    /// A Fieldbook serving on a free loopback port with one administrator, stopped and removed when done.
    private func withHub(_ body: (URL, AppDatabase) async throws -> Void) async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("fieldbook-hub-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let configuration = AppConfiguration(server: ServerConfiguration(port: 0, threadCount: 2), dataDirectory: data.path,
                                             resourcesDirectory: WebHarness.repositoryRoot.path, passwordCost: .test)
        let hub = try await FieldbookApp.make(configuration, logger: Logger(label: "hub"))
        try hub.database.createUser(NewUserInput(name: "Hub Admin", email: Self.hubAdmin, role: "administrator",
                                                 password: WebHarness.password, passwordConfirmation: WebHarness.password), by: .system("test"))
        let port = try hub.start()
        defer { hub.stop() }
        try await body(URL(string: "http://127.0.0.1:\(port)")!, hub.database)
    }

    @Test func aRefusedPasswordIsReportedAtThePasswordField() async throws {
        try await withHub { url, _ in
            let given = try await WebHarness(withSyncEngine: true)
            try given.database.unlinkHub()
            try given.createUser("admin@example.org", .administrator)
            given.signIn("admin@example.org")
            let answer = given.post("/settings/sync", [("upstream", url.absoluteString), ("email", Self.hubAdmin), ("password", "wrong password")])
            #expect(answer.status == .unprocessableContent)
            #expect(answer.bodyText.contains(##"<a href="#password">The hub did not accept that email and password"##))
            #expect(!answer.bodyText.contains("wrong password"))
            #expect(try given.database.hubLink() == nil)
        }
    }

    @Test func linkingSyncsAtOnceAndNoPageShowsTheRefreshToken() async throws {
        try await withHub { url, hubDatabase in
            try hubDatabase.createCategory(.activityType, CategoryInput(name: "Hub Picnic"), by: .system("test"))
            let given = try await WebHarness(withSyncEngine: true)
            try given.database.unlinkHub()
            try given.createUser("admin@example.org", .administrator)
            try given.createUser("ed@example.org", .editor)
            given.signIn("admin@example.org")
            let answer = given.post("/settings/sync", [("upstream", url.absoluteString), ("email", Self.hubAdmin),
                                                       ("password", WebHarness.password)])
            #expect(answer.status == .seeOther)
            let token = try #require(try given.database.hubLink()?.refreshToken)

            // The page started the engine: the hub's record arrives here without a restart.
            let deadline = Date().addingTimeInterval(30)
            while try !given.database.categories(.activityType).contains(where: { $0.name == "Hub Picnic" }), Date() < deadline {
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(try given.database.categories(.activityType).contains { $0.name == "Hub Picnic" })
            // Both the token from linking and the one the first sync rotated it to.
            let tokens = [token, try #require(try given.database.hubLink()?.refreshToken)]
            for path in ["/settings/sync", "/sync", "/", "/settings/sync/unlink", "/sync/conflicts"] {
                let html = given.get(path).bodyText
                for token in tokens { #expect(!html.contains(token), "\(path)") }
            }
            given.syncEngine?.stop()
        }
    }
}
