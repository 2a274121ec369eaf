import Domain
import Foundation
import HTTPServer
import Testing

@Suite struct AuthorizationTests {
    static let editorRoutes = ["/activity-types/new", "/roles/new"]
    static let perEntryEditorRoutes = ["edit", "delete"]

    @Test func readOnlyUsersAreRefusedEveryCreateEditDeleteRoute() async throws {
        let given = try await WebHarness()
        try given.createUser("reader@example.org", .readOnly)
        let custom = try given.database.createCategory(.activityType, CategoryInput(name: "Picnic"), by: .system("test"))
        let role = try given.database.createCategory(.participantRole, CategoryInput(name: "Driver"), by: .system("test"))
        given.signIn("reader@example.org")
        let csrf = try #require(given.csrfToken(from: given.get("/")))
        var paths = Self.editorRoutes
        for (base, id) in [("/activity-types", custom.id), ("/roles", role.id)] {
            paths += Self.perEntryEditorRoutes.map { "\(base)/\(id.uuidString.lowercased())/\($0)" }
        }
        for path in paths {
            #expect(given.get(path).status == .forbidden, "GET \(path)")
            #expect(given.post(path, [("name", "Changed")], csrf: csrf).status == .forbidden, "POST \(path)")
        }
        #expect(try given.database.category(.activityType, id: custom.id).name == "Picnic")
        #expect(try given.database.outboxEntries().count == 3)
    }

    @Test func readOnlyUsersSeeNoCreateEditOrDeleteControls() async throws {
        let given = try await WebHarness()
        try given.createUser("reader@example.org", .readOnly)
        let custom = try given.database.createCategory(.activityType, CategoryInput(name: "Picnic"), by: .system("test"))
        given.signIn("reader@example.org")
        let list = given.get("/activity-types").bodyText
        #expect(list.contains("Picnic"))
        #expect(!list.contains("/activity-types/new"))
        #expect(!list.contains("/edit\""))
        let detail = given.get("/activity-types/\(custom.id.uuidString.lowercased())").bodyText
        #expect(!detail.contains("/delete\""))
    }

    @Test func onlyAdministratorsManageUsers() async throws {
        let given = try await WebHarness()
        let editor = try given.createUser("ed@example.org", .editor)
        try given.createUser("admin@example.org", .administrator)
        given.signIn("ed@example.org")
        for path in ["/users", "/users/new", "/users/\(editor.id.uuidString.lowercased())/edit"] {
            #expect(given.get(path).status == .forbidden, "GET \(path)")
        }
        #expect(!given.get("/").bodyText.contains("href=\"/users\""))
        given.signIn("admin@example.org")
        #expect(given.get("/users").status == .ok)
        #expect(given.get("/").bodyText.contains("href=\"/users\""))
    }
}
