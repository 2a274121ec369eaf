import Domain
import Foundation
import HTTPServer
import Storage
import Testing
@testable import WebUI

/// Issue 41 item 5: one search box in the header finds participants, venues, activities and areas, grouped by kind.
@Suite struct SearchPageTests {
    let given: WebHarness
    let system = Actor.system("test")

    init() async throws {
        given = try await WebHarness()
        try given.createUser("ed@example.org", .editor)
        try given.createUser("reader@example.org", .readOnly)
        let area = try given.database.createArea(AreaInput(name: "Riverside Ward", areaType: "NEIGHBOURHOOD", parentId: ""), by: system)
        for number in 1...7 {
            try given.database.createVenue(VenueInput(name: "Riverside Hall \(number)", address: "\(number) Quay Road", areaId: area.id.uuidString), by: system)
        }
        try given.database.createVenue(VenueInput(name: "Town Hall", address: "2 Riverside Street", areaId: area.id.uuidString), by: system)
        try given.database.createParticipant(ParticipantInput(name: "Ann Wanjiru", email: "ann@riverside.example", phone: "0712 345678"), by: system)
        try given.database.createParticipant(ParticipantInput(name: "Bo Riverside", email: "bo@example.org"), by: system)
        let type = try given.database.categories(.activityType)[0].id.uuidString
        try given.database.createActivity(ActivityInput(name: "Riverside choir", typeId: type, startDate: "2025-01-01", duration: "ongoing",
                                                        status: "ACTIVE"), by: system)
    }

    /// The headings and counts of the kinds found, in page order.
    func headings(_ html: String) -> [String] {
        html.components(separatedBy: "<h2 id=\"search-").dropFirst().map { String($0.prefix { $0 != "<" }) }
    }

    @Test func resultsAreGroupedByKindEachWithItsCountAndALinkToItsListWhenItHasMore() {
        given.signIn("ed@example.org")
        let page = given.get("/search?q=riverside")
        #expect(page.status == .ok)
        let html = page.bodyText
        #expect(headings(html) == ["participants\">Participants ", "venues\">Venues ", "activities\">Activities ", "areas\">Areas "])
        #expect(html.contains("(2 participants)") && html.contains("(8 venues)") && html.contains("(1 activity)") && html.contains("(1 area)"))
        // Eight venues match (seven by name, one by address): the first five by name are shown, and the list has all.
        #expect(html.components(separatedBy: ">Riverside Hall ").count - 1 == 5 && !html.contains(">Town Hall<"))
        #expect(html.contains("href=\"/venues?q=riverside\"") && html.contains("See all 8 venues"))
        #expect(!html.contains("/participants?q=riverside"), "every participant found is shown: no link to more")
        #expect(html.contains("ann@riverside.example"), "an editor sees the email that matched")
        #expect(html.contains("<title>Search results for “riverside” – Fieldbook</title>"))
        #expect(html.contains("value=\"riverside\""), "the header's box keeps the words")
    }

    @Test func aHiddenEmailIsNeitherShownNorSearched() throws {
        given.signIn("reader@example.org")
        let byEmail = given.get("/search?q=ann%40riverside").bodyText
        #expect(!byEmail.contains("Ann Wanjiru") && byEmail.contains("No participant, venue, activity or area matches"))
        let byWord = given.get("/search?q=riverside").bodyText
        #expect(!byWord.contains("Ann Wanjiru") && byWord.contains("Bo Riverside"), "the email's words find nobody, the name's do")
        #expect(!byWord.contains("bo@example.org"), "a hidden email is not shown beside a name")
        #expect(byWord.contains("(1 participant)"))
        let listed = given.get("/participants?q=riverside").bodyText
        #expect(!listed.contains("Ann Wanjiru") && listed.contains("Bo Riverside"), "the same as the participant list finds")
    }

    @Test func wordsThatCannotBeSearchedSayWhatToType() {
        given.signIn("ed@example.org")
        let empty = given.get("/search")
        #expect(empty.status == .ok && empty.bodyText.contains("Type a name, email or address to search for."))
        let short = given.get("/search?q=%20a%20")
        #expect(short.status == .badRequest && short.bodyText.contains("Type at least two letters"))
        #expect(short.bodyText.contains("<title>Error: Search – Fieldbook</title>"))
        let long = given.get("/search?q=" + String(repeating: "a", count: SearchTerms.longest + 1))
        #expect(long.status == .badRequest && long.bodyText.contains("Type at most 200 characters"))
        let none = given.get("/search?q=zzzz")
        #expect(none.status == .ok && none.bodyText.contains("No participant, venue, activity or area matches these words"))
    }

    @Test func everySignedInPageHasTheLabelledBoxThatSlashFocuses() {
        #expect(!given.get("/login").bodyText.contains("id=\"site-search\""), "signed out: nothing to search")
        given.signIn("reader@example.org")
        for path in ["/", "/participants", "/venues", "/search"] {
            let html = given.get(path).bodyText
            #expect(html.contains("<form class=\"site-search\" method=\"get\" action=\"/search\" role=\"search\">"), "\(path)")
            #expect(html.contains("<label class=\"site-search__label\" for=\"site-search\">Search records</label>"))
            #expect(html.contains("id=\"site-search\" type=\"search\" name=\"q\"") && html.contains("aria-keyshortcuts=\"/\""))
        }
    }
}
