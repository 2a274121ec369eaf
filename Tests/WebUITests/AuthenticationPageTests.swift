import Domain
import Foundation
import HTTPServer
import Testing
@testable import WebUI

@Suite struct AuthenticationPageTests {
    @Test func setupNeedsTheOneTimeCodeAndWorksOnce() async throws {
        let given = try await WebHarness(linked: false)
        let code = given.setupCode.generate()
        #expect(given.get("/").header("Location") == "/setup")
        let wrong = given.post("/setup", [("setup_code", "AAAA-AAAA"), ("name", "Ada"), ("email", "ada@example.org"),
                                          ("password", WebHarness.password), ("password_confirmation", WebHarness.password)])
        #expect(wrong.status == .unprocessableContent)
        #expect(wrong.bodyText.contains("<title>Error: Set up Fieldbook"))
        #expect(wrong.bodyText.contains("href=\"#setup_code\""))
        #expect(wrong.bodyText.contains("value=\"ada@example.org\""))
        // Typed without its hyphen, in lower case, with a space (issue 16): still the code.
        let typed = code.lowercased().replacingOccurrences(of: "-", with: "").prefix(4) + " " + code.lowercased().suffix(4)
        let right = given.post("/setup", [("setup_code", String(typed)), ("name", "Ada"), ("email", "ada@example.org"),
                                          ("password", WebHarness.password), ("password_confirmation", WebHarness.password)])
        #expect(right.status == .seeOther)
        #expect(given.get("/").status == .ok)
        #expect(try given.database.users().map(\.role) == [.administrator])
        #expect(given.get("/setup").header("Location") == "/login")
    }

    // Issue 36: a linked node bringing its first copy of the hub offers no setup, says how far it has got, and a try with
    // an account not here yet is told so and not counted towards the throttle; a wrong password of an account here is.
    @Test func aLinkedNodeWithoutAccountsOffersNoSetupAndSaysItsAccountsAreArriving() async throws {
        let given = try await WebHarness()
        _ = given.setupCode.generate()
        #expect(given.get("/").header("Location")?.hasPrefix("/login") == true)
        #expect(given.get("/setup").header("Location") == "/login")
        let login = given.get("/login")
        #expect(login.status == .ok && login.bodyText.contains("bringing its records and accounts from its hub"))
        for _ in 0..<6 {
            let tried = given.post("/login", [("email", "hub-admin@example.org"), ("password", WebHarness.password),
                                              ("resume", "kept-form-key")])
            #expect(tried.status == .unprocessableContent && tried.bodyText.contains("have not all arrived here yet"))
            // The form kept while signed out still waits for the next try.
            #expect(tried.bodyText.contains("name=\"resume\" value=\"kept-form-key\""))
        }
        try given.createUser("here@example.org", .editor)
        let statuses = (0..<6).map { _ in given.post("/login", [("email", "here@example.org"), ("password", "not the password")]).status }
        #expect(statuses.last == .tooManyRequests)
    }

    @Test func wrongPasswordShowsTheErrorSummaryAndKeepsTheEmail() async throws {
        let given = try await WebHarness()
        try given.createUser("ed@example.org", .editor)
        let answer = given.post("/login", [("email", "ed@example.org"), ("password", "not the password")])
        #expect(answer.status == .unprocessableContent)
        #expect(answer.bodyText.contains("<title>Error: Sign in"))
        #expect(answer.bodyText.contains("class=\"error-summary\""))
        #expect(answer.bodyText.contains("href=\"#password\""))
        #expect(answer.bodyText.contains("value=\"ed@example.org\""))
        #expect(answer.bodyText.contains("aria-describedby=\"password-error\""))
        #expect(given.cookies["fieldbook_session"] == nil)
    }

    @Test func loginStartsASessionAndLogoutEndsIt() async throws {
        let given = try await WebHarness()
        try given.createUser("ed@example.org", .editor)
        let login = given.post("/login", [("email", "ed@example.org"), ("password", WebHarness.password), ("next", "/roles")])
        #expect(login.header("Location") == "/roles")
        let cookie = try #require(login.headers.first { $0.value.hasPrefix("fieldbook_session=") }?.value)
        #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"))
        #expect(given.get("/").status == .ok)
        let logout = given.post("/logout", [], formPath: "/")
        #expect(logout.header("Location") == "/login")
        #expect(given.get("/").header("Location")?.hasPrefix("/login") == true)
    }

    @Test func loginNeverRedirectsToAnotherSite() {
        #expect(LoginPages.safeNext("//evil.example/") == "/")
        #expect(LoginPages.safeNext("https://evil.example/") == "/")
        #expect(LoginPages.safeNext("/\\evil.example") == "/")
        #expect(LoginPages.safeNext("/roles?page=2") == "/roles?page=2")
    }

    // Issue 36, item 12: browsers drop the tab and read `/<TAB>/evil.example/` as `//evil.example/`; a CR or LF
    // left the 303 without a Location at all.
    @Test func aNextThatABrowserReadsAsAnotherSiteIsNeitherCarriedNorFollowed() async throws {
        let given = try await WebHarness()
        try given.createUser("ed@example.org", .editor)
        let form = given.get("/login?next=/%09/evil.example/").bodyText
        #expect(form.contains("name=\"next\" value=\"\""))
        for next in ["/\t/evil.example/", "/\r\n/evil.example/", "/roles\r\nSet-Cookie: x=1"] {
            let login = given.post("/login", [("email", "ed@example.org"), ("password", WebHarness.password), ("next", next)])
            #expect(login.status == .seeOther && login.header("Location") == "/", "\(next.debugDescription)")
            given.post("/logout", [], formPath: "/")
        }
    }

    @Test func repeatedFailuresAreSlowedDown() async throws {
        let given = try await WebHarness()
        try given.createUser("ed@example.org", .editor)
        for _ in 0..<LoginThrottle.freeAttempts {
            #expect(given.post("/login", [("email", "ed@example.org"), ("password", "wrong")]).status == .unprocessableContent)
        }
        let throttled = given.post("/login", [("email", "ed@example.org"), ("password", WebHarness.password)])
        #expect(throttled.status == .tooManyRequests)
        #expect(throttled.bodyText.contains("Too many failed sign-in attempts. Wait"))
        #expect(given.cookies["fieldbook_session"] == nil)
    }

    // Issue 16: five wrong tries by one person on a shared laptop blocked everyone there.
    @Test func onePersonsFailuresDoNotBlockOthersOnTheSameLaptop() async throws {
        let given = try await WebHarness()
        try given.createUser("ed@example.org", .editor)
        try given.createUser("ann@example.org", .editor)
        for _ in 0..<LoginThrottle.freeAttempts {
            #expect(given.post("/login", [("email", "ed@example.org"), ("password", "wrong")]).status == .unprocessableContent)
        }
        #expect(given.post("/login", [("email", "ed@example.org"), ("password", WebHarness.password)]).status == .tooManyRequests)
        #expect(given.post("/login", [("email", "ann@example.org"), ("password", WebHarness.password)]).status == .seeOther)
    }

    @Test func aPostWithoutAValidCSRFTokenIsRefused() async throws {
        let given = try await WebHarness()
        try given.createUser("ed@example.org", .editor)
        given.signIn("ed@example.org")
        let missing = given.post("/activity-types/new", [("name", "Picnic")], csrf: "")
        #expect(missing.status == .forbidden)
        let forged = given.post("/activity-types/new", [("name", "Picnic")], csrf: String(repeating: "a", count: 43))
        #expect(forged.status == .forbidden)
        #expect(try given.database.categories(.activityType).contains { $0.name == "Picnic" } == false)
        let anonymous = try await WebHarness()
        try anonymous.createUser("ed@example.org", .editor)
        #expect(anonymous.post("/login", [("email", "ed@example.org"), ("password", WebHarness.password)], csrf: "x").status == .forbidden)
    }

    @Test func signedOutVisitorsAreSentToLogin() async throws {
        let given = try await WebHarness()
        try given.createUser("ed@example.org", .editor)
        #expect(given.get("/roles?page=2").header("Location") == "/login?next=%2Froles%3Fpage%3D2")
    }
}

/// The first run (issue 16): what a new administrator is told to do first.
@Suite struct FirstRunPageTests {
    @Test func homeCountsLinkToTheirListPages() async throws {
        let given = try await WebHarness()
        try given.createUser("admin@example.org", .administrator)
        given.signIn("admin@example.org")
        let home = given.get("/").bodyText
        for (path, label) in [("/activities", "Activities"), ("/participants", "Participants"), ("/venues", "Venues"),
                              ("/areas", "Geographic areas"), ("/activity-types", "Activity types"), ("/roles", "Roles"),
                              ("/visit-lists", "Visit lists")] {
            #expect(home.contains("<span class=\"stats__label\"><a href=\"\(path)\">\(label)</a></span>"), "\(path)")
        }
    }

    @Test func homeListsTheSetUpOrderUntilEveryStepHasRecordsAndTheVenueFormLinksToAreas() async throws {
        let given = try await WebHarness()
        try given.createUser("admin@example.org", .administrator)
        try given.createUser("reader@example.org", .readOnly)
        given.signIn("admin@example.org")
        let home = given.get("/").bodyText
        #expect(home.contains("Getting started"))
        let order = ["Add an area", "Add a venue", "Add a participant", "Add an activity"].map { home.range(of: $0)?.lowerBound }
        #expect(order.allSatisfy { $0 != nil } && order.map { $0! } == order.map { $0! }.sorted())
        #expect(given.get("/venues/new").bodyText.contains("there are no areas yet. <a href=\"/areas/new\">Add an area</a> first"))
        let area = try given.database.createArea(AreaInput(name: "City", areaType: "CITY", parentId: ""), by: .system("test"))
        #expect(given.get("/").bodyText.contains("cities, then neighbourhoods inside them. <strong>Done.</strong>"))
        #expect(!given.get("/venues/new").bodyText.contains("there are no areas yet"))
        let venue = try given.database.createVenue(VenueInput(name: "Hall", address: "1 Road", areaId: area.id.uuidString), by: .system("test"))
        try given.database.createParticipant(ParticipantInput(name: "Ann", email: "ann@example.org", homeVenueId: venue.id.uuidString), by: .system("test"))
        try given.database.createActivity(ActivityInput(name: "Choir", typeId: try given.database.categories(.activityType)[0].id.uuidString,
                                                        startDate: "2025-01-01", duration: "ongoing", status: "ACTIVE",
                                                        venueIds: [venue.id.uuidString]), by: .system("test"))
        #expect(!given.get("/").bodyText.contains("Getting started"))
        given.signIn("reader@example.org")
        #expect(!given.get("/").bodyText.contains("Getting started"))
    }
}

/// A person changing their own password (issue 16).
@Suite struct OwnPasswordPageTests {
    @Test func theCurrentPasswordIsNeededAndOtherSessionsEndButThisOneStays() async throws {
        let given = try await WebHarness()
        try given.createUser("ann@example.org", .readOnly)
        given.signIn("ann@example.org")
        let otherBrowser = given.cookies  // Ann signed in on another tablet
        given.signIn("ann@example.org")
        #expect(given.get("/").bodyText.contains("href=\"/account/password\">Change your password</a>"))
        let wrong = given.post("/account/password", [("current_password", "not it"), ("password", "a brand new password"),
                                                      ("password_confirmation", "a brand new password")])
        #expect(wrong.status == .unprocessableContent)
        #expect(wrong.bodyText.contains("That is not your current password. If you have forgotten it, ask an administrator to reset it"))
        #expect(!wrong.bodyText.contains("a brand new password"), "passwords are never typed back")
        let right = given.post("/account/password", [("current_password", WebHarness.password), ("password", "a brand new password"),
                                                      ("password_confirmation", "a brand new password")])
        #expect(right.header("Location") == "/")
        #expect(given.get("/").status == .ok, "this session stays")
        given.cookies = otherBrowser
        #expect(given.get("/").header("Location")?.hasPrefix("/login") == true, "the other session ended")
        #expect(try given.database.verifyCredentials(email: "ann@example.org", password: "a brand new password") != nil)
    }
}

/// Issue 16: pages name their icon, and the icon is served as SVG.
@Suite struct FaviconTests {
    @Test func everyPageNamesTheIconAndItIsServed() async throws {
        let given = try await WebHarness(linked: false)
        let page = given.get("/setup").bodyText
        let href = try #require(page.range(of: #"<link rel="icon" href="([^"]+)" type="image/svg\+xml">"#, options: .regularExpression)
            .map { String(page[$0]).components(separatedBy: "\"")[3] })
        let icon = try #require(given.web.staticFiles.response(for: Request(method: .get, path: href)))
        #expect(icon.header("Content-Type")?.hasPrefix("image/svg+xml") == true)
        #expect(icon.bodyText.contains("<svg") && icon.bodyText.contains("<title>Fieldbook</title>"))
    }
}
