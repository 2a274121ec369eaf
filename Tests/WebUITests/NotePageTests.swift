import Domain
import Foundation
import HTTPServer
import Records
import Storage
import Testing

/// Notes: a kind made of its declaration, migration, templates and route lines only, served by the generic pages.
@Suite struct NotePageTests {
    func signedIn(_ role: UserRole, _ given: WebHarness? = nil) async throws -> WebHarness {
        let harness: WebHarness
        if let given { harness = given } else { harness = try await WebHarness() }
        let given = harness
        let email = "\(role.rawValue)@example.org"
        try given.createUser(email, role)
        given.signIn(email)
        return given
    }

    func id(from location: String?) throws -> String {
        try #require(location?.split(separator: "/").last.map(String.init))
    }

    @Test func aNoteIsCreatedListedFoundEditedAndDeleted() async throws {
        let given = try await signedIn(.editor)
        #expect(given.get("/notes").bodyText.contains("No notes yet"))
        #expect(given.get("/notes/new").status == .ok)
        let created = given.post("/notes/new", [("noted_on", "2025-03-12"), ("text", "Asked about the Tuesday study circle")])
        #expect(created.status == .seeOther)
        let note = try id(from: created.header("Location"))
        #expect(given.get("/notes/\(note)").bodyText.contains("Asked about the Tuesday study circle"))
        #expect(given.get("/notes").bodyText.contains("Asked about the Tuesday study circle"))
        #expect(given.get("/notes?q=tuesday").bodyText.contains("Asked about the Tuesday study circle"))
        #expect(given.get("/notes?q=nothing").bodyText.contains("No note matches this search"))

        let edit = given.get("/notes/\(note)/edit").bodyText
        #expect(edit.contains("value=\"2025-03-12\"") && edit.contains("name=\"version\" value=\"1\""))
        let saved = given.post("/notes/\(note)/edit", [("version", "1"), ("noted_on", "2025-03-13"), ("text", "Will come on Tuesday")])
        #expect(saved.status == .seeOther)
        let stored = try given.database.record(Note.self, id: try #require(UUID(uuidString: note)))
        #expect(stored.text == "Will come on Tuesday" && stored.version == 2 && stored.notedOn.description == "2025-03-13")

        #expect(given.get("/notes/\(note)/delete").status == .ok)
        #expect(given.post("/notes/\(note)/delete", []).status == .seeOther)
        #expect(given.get("/notes/\(note)").status == .notFound)
    }

    @Test func refusedValuesAreShownAgainWithTheirErrors() async throws {
        let given = try await signedIn(.editor)
        let refused = given.post("/notes/new", [("noted_on", "12 March"), ("text", "  ")])
        #expect(refused.status == .unprocessableContent)
        #expect(refused.bodyText.contains("<title>Error: New note"))
        #expect(refused.bodyText.contains("Enter the date as a real day, like 2025-03-12"))
        #expect(refused.bodyText.contains("Write the note"))
        #expect(refused.bodyText.contains("value=\"12 March\""), "what was typed is kept")
        #expect(refused.bodyText.contains("href=\"#noted_on\""))
        let missing = given.post("/notes/new", [("noted_on", "2025-03-12"), ("text", "About a venue"), ("venue_id", UUID().uuidString.lowercased())])
        #expect(missing.status == .unprocessableContent)
        #expect(missing.bodyText.contains("The chosen venue no longer exists"))
    }

    @Test func anEditOfAVersionSomeoneElseReplacedIsRefusedWithTheTypedValuesKept() async throws {
        let given = try await signedIn(.editor)
        let note = try id(from: given.post("/notes/new", [("noted_on", "2025-03-12"), ("text", "First")]).header("Location"))
        given.post("/notes/\(note)/edit", [("version", "1"), ("noted_on", "2025-03-12"), ("text", "Second")])
        let stale = given.post("/notes/\(note)/edit", [("version", "1"), ("noted_on", "2025-03-12"), ("text", "Mine")])
        #expect(stale.status == .conflict)
        #expect(stale.bodyText.contains("Mine") && stale.bodyText.contains("name=\"version\" value=\"2\""))
        #expect(try given.database.record(Note.self, id: try #require(UUID(uuidString: note))).text == "Second")
    }

    @Test func aNoteAboutAParticipantLinksToThemAndItsTextIsHiddenFromThoseWhoMayNotSeeNotes() async throws {
        let given = try await signedIn(.editor)
        let ann = try given.database.createParticipant(ParticipantInput(name: "Ann", email: "ann@example.org"), by: .system("test"))
        let form = given.get("/notes/new?participant_id=\(ann.id.uuidString.lowercased())").bodyText
        #expect(form.contains("<option value=\"\(ann.id.uuidString.lowercased())\" selected>Ann</option>"))
        let note = try id(from: given.post("/notes/new", [("noted_on", "2025-03-12"), ("text", "Prefers evenings"),
                                                           ("participant_id", ann.id.uuidString.lowercased())]).header("Location"))
        #expect(given.get("/notes/\(note)").bodyText.contains("href=\"/participants/\(ann.id.uuidString.lowercased())\">Ann</a>"))

        // Read-only users see no notes by default: not the text, and not a search that would tell it.
        let reader = try await signedIn(.readOnly, given)
        let page = reader.get("/notes/\(note)").bodyText
        #expect(!page.contains("Prefers evenings") && page.contains("Hidden from read-only users"))
        let list = reader.get("/notes?q=evenings").bodyText
        #expect(!list.contains("Prefers evenings") && list.components(separatedBy: "name=\"q\"").count == 2,
                "no search field but the header's: the notes list's own is not offered")
        #expect(reader.get("/notes/new").status == .forbidden)
    }

    @Test func aNotesPageShowsItsHistoryAndWhoChangedItLast() async throws {
        let given = try await signedIn(.editor)
        let note = try id(from: given.post("/notes/new", [("noted_on", "2025-03-12"), ("text", "First")]).header("Location"))
        given.post("/notes/\(note)/edit", [("version", "1"), ("noted_on", "2025-03-12"), ("text", "Second")])
        let page = given.get("/notes/\(note)").bodyText
        #expect(page.contains("<h2 id=\"history-title\">History</h2>"))
        #expect(page.contains("<td>Changed text</td>") && page.contains("<td>Created</td>"))
        #expect(page.contains("</dd></div>\n</dl>") && page.contains(" by "), "who changed it last")
    }

    @Test func notesAreFoundFromHomeAndFromThePagesOfWhatTheyAreAbout() async throws {
        let given = try await signedIn(.editor)
        let area = try given.database.createArea(AreaInput(name: "City", areaType: "CITY", parentId: ""), by: .system("test"))
        let hall = try given.database.createVenue(VenueInput(name: "Hall", address: "1 Road", areaId: area.id.uuidString), by: .system("test"))
        let ann = try given.database.createParticipant(ParticipantInput(name: "Ann", email: "ann@example.org"), by: .system("test"))
        let annId = ann.id.uuidString.lowercased()
        let empty = given.get("/participants/\(annId)").bodyText
        #expect(empty.contains("<h2>Notes about this participant</h2>") && empty.contains("No notes about this participant yet."))
        #expect(empty.contains("href=\"/notes/new?participant_id=\(annId)\">Add a note</a>"))
        for day in 1...6 {
            given.post("/notes/new", [("noted_on", "2025-03-0\(day)"), ("text", "Visit \(day)"), ("participant_id", annId)])
        }
        let hallNote = try id(from: given.post("/notes/new", [("noted_on", "2025-04-01"), ("text", "About the hall"),
                                                              ("venue_id", hall.id.uuidString.lowercased())]).header("Location"))
        let about = given.get("/participants/\(annId)").bodyText
        #expect(about.contains("6 in all, the latest here."))
        #expect(about.contains(">Note of 6 Mar 2025</a>") && !about.contains(">Note of 1 Mar 2025</a>"), "the latest five")
        #expect(!about.contains("href=\"/notes/\(hallNote)\""), "a note about the hall is not about Ann")
        #expect(given.get("/venues/\(hall.id.uuidString.lowercased())").bodyText.contains("1 in all."))
        let home = given.get("/").bodyText
        #expect(home.contains("<span class=\"stats__number\">7</span> <span class=\"stats__label\"><a href=\"/notes\">Notes</a></span>"))
        let reader = try await signedIn(.readOnly, given)
        let read = reader.get("/participants/\(annId)").bodyText
        #expect(read.contains("6 in all") && !read.contains("Add a note") && !read.contains("Visit 6"))
    }
}
