import Domain
import Foundation
import HTTPServer
import Storage
import Testing
@testable import WebUI

@Suite struct CategoryPageTests {
    func signedInEditor() async throws -> WebHarness {
        let given = try await WebHarness()
        try given.createUser("ed@example.org", .editor)
        given.signIn("ed@example.org")
        return given
    }

    @Test func listDistinguishesPredefinedFromCustom() async throws {
        let given = try await signedInEditor()
        given.post("/roles/new", [("name", "Driver")])
        let page = given.get("/roles").bodyText
        #expect(page.contains("Driver"))
        #expect(page.contains("tag--custom\">Custom"))
        #expect(page.contains("tag--predefined\">Predefined"))
        #expect(page.contains("aria-current=\"page\">Roles"))
    }

    @Test func createShowsAFlashAndRecordsOneChange() async throws {
        let given = try await signedInEditor()
        let created = given.post("/activity-types/new", [("name", "  Picnic ")])
        #expect(created.status == .seeOther)
        #expect(created.header("Location") == "/activity-types")
        let list = given.get("/activity-types").bodyText
        #expect(list.contains("role=\"status\"><p>Activity type “Picnic” created."))
        #expect(!given.get("/activity-types").bodyText.contains("created."))
        #expect(try given.database.outboxEntries().filter { $0.change.entity == "activity_type" }.count == 1)
    }

    @Test(arguments: [("", "Enter a name for the activity type"),
                      (String(repeating: "x", count: 51), "Name must be 50 characters or fewer (it has 51)"),
                      ("WORKSHOP", "An activity type called “Workshop” already exists; choose another name")])
    func invalidNamesKeepTheValueAndExplain(_ name: String, _ message: String) async throws {
        let given = try await signedInEditor()
        let answer = given.post("/activity-types/new", [("name", name)])
        #expect(answer.status == .unprocessableContent)
        let html = answer.bodyText
        #expect(html.contains("<title>Error: New activity type"))
        #expect(html.contains("<a href=\"#name\">\(message.replacingOccurrences(of: "'", with: "&#39;"))</a>"))
        #expect(html.contains("id=\"name-error\""))
        #expect(html.contains("value=\"\(name)\""))
    }

    @Test func editRenamesAndRejectsAStaleForm() async throws {
        let given = try await signedInEditor()
        let entry = try given.database.createCategory(.activityType, CategoryInput(name: "Picnic"), by: .system("test"))
        let path = "/activity-types/\(entry.id.uuidString.lowercased())"
        #expect(given.post(path + "/edit", [("name", "Barbecue"), ("version", "1")]).header("Location") == path)
        let stale = given.post(path + "/edit", [("name", "Potluck"), ("version", "1")])
        #expect(stale.status == .conflict)
        #expect(stale.bodyText.contains("Someone else renamed this activity type to “Barbecue”"))
        #expect(try given.database.category(.activityType, id: entry.id).name == "Barbecue")
    }

    @Test func predefinedEntriesAreProtected() async throws {
        let given = try await signedInEditor()
        let workshop = try #require(try given.database.categories(.activityType).first { $0.name == "Workshop" })
        let path = "/activity-types/\(workshop.id.uuidString.lowercased())"
        #expect(given.get(path + "/edit").bodyText.contains("is a predefined activity type"))
        let refused = given.post(path + "/delete", [], formPath: "/activity-types")
        #expect(refused.status == .forbidden)
        #expect(refused.bodyText.contains("cannot be changed or deleted"))
        #expect(try given.database.category(.activityType, id: workshop.id).name == "Workshop")
    }

    @Test func deleteAsksForConfirmationThenDeletes() async throws {
        let given = try await signedInEditor()
        let entry = try given.database.createCategory(.participantRole, CategoryInput(name: "Driver"), by: .system("test"))
        let path = "/roles/\(entry.id.uuidString.lowercased())"
        let confirm = given.get(path + "/delete")
        #expect(confirm.bodyText.contains("Delete role “Driver”?"))
        #expect(given.post(path + "/delete", []).header("Location") == "/roles")
        #expect(given.get(path).status == .notFound)
    }

    @Test func deletingAReferencedTypeIsRefusedWithTheReason() async throws {
        let given = try await signedInEditor()
        let entry = try given.database.createCategory(.activityType, CategoryInput(name: "Picnic"), by: .system("test"))
        try ActivityFixture.insert(named: "Summer picnic", typeId: entry.id, into: given.database)
        let path = "/activity-types/\(entry.id.uuidString.lowercased())"
        let confirm = given.get(path + "/delete").bodyText
        #expect(confirm.contains("cannot be deleted because 1 activity uses it"))
        #expect(confirm.contains("Summer picnic"))
        #expect(!confirm.contains("Delete “Picnic”</button>"))
        let refused = given.post(path + "/delete", [], formPath: "/activity-types")
        #expect(refused.status == .conflict)
        #expect(try given.database.category(.activityType, id: entry.id).name == "Picnic")
    }

    @Test func unknownAndMalformedIdsAre404Pages() async throws {
        let given = try await signedInEditor()
        let unknown = given.get("/roles/\(UUID().uuidString.lowercased())")
        #expect(unknown.status == .notFound)
        #expect(unknown.bodyText.contains("does not exist"))
        #expect(given.get("/roles/not-an-id").status == .notFound)
        #expect(given.get("/no/such/page").bodyText.contains("<h1 class=\"page-title\">Page not found</h1>"))
    }
}

@Suite struct PaginationTests {
    @Test func pageNumbersShowEndsAndANeighbourhoodWithGaps() {
        #expect(Pagination.pageNumbers(current: 1, count: 1) == [])
        #expect(Pagination.pageNumbers(current: 1, count: 3) == [1, 2, 3])
        #expect(Pagination.pageNumbers(current: 6, count: 20) == [1, nil, 4, 5, 6, 7, 8, nil, 20])
        #expect(Pagination.pageNumbers(current: 99_999, count: 3) == [1, 2, 3], "a page past the end must not crash")
        #expect(PageRequest(page: Int.max).offset > 0, "a huge page number must not overflow")
    }

    @Test func linksKeepTheOtherQueryParameters() {
        let request = Request(method: .get, path: "/participants", query: QueryString.decode("q=ann&sort=name&page=3"))
        #expect(request.link(setting: "page", to: "4") == "/participants?q=ann&sort=name&page=4")
        #expect(request.link(setting: "page", to: nil) == "/participants?q=ann&sort=name")
    }
}
