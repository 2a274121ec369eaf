import Domain
import Foundation
import HTTPServer
import Storage
import Testing
@testable import WebUI

/// Issue 16: what read-only users see of participants follows the administrators' privacy setting (hidden by default).
@Suite struct PrivacyPageTests {
    let given: WebHarness
    let ann: Participant
    let hall: Venue

    init() async throws {
        given = try await WebHarness()
        try given.createUser("admin@example.org", .administrator)
        try given.createUser("ed@example.org", .editor)
        try given.createUser("reader@example.org", .readOnly)
        let area = try given.database.createArea(AreaInput(name: "City", areaType: "CITY", parentId: ""), by: .system("test"))
        hall = try given.database.createVenue(VenueInput(name: "Kibera Hall", address: "1 Main Road", areaId: area.id.uuidString), by: .system("test"))
        ann = try given.database.createParticipant(ParticipantInput(name: "Ann Wanjiru", email: "ann@example.org", phone: "0712 345678",
                                                                    notes: "Prefers Swahili", homeVenueId: hall.id.uuidString), by: .system("test"))
    }

    var annPath: String { "/participants/\(ann.id.uuidString.lowercased())" }
    var hallPath: String { "/venues/\(hall.id.uuidString.lowercased())" }

    @Test func readOnlyUsersSeeNoContactsNotesOrHomesUntilAnAdministratorAllowsThem() throws {
        given.signIn("reader@example.org")
        for html in [given.get("/participants").bodyText, given.get(annPath).bodyText, given.get(hallPath).bodyText] {
            #expect(!html.contains("ann@example.org") && !html.contains("0712 345678") && !html.contains("Prefers Swahili"))
        }
        #expect(!given.get(annPath).bodyText.contains("Kibera Hall"), "the home venue")
        #expect(!given.get(hallPath).bodyText.contains("Ann Wanjiru"), "who lives there")
        #expect(given.get(annPath).bodyText.contains("Hidden from read-only users"))
        #expect(!given.get("/participants").bodyText.contains("Living in area"), "a filter by home would tell it")
        #expect(!given.get("/participants?q=ann%40example").bodyText.contains("Ann Wanjiru"), "a search by a guessed email tells nothing")
        #expect(given.get("/participants?q=wanjiru").bodyText.contains("Ann Wanjiru"), "names are still searched")

        given.signIn("ed@example.org")
        #expect(given.get(annPath).bodyText.contains("ann@example.org") && given.get(hallPath).bodyText.contains("Ann Wanjiru"))

        given.signIn("admin@example.org")
        #expect(given.get("/settings/privacy").status == .ok)
        given.post("/settings/privacy", [("read_only_contacts", "on"), ("read_only_homes", "on")])
        given.signIn("reader@example.org")
        let allowed = given.get(annPath).bodyText
        #expect(allowed.contains("ann@example.org") && allowed.contains("Kibera Hall") && !allowed.contains("Prefers Swahili"))
        #expect(try given.database.mapSettings().homesForReadOnly, "the map's homes layer follows the same setting")
    }

    // A lost edit of a participant shows both values on the conflicts page, which everyone signed in may open.
    @Test func conflictValuesOfHiddenDetailsReadHidden() {
        let text = ConflictValueText(database: given.database, seen: ParticipantVisibility(contacts: false, notes: true, homes: false))
        #expect(text.value(.string("ann@example.org"), field: "email", of: "participant") == "(hidden)")
        #expect(text.value(.string(hall.id.uuidString.lowercased()), field: "home_venue_id", of: "participant") == "(hidden)")
        #expect(text.value(.string("Choir"), field: "notes", of: "participant") == "Choir")
        #expect(text.value(.string("2025-01-01"), field: "effective_from", of: "participant_address") == "(hidden)")
        #expect(text.value(.string("ann@example.org"), field: "email", of: "user") == "ann@example.org")
    }

    @Test func onlyAdministratorsChangeIt() {
        given.signIn("ed@example.org")
        #expect(given.get("/settings/privacy").status == .forbidden)
    }
}
