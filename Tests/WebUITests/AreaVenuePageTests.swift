import Domain
import Foundation
import HTTPServer
import Storage
import Testing

@Suite struct AreaVenuePageTests {
    func signedInEditor() async throws -> WebHarness {
        let given = try await WebHarness()
        try given.createUser("ed@example.org", .editor)
        given.signIn("ed@example.org")
        return given
    }

    func id(from location: String?) throws -> String {
        try #require(location?.split(separator: "/").last.map(String.init))
    }

    @Test func areasAreListedAsNestedListsAndCreatedThroughTheForm() async throws {
        let given = try await signedInEditor()
        #expect(given.get("/areas").bodyText.contains("No geographic areas yet"))
        let world = try id(from: given.post("/areas/new", [("name", "World"), ("area_type", "WORLD"), ("parent_id", "")]).header("Location"))
        given.post("/areas/new", [("name", "Kenya"), ("area_type", "COUNTRY"), ("parent_id", world)])
        let html = given.get("/areas").bodyText
        #expect(html.contains("<ul class=\"tree\">"))
        let worldAt = try #require(html.range(of: ">World</a>")), kenyaAt = try #require(html.range(of: ">Kenya</a>"))
        #expect(worldAt.upperBound < kenyaAt.lowerBound)
        #expect(html.components(separatedBy: "<ul class=\"tree\">").count == 3, "Kenya's list is nested inside World's")
    }

    @Test func invalidAreaKeepsTypedValuesAndACycleIsExplained() async throws {
        let given = try await signedInEditor()
        let empty = given.post("/areas/new", [("name", "Lakeside"), ("area_type", ""), ("parent_id", "")])
        #expect(empty.status == .unprocessableContent)
        #expect(empty.bodyText.contains("<title>Error: New area"))
        #expect(empty.bodyText.contains("value=\"Lakeside\""))
        #expect(empty.bodyText.contains("href=\"#area_type\""))
        let world = try id(from: given.post("/areas/new", [("name", "World"), ("area_type", "WORLD"), ("parent_id", "")]).header("Location"))
        let kenya = try id(from: given.post("/areas/new", [("name", "Kenya"), ("area_type", "COUNTRY"), ("parent_id", world)]).header("Location"))
        let edit = given.get("/areas/\(world)/edit").bodyText
        #expect(!edit.contains("value=\"\(kenya)\""), "an area's own descendants are not offered as its parent")
        let cycle = given.post("/areas/\(world)/edit", [("name", "World"), ("area_type", "WORLD"), ("parent_id", kenya)])
        #expect(cycle.status == .unprocessableContent)
        #expect(cycle.bodyText.contains("cannot be its parent"))
    }

    @Test func venueFormValidatesAndTheListFilters() async throws {
        let given = try await signedInEditor()
        let city = try id(from: given.post("/areas/new", [("name", "Nairobi"), ("area_type", "CITY"), ("parent_id", "")]).header("Location"))
        let bad = given.post("/venues/new", [("name", "Hall"), ("address", ""), ("geographic_area_id", city),
                                              ("latitude", "95"), ("longitude", "36.8"), ("venue_type", "")])
        #expect(bad.status == .unprocessableContent)
        #expect(bad.bodyText.contains("Latitude must be between -90 and 90"))
        #expect(bad.bodyText.contains("Enter the venue&#39;s address"))
        #expect(bad.bodyText.contains("value=\"95\"") && bad.bodyText.contains("value=\"Hall\""))
        let created = given.post("/venues/new", [("name", "Kibera Hall"), ("address", "1 Main Road"), ("geographic_area_id", city),
                                                  ("latitude", "-1.3"), ("longitude", "36.8"), ("venue_type", "PUBLIC_BUILDING")])
        let venue = try id(from: created.header("Location"))
        #expect(given.get("/venues/\(venue)").bodyText.contains("-1.30000, 36.80000"))
        #expect(given.get("/venues?q=KIBERA").bodyText.contains("Kibera Hall"))
        #expect(given.get("/venues?q=nothing").bodyText.contains("No venue matches these filters"))
        #expect(given.get("/venues?venue_type=PRIVATE_RESIDENCE").bodyText.contains("No venue matches"))
        // The pages filter with the API's parameter names, and the area page links to its venues with them.
        let town = try id(from: given.post("/areas/new", [("name", "Mombasa"), ("area_type", "CITY"), ("parent_id", "")]).header("Location"))
        #expect(given.get("/venues?area_id=\(city)").bodyText.contains("Kibera Hall"))
        #expect(given.get("/venues?area_id=\(town)").bodyText.contains("No venue matches"))
        #expect(given.get("/venues").bodyText.contains("name=\"area_id\""))
        #expect(given.get("/areas/\(city)").bodyText.contains("href=\"/venues?area_id=\(city)\""))
    }

    @Test func referencedAreaAndVenueAreNotDeleted() async throws {
        let given = try await signedInEditor()
        let city = try id(from: given.post("/areas/new", [("name", "Nairobi"), ("area_type", "CITY"), ("parent_id", "")]).header("Location"))
        let venue = try id(from: given.post("/venues/new", [("name", "Kibera Hall"), ("address", "1 Main Road"),
                                                              ("geographic_area_id", city)]).header("Location"))
        let confirm = given.get("/areas/\(city)/delete").bodyText
        #expect(confirm.contains("cannot be deleted because it has 1 venue in it"))
        #expect(confirm.contains("href=\"/venues/\(venue)\""))
        #expect(given.post("/areas/\(city)/delete", [], formPath: "/areas").status == .conflict)
        let ann = try given.database.createParticipant(ParticipantInput(name: "Ann Wanjiru", email: "ann@example.org", homeVenueId: venue),
                                                       by: .system("test"))
        let refusal = given.get("/venues/\(venue)/delete").bodyText
        #expect(refusal.contains("1 participant lives there"))
        #expect(refusal.contains("href=\"/participants/\(ann.id.uuidString.lowercased())\">Ann Wanjiru</a>"))
        #expect(given.post("/venues/\(venue)/delete", [], formPath: "/venues").status == .conflict)
        try given.database.deleteParticipant(id: ann.id, by: .system("test"))
        #expect(given.post("/venues/\(venue)/delete", []).header("Location") == "/venues")
        #expect(given.post("/areas/\(city)/delete", []).header("Location") == "/areas")
    }

    @Test func aVenueOnAVisitListIsRefusedWithItsReasonNotOfferedAgain() async throws {
        let given = try await signedInEditor()
        let city = try id(from: given.post("/areas/new", [("name", "Nairobi"), ("area_type", "CITY"), ("parent_id", "")]).header("Location"))
        let venue = try id(from: given.post("/venues/new", [("name", "Kibera Hall"), ("address", "1 Main Road"),
                                                              ("geographic_area_id", city)]).header("Location"))
        let organizer = try given.database.createUser(NewUserInput(name: "Organizer", email: "org@example.org", role: "editor",
                                                                   password: "correct horse 1", passwordConfirmation: "correct horse 1"),
                                                      by: .system("test"))
        let venueId = try #require(UUID(uuidString: venue))
        _ = try given.database.createVisitList(VisitListInput(name: "Round", visitDate: "2025-06-01", assigneeId: organizer.id.uuidString,
                                                              status: "PLANNED"),
                                               stops: .picked([StopTarget(venueId: venueId, participantId: nil).token]), by: .system("test"))
        let refused = given.post("/venues/\(venue)/delete", [], formPath: "/venues")
        #expect(refused.status == .conflict)
        #expect(refused.bodyText.contains("cannot be deleted because it is a stop on a visit list"))
        #expect(!given.get("/venues/\(venue)/delete").bodyText.contains("Delete venue"))
        #expect(try given.database.venue(id: venueId).name == "Kibera Hall")
    }

    @Test func aStaleVenueEditIsRefusedAndKeepsWhatWasTyped() async throws {
        let given = try await signedInEditor()
        let city = try id(from: given.post("/areas/new", [("name", "Nairobi"), ("area_type", "CITY"), ("parent_id", "")]).header("Location"))
        let venue = try id(from: given.post("/venues/new", [("name", "Hall"), ("address", "1 Road"), ("geographic_area_id", city)]).header("Location"))
        given.post("/venues/\(venue)/edit", [("name", "Town Hall"), ("address", "1 Road"), ("geographic_area_id", city), ("version", "1")])
        let stale = given.post("/venues/\(venue)/edit", [("name", "Old Hall"), ("address", "1 Road"), ("geographic_area_id", city), ("version", "1")])
        #expect(stale.status == .conflict)
        #expect(stale.bodyText.contains("Someone else changed this venue while you were editing it"))
        #expect(stale.bodyText.contains("value=\"Old Hall\""))
        #expect(try given.database.venue(id: try #require(UUID(uuidString: venue))).name == "Town Hall")
    }

    @Test func readOnlyUsersCannotChangeAreasOrVenues() async throws {
        let given = try await WebHarness()
        try given.createUser("reader@example.org", .readOnly)
        given.signIn("reader@example.org")
        for path in ["/areas/new", "/venues/new"] { #expect(given.get(path).status == .forbidden) }
        #expect(!given.get("/areas").bodyText.contains("/areas/new"))
    }
}
