import Domain
import Foundation
import HTTPServer
import Testing
import Translations
@testable import WebUI

/// The record kinds' pages, home, settings, sync, imports, export, setup, account and error pages crawled in the
/// pseudo-locale with records in them: every text a person reads is inside ⟦…⟧ but the records' own values.
@Suite struct PseudoLocaleRecordPagesTests {
    /// What the records hold and the organization named (types, roles): never translated.
    private static let recordValues: Set<String> = [
        "Kibera", "Kibera Hall", "1 Market Road", "Amina Odhiambo", "amina@example.org", "+254 712 345 678", "Likes mornings",
        "Youth choir", "Sings on Saturdays", "User ed@example.org", "User ed@example.org (ed@example.org)", "ed@example.org",
        "Amina Odhiambo (amina@example.org)", "Kibera Hall, 1 Market Road",
        // The list's count names its records with pagination's nouns, which the pagination branch marks.
        "participant", "venue", "activity",
    ]

    /// Pages whose remaining English is not on this branch's forms: the home page's kind names, a list's download
    /// box, the notes and photos sections of a record's page, an activity's dates, the refusals of a delete, the error
    /// page's Domain sentence, the imports page's descriptions and the method-not-allowed page.
    private static let notYetMarked: Set<String> = [
        "/", "/activities", "/activities/ID", "/areas/ID/delete", "/imports", "/participants", "/participants/ID",
        "/participants/<unknown id>", "/venues", "/venues/ID", "/venues/ID/delete",
    ]

    private final class Crawl {
        let given: WebHarness
        var found: [String: [String]] = [:]
        let allowed: Set<String>

        init(_ given: WebHarness, allowing allowed: Set<String>) { (self.given, self.allowed) = (given, allowed) }

        func page(_ path: String, as name: String? = nil) {
            record(name ?? path, given.send(Request(method: .get, path: path.split(separator: "?")[0].description,
                                                    query: path.contains("?") ? QueryString.decode(String(path.split(separator: "?")[1])) : Parameters(),
                                                    headers: ["accept-language": PseudoLocale.tag], cookies: given.cookies)))
        }

        func submitted(_ path: String, _ fields: [(String, String)], as name: String, formPath: String? = nil) {
            let form = given.send(Request(method: .get, path: formPath ?? path, headers: ["accept-language": PseudoLocale.tag], cookies: given.cookies))
            var parameters = Parameters(fields.map { (name: $0.0, value: $0.1) })
            if let token = given.csrfToken(from: form) { parameters.append("csrf_token", token) }
            let answer = given.send(Request(method: .post, path: path, headers: ["accept-language": PseudoLocale.tag], cookies: given.cookies,
                                            form: parameters))
            #expect(answer.status == .unprocessableContent, "\(name): \(answer.status)")
            record(name, answer)
        }

        private func record(_ name: String, _ response: Response) {
            let texts = LanguagePageTests.unwrapped(response.bodyText.replacingOccurrences(of: "&#39;", with: "'"), allowing: allowed)
            // Dates and moments are written by the language's formats (a month's name in its own element), not looked up
            // in a catalog.
            found[name] = texts.filter { $0.range(of: #"^([A-Z][a-z]{2} \d{1,2}, \d{4}|[A-Z][a-z]{2})$"#, options: .regularExpression) == nil }
        }
    }

    /// The id in the address a created record's page redirects to.
    private func created(_ given: WebHarness, _ path: String, _ fields: [(String, String)]) throws -> String {
        let answer = given.post(path, fields)
        let location = try #require(answer.headers.first { $0.name == "Location" }?.value, "\(path): \(answer.status) \(answer.bodyText.prefix(400))")
        return String(try #require(location.split(separator: "/").last { $0.count == 36 }))
    }

    @Test func theRecordPagesShowNoUnwrappedText() async throws {
        let given = try await WebHarness(linked: false, languages: try WebHarness.shippedLanguages())
        try given.createUser("ed@example.org", .administrator)
        given.signIn("ed@example.org")
        let types = try given.database.categories(.activityType)
        let roles = try given.database.categories(.participantRole)
        let area = try created(given, "/areas/new", [("name", "Kibera"), ("area_type", "NEIGHBOURHOOD"), ("parent_id", "")])
        let venue = try created(given, "/venues/new", [("name", "Kibera Hall"), ("address", "1 Market Road"), ("geographic_area_id", area),
                                                      ("latitude", "-1.31"), ("longitude", "36.79"), ("venue_type", "PUBLIC_BUILDING")])
        let participant = try created(given, "/participants/new", [("name", "Amina Odhiambo"), ("email", "amina@example.org"),
                                                                  ("phone", "+254 712 345 678"), ("notes", "Likes mornings"), ("home_venue_id", venue)])
        let activity = try created(given, "/activities/new", [("name", "Youth choir"), ("description", "Sings on Saturdays"),
                                                             ("activity_type_id", types[0].id.lowercasedString), ("start_date", "2025-03-01"),
                                                             ("duration", "ongoing"), ("status", "ACTIVE"), ("venue_ids", venue)])
        given.post("/activities/\(activity)/assignments/new", [("participant_id", participant), ("role_id", roles[0].id.lowercasedString)])
        let organization = Set((types + roles).map(\.name))
        let crawl = Crawl(given, allowing: Self.recordValues.union(organization))

        for (collection, id) in [("areas", area), ("venues", venue), ("participants", participant), ("activities", activity)] {
            for path in ["/\(collection)", "/\(collection)/new", "/\(collection)/\(id)", "/\(collection)/\(id)/edit", "/\(collection)/\(id)/delete"] {
                crawl.page(path)
            }
        }
        crawl.page("/activities/\(activity)/assignments/new")
        crawl.submitted("/areas/new", [("name", ""), ("area_type", "")], as: "/areas/new with errors")
        crawl.submitted("/venues/new", [("name", String(repeating: "x", count: 201)), ("latitude", "north")], as: "/venues/new with errors")
        crawl.submitted("/participants/new", [("name", ""), ("email", "not an email"), ("phone", "call me")], as: "/participants/new with errors")
        crawl.submitted("/activities/new", [("name", ""), ("start_date", "2025-13-40"), ("duration", "finite"), ("end_date", "soon")],
                        as: "/activities/new with errors")
        crawl.submitted("/activities/\(activity)/assignments", [("role_id", "")], as: "/activities/…/assignments/new with errors",
                        formPath: "/activities/\(activity)/assignments/new")
        for path in ["/", "/settings/sync", "/settings/privacy", "/settings/backups", "/sync", "/imports", "/export", "/account/password"] {
            crawl.page(path)
        }
        crawl.page("/participants/\(UUID().uuidString.lowercased())", as: "/participants/<unknown id>")

        for (path, texts) in crawl.found.sorted(by: { $0.key < $1.key }) {
            let expectation = { #expect(texts == [], "\(path) shows text outside the catalogs: \(texts)") }
            if Self.notYetMarked.contains(path.replacingOccurrences(of: #"[0-9a-f-]{36}"#, with: "ID", options: .regularExpression)) {
                withKnownIssue("marked outside this branch's part", expectation)
            } else {
                expectation()
            }
        }
    }

    @Test func theSearchPageShowsNoUnwrappedText() async throws {
        let given = try await WebHarness(linked: false, languages: try WebHarness.shippedLanguages())
        try given.createUser("ed@example.org", .administrator)
        given.signIn("ed@example.org")
        let types = try given.database.categories(.activityType)
        let area = try created(given, "/areas/new", [("name", "Kibera"), ("area_type", "NEIGHBOURHOOD"), ("parent_id", "")])
        let venue = try created(given, "/venues/new", [("name", "Kibera Hall"), ("address", "1 Market Road"), ("geographic_area_id", area),
                                                      ("latitude", "-1.31"), ("longitude", "36.79"), ("venue_type", "PUBLIC_BUILDING")])
        _ = try created(given, "/activities/new", [("name", "Kibera choir"), ("description", "Sings on Saturdays"),
                                                   ("activity_type_id", types[0].id.lowercasedString), ("start_date", "2025-03-01"),
                                                   ("duration", "ongoing"), ("status", "ACTIVE"), ("venue_ids", venue)])
        _ = given.get("/activities")  // shows the English flash of the last record created
        let crawl = Crawl(given, allowing: ["Kibera", "Kibera Hall", "Kibera choir", "1 Market Road, Kibera", "User ed@example.org", types[0].name])
        crawl.page("/search?q=Kibera")
        crawl.page("/search?q=", as: "/search with no words")
        for (path, texts) in crawl.found.sorted(by: { $0.key < $1.key }) {
            #expect(texts == [], "\(path) shows text outside the catalogs: \(texts)")
        }
    }

    @Test func theImportReviewWithReferencesToCreateShowsNoUnwrappedText() async throws {
        let given = try await WebHarness(linked: false, languages: try WebHarness.shippedLanguages())
        try given.createUser("ed@example.org", .administrator)
        given.signIn("ed@example.org")
        let csv = "Name,Email,Home venue,Home venue address,Home venue area\nAda,ada@example.org,Hall,1 Road,World / Kenya\n"
        let review = try given.upload("/imports", field: "file", filename: "people.csv", Array(csv.utf8)).header("Location") ?? ""
        let crawl = Crawl(given, allowing: ["people.csv", "Hall", "World / Kenya", "User ed@example.org"])
        crawl.page(review, as: "/imports/ID")
        crawl.submitted(review + "/references", [("create", "home_venue"), ("create", "home_venue_area")],
                        as: "/imports/ID with the areas' type missing", formPath: review)
        // The review's own descriptions are the imports' part; the choices of references to create are wrapped.
        let choices = Set(AreaType.allCases.map(\.label) + ["Choose a type", "Create the 1 missing venue", "Create the 1 missing area"])
        for (path, texts) in crawl.found.sorted(by: { $0.key < $1.key }) {
            #expect(choices.isDisjoint(with: texts), "\(path) shows a choice outside the catalogs: \(texts)")
            withKnownIssue("marked outside this branch's part") { #expect(texts == [], "\(path) shows text outside the catalogs: \(texts)") }
        }
    }

    @Test func theSetupPageShowsNoUnwrappedText() async throws {
        let given = try await WebHarness(linked: false, languages: try WebHarness.shippedLanguages())
        let crawl = Crawl(given, allowing: [])
        crawl.page("/setup")
        crawl.submitted("/setup", [("setup_code", "wrong"), ("name", ""), ("email", "nope"), ("password", "short")], as: "/setup with errors")
        for (path, texts) in crawl.found.sorted(by: { $0.key < $1.key }) {
            #expect(texts == [], "\(path) shows text outside the catalogs: \(texts)")
        }
    }
}
