import Domain
import Foundation
import HTTPServer
import Storage
import Testing

@Suite struct ParticipantPageTests {
    func editorWithVenues() async throws -> (WebHarness, hall: Venue, house: Venue) {
        let given = try await WebHarness()
        try given.createUser("ed@example.org", .editor)
        let area = try given.database.createArea(AreaInput(name: "Nairobi", areaType: "CITY", parentId: ""), by: .system("test"))
        let hall = try given.database.createVenue(VenueInput(name: "Kibera Hall", address: "1 Main Road", areaId: area.id.uuidString), by: .system("test"))
        let house = try given.database.createVenue(VenueInput(name: "Green House", address: "2 Side Road", areaId: area.id.uuidString), by: .system("test"))
        given.signIn("ed@example.org")
        return (given, hall, house)
    }

    @Test func aStaleParticipantEditIsRefusedWithTheCurrentRecordAndWhatWasTyped() async throws {
        let (given, _, _) = try await editorWithVenues()
        let created = given.post("/participants/new", [("name", "Ann Wanjiru"), ("email", "ann@example.org")])
        let path = try #require(created.header("Location"))
        #expect(given.get(path).bodyText.contains("Participant “Ann Wanjiru” created."))
        given.post(path + "/edit", [("name", "Ann W."), ("email", "ann@example.org"), ("version", "1")])
        let stale = given.post(path + "/edit", [("name", "Annie"), ("email", "ann@example.org"), ("version", "1")])
        #expect(stale.status == .conflict)
        #expect(stale.bodyText.contains("Someone else changed this participant while you were editing it"))
        #expect(stale.bodyText.contains("value=\"Annie\"") && stale.bodyText.contains("name=\"version\" value=\"2\""))
        #expect(given.get(path).bodyText.contains("Ann W."))
    }

    /// A form shown again (a refused value, a venue search) goes on from the version it was made from, so a change
    /// saved meanwhile is refused on the next submit, not overwritten.
    @Test func aFormShownAgainKeepsTheVersionItWasMadeFrom() async throws {
        let (given, _, _) = try await editorWithVenues()
        let path = try #require(given.post("/participants/new", [("name", "Ann Wanjiru"), ("email", "ann@example.org")]).header("Location"))
        let ann = try given.database.participant(id: try #require(UUID(uuidString: String(path.split(separator: "/").last!))))
        try given.database.updateParticipant(id: ann.id, ParticipantInput(name: "Ann Wanjiru", email: "ann@example.org", phone: "0712 345 678"),
                                             expectedVersion: 1, by: .system("test"))
        let refused = given.post(path + "/edit", [("name", "Ann W."), ("email", "not an email"), ("version", "1")])
        #expect(refused.status == .unprocessableContent && refused.bodyText.contains("name=\"version\" value=\"1\""))
        let finding = given.post(path + "/edit", [("name", "Ann W."), ("email", "ann@example.org"), ("version", "1"), ("find_venues", "1")])
        #expect(finding.bodyText.contains("name=\"version\" value=\"1\""))
        let stale = given.post(path + "/edit", [("name", "Ann W."), ("email", "ann@example.org"), ("version", "1")])
        #expect(stale.status == .conflict)
        #expect(try given.database.participant(id: ann.id).phone == "0712 345 678")
    }

    @Test func findingVenuesKeepsEveryTypedValueAndListsMatches() async throws {
        let (given, hall, house) = try await editorWithVenues()
        let found = given.post("/participants/new", [("name", "Ann Wanjiru"), ("email", "ann@example.org"), ("phone", "0712 345678"),
                                                      ("notes", "Prefers Swahili"), ("venue_search", "HALL"), ("find_venues", "1")])
        #expect(found.status == .ok)
        let html = found.bodyText
        #expect(html.contains("value=\"Ann Wanjiru\"") && html.contains("value=\"0712 345678\"") && html.contains(">Prefers Swahili</textarea>"))
        #expect(html.contains("value=\"\(hall.id.uuidString.lowercased())\""))
        #expect(!html.contains("value=\"\(house.id.uuidString.lowercased())\""))
        #expect(try given.database.participants(.unfiltered).total == 0, "searching venues saves nothing")
    }

    @Test func savingWithAHomeVenueRecordsHistoryShownNewestFirst() async throws {
        let (given, hall, house) = try await editorWithVenues()
        let created = given.post("/participants/new", [("name", "Ann"), ("email", "ann@example.org"),
                                                        ("home_venue_id", hall.id.uuidString.lowercased()), ("moved_on", "2024-01-01")])
        let path = try #require(created.header("Location"))
        given.post(path + "/edit", [("name", "Ann"), ("email", "ann@example.org"), ("home_venue_id", house.id.uuidString.lowercased()),
                                    ("moved_on", "2025-06-01"), ("version", "1")])
        let detail = given.get(path).bodyText
        let newer = try #require(detail.range(of: "Green House</a> <strong")), older = try #require(detail.range(of: "Kibera Hall</a></td>"))
        #expect(newer.lowerBound < older.lowerBound)
        #expect(detail.contains("<td>1 Jan 2024</td><td>1 Jun 2025</td>"))
    }

    @Test func invalidParticipantShowsEveryErrorAndKeepsValues() async throws {
        let (given, _, _) = try await editorWithVenues()
        let answer = given.post("/participants/new", [("name", ""), ("email", "not-an-email"), ("phone", "call me"),
                                                       ("notes", String(repeating: "x", count: 501)), ("moved_on", "2025-02-30")])
        #expect(answer.status == .unprocessableContent)
        let html = answer.bodyText
        #expect(html.contains("<title>Error: New participant"))
        for anchor in ["#name", "#email", "#phone", "#notes", "#moved_on"] { #expect(html.contains("href=\"\(anchor)\""), "\(anchor)") }
        #expect(html.contains("value=\"not-an-email\"") && html.contains("value=\"call me\"") && html.contains("value=\"2025-02-30\""))
    }

    @Test func pagesPastTheEndAnswerWithALinkBack() async throws {
        let (given, _, _) = try await editorWithVenues()
        given.post("/participants/new", [("name", "Ann"), ("email", "ann@example.org")])
        for path in ["/participants?page=99999", "/participants?page=9223372036854775807", "/venues?page=500", "/activities?page=3"] {
            let answer = given.get(path)
            #expect(answer.status == .ok, "\(path)")
            #expect(path.hasPrefix("/activities") || answer.bodyText.contains("There is no page"), "\(path)")
            // Past the end is not an empty list: no "add the first one" (issue 16). There are no activities at all.
            #expect(path.hasPrefix("/activities") || !answer.bodyText.contains("s yet. "), "\(path)")
        }
        #expect(given.get("/participants?page=7").bodyText.contains("href=\"/participants\" rel=\"prev\""))
    }

    @Test func listSearchesAndDeleteAsksFirst() async throws {
        let (given, _, _) = try await editorWithVenues()
        let path = try #require(given.post("/participants/new", [("name", "Émile Dubois"), ("email", "emile@example.org")]).header("Location"))
        #expect(given.get("/participants?q=emile").bodyText.contains("Émile Dubois"))
        #expect(given.get("/participants?q=zzz").bodyText.contains("No participant matches"))
        #expect(given.get(path + "/delete").bodyText.contains("They have no assignments."))
        #expect(given.post(path + "/delete", []).header("Location") == "/participants")
        #expect(given.get(path).status == .notFound)
    }

    // Email and phone are links a tablet opens in its mail and phone apps; dates read in the order of the reader's language.
    @Test func contactDetailsAreLinksAndDatesFollowTheReadersLanguage() async throws {
        let (given, hall, _) = try await editorWithVenues()
        let created = given.post("/participants/new", [("name", "Ann Wanjiru"), ("email", "ann@example.org"), ("phone", "+44 (0)20 7946-0018"),
                                                        ("home_venue_id", hall.id.uuidString.lowercased())])
        let path = try #require(created.header("Location"))
        let detail = given.get(path).bodyText
        #expect(detail.contains("<a href=\"mailto:ann@example.org\">ann@example.org</a>"))
        #expect(detail.contains("<a href=\"tel:+442079460018\">+44 (0)20 7946-0018</a>"))
        let today = CalendarDate.today()
        func page(inLanguage language: String) -> String {
            given.send(Request(method: .get, path: path, headers: ["accept-language": language], cookies: given.cookies)).bodyText
        }
        #expect(page(inLanguage: "en-GB,en;q=0.9").contains(DateStyle.dayFirst.text(year: today.year, month: today.month, day: today.day)))
        #expect(page(inLanguage: "en-US,en;q=0.9").contains(DateStyle.monthFirst.text(year: today.year, month: today.month, day: today.day)))
        #expect(given.get("/participants").bodyText.contains("<a href=\"tel:+442079460018\">"))
    }

    // Issue 16: deleting needed a detail page. Each list row has Edit and Delete for editors (to the confirmation page).
    @Test func listRowsOfferEditAndDeleteToEditorsOnly() async throws {
        let (given, hall, _) = try await editorWithVenues()
        let ann = try given.database.createParticipant(ParticipantInput(name: "Ann Wanjiru", email: "ann@example.org"), by: .system("test"))
        let id = ann.id.uuidString.lowercased(), venue = hall.id.uuidString.lowercased()
        #expect(given.get("/participants").bodyText.contains(
            "<a href=\"/participants/\(id)/delete\">Delete<span class=\"visually-hidden\"> Ann Wanjiru</span></a>"))
        #expect(given.get("/venues").bodyText.contains("<a href=\"/venues/\(venue)/delete\">Delete<span class=\"visually-hidden\"> Kibera Hall</span></a>"))
        #expect(given.get("/areas").bodyText.contains("/delete\">Delete<span class=\"visually-hidden\"> Nairobi</span></a>"))
        #expect(given.get("/participants/\(id)/delete").status == .ok)
        try given.createUser("reader@example.org", .readOnly)
        given.signIn("reader@example.org")
        #expect(!given.get("/participants").bodyText.contains("/delete\""))
        #expect(!given.get("/areas").bodyText.contains("/delete\""))
    }

    // Issue 16: "Last changed" names who, and the page lists the changes: who, when, which fields.
    @Test func theRecordPageSaysWhoChangedItAndWhichFields() async throws {
        let (given, _, _) = try await editorWithVenues()
        let created = given.post("/participants/new", [("name", "Ann Wanjiru"), ("email", "ann@example.org")])
        let path = try #require(created.header("Location"))
        given.post(path + "/edit", [("name", "Ann Wanjiru"), ("email", "ann@example.org"), ("phone", "0712 345678"), ("notes", "Choir"),
                                    ("version", "1")])
        let page = given.get(path).bodyText
        #expect(page.contains(" by User ed@example.org</dd>"))
        #expect(page.contains("<td>User ed@example.org</td><td>Changed notes, phone</td>"))
        #expect(page.contains("<td>User ed@example.org</td><td>Created</td>"))
        #expect(page.range(of: "Changed notes, phone")!.lowerBound < page.range(of: "<td>Created</td>")!.lowerBound, "newest first")
    }

    // Requirement 14.1 (issue 16): the form asks the server's rules as you go; the answer has the words saving would
    // show, and nothing is saved.
    @Test func aCheckOnlyPostAnswersTheRulesVerdictAndSavesNothing() async throws {
        let (given, _, _) = try await editorWithVenues()
        let answer = given.post("/participants/new", [("name", ""), ("email", "not an address"), ("check_only", "1")])
        #expect(answer.status == .ok && answer.header("Content-Type") == "application/json")
        let errors = try #require((try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any])?["errors"] as? [String: String])
        let saving = given.post("/participants/new", [("name", ""), ("email", "not an address")]).bodyText
            .replacingOccurrences(of: "&#39;", with: "'").replacingOccurrences(of: "&apos;", with: "'").replacingOccurrences(of: "&quot;", with: "\"")
        #expect(errors.keys.sorted() == ["email", "name"])
        #expect(errors.values.allSatisfy { saving.contains($0) })
        #expect(try given.database.participants(.unfiltered).total == 0)
        let fine = given.post("/participants/new", [("name", "Ann"), ("email", "ann@example.org"), ("check_only", "1")])
        #expect(fine.bodyText == #"{"errors":{}}"#)
        #expect(try given.database.participants(.unfiltered).total == 0)
    }

    // Feature: fieldbook, Property 20: Navigation State Preservation (Requirement 13.3, issue 16): going back to a
    // section returns to its last view, for that person only; a list opened without filters is remembered plain.
    @Test func property20_theNavigationAndBreadcrumbsReturnToTheListsLastView() async throws {
        let (given, _, _) = try await editorWithVenues()
        let ann = try given.database.createParticipant(ParticipantInput(name: "Ann Wanjiru", email: "ann@example.org"), by: .system("test"))
        try given.createUser("other@example.org", .editor)
        _ = given.get("/participants?q=ann&sort=email&order=desc")
        let detail = given.get("/participants/\(ann.id.uuidString.lowercased())").bodyText
        let remembered = "/participants?q=ann&amp;sort=email&amp;order=desc"
        #expect(detail.contains("<a href=\"\(remembered)\">Participants</a></li>"), "breadcrumb")
        #expect(detail.contains("href=\"\(remembered)\""), "navigation")
        #expect(given.get("/participants/new").bodyText.contains("<a class=\"link-back\" href=\"\(remembered)\">"))
        given.signIn("other@example.org")
        #expect(!given.get("/").bodyText.contains(remembered), "someone else's view is not theirs")
        given.signIn("ed@example.org")
        _ = given.get("/participants")
        #expect(!given.get("/").bodyText.contains("q=ann"), "a plain list is remembered plain")
    }
}
