import Domain
import Foundation
import HTTPServer
import Storage
import Testing

/// Every address a page links to or posts to is built from the route table, so following them never finds a missing page.
@Suite struct PageLinkTests {
    @Test func everyLinkAndFormOnTheAdministratorsPagesLeadsToARoute() async throws {
        let given = try await WebHarness()
        try given.createUser("admin@example.org", .administrator)
        let area = try given.database.createArea(AreaInput(name: "Nairobi", areaType: "CITY", parentId: ""), by: .system("test"))
        let hall = try given.database.createVenue(VenueInput(name: "Kibera Hall", address: "1 Main Road", areaId: area.id.uuidString),
                                                  by: .system("test"))
        let ann = try given.database.createParticipant(ParticipantInput(name: "Ann Wanjiru", email: "ann@example.org",
                                                                        homeVenueId: hall.id.uuidString), by: .system("test"))
        try given.database.createCategory(.activityType, CategoryInput(name: "Picnic"), by: .system("test"))
        given.signIn("admin@example.org")
        let activity = try #require(given.post("/activities/new", [
            ("name", "Choir"), ("activity_type_id", try given.database.categories(.activityType)[0].id.uuidString.lowercased()),
            ("status", "ACTIVE"), ("start_date", "2025-01-12"), ("duration", "ongoing"), ("venue_ids", hall.id.uuidString.lowercased()),
        ]).header("Location"))
        given.post(activity + "/assignments", [("participant_id", ann.id.uuidString.lowercased()),
                                               ("role_id", try given.database.categories(.participantRole)[0].id.uuidString.lowercased())],
                   formPath: activity + "/assignments/new")

        var seen: Set<String> = [], queue = ["/"], actions: Set<String> = []
        while let path = queue.popLast(), seen.count < 200 {
            guard seen.insert(path).inserted else { continue }
            let page = given.get(path)
            #expect(page.status == .ok, "GET \(path), linked from a page")
            if let download = page.stream {  // an export: read to its end, as a browser saves it
                #expect(download.readToEnd()?.failed == false, "GET \(path), a download")
                continue
            }
            let html = page.bodyText
            #expect(!html.contains("href=\"\"") && !html.contains("action=\"\""), "an address missing from the view of \(path)")
            actions.formUnion(Self.postedForms(in: html).flatMap { Self.addresses(in: $0, attribute: "action") })
            queue += Self.addresses(in: html, attribute: "href").filter { !seen.contains($0) && $0 != "/logout" }
        }
        #expect(seen.contains(activity + "/assignments/new") && seen.contains("/venues?area_id=\(area.id.uuidString.lowercased())"))
        #expect(actions.contains("/sync/run") && actions.contains(activity + "/completion"))
        for action in actions where action != "/logout" {
            // Without the form's token the route refuses (403); a missing route would be 404, a GET-only one 405.
            let answer = given.send(Request(method: .post, path: String(action.split(separator: "?")[0]), cookies: given.cookies))
            #expect(answer.status == .forbidden, "POST \(action), a form's action")
        }
    }

    /// The opening tags of the forms that post.
    static func postedForms(in html: String) -> [String] {
        html.components(separatedBy: "<form").dropFirst().map { String($0.prefix { $0 != ">" }) }.filter { $0.contains("method=\"post\"") }
    }

    /// The page's own addresses in `attribute` (not stylesheets, scripts or fragments).
    static func addresses(in html: String, attribute: String) -> [String] {
        html.components(separatedBy: "\(attribute)=\"").dropFirst().compactMap { rest in
            let value = String(rest.prefix { $0 != "\"" }).replacingOccurrences(of: "&amp;", with: "&")
            // The JSON twins a page links to (analytics) are the API's routes, served by its own surface and tested there.
            guard value.hasPrefix("/"), !value.hasPrefix("/static/"), !value.hasPrefix("/api/") else { return nil }
            return value
        }
    }
}
