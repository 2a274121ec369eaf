import Domain
import Foundation
import HTTPServer
import Storage
import Testing
@testable import WebUI

/// A form sent after its session ended (idle, signed out, a password reset) keeps what was typed: the sign-in page
/// says why, and signing in again brings the form back filled in, with nothing saved until Save is pressed again.
@Suite struct SessionEndedFormTests {
    static let typed = [("name", "Amina Diallo"), ("email", "amina@example.org"), ("phone", ""),
                        ("notes", "Met at the door; \"call\" after 6"), ("home_venue_id", ""), ("moved_on", "")]

    /// A signed-in editor with the new-participant form open, whose session then ends; returns the form's token.
    private func editorWhoseSessionEnded(_ given: WebHarness) throws -> String {
        try given.createUser("ed@example.org", .editor)
        given.signIn("ed@example.org")
        let token = try #require(given.csrfToken(from: given.get("/participants/new")))
        try given.database.endSession(token: try #require(given.cookies["fieldbook_session"]))
        return token
    }

    private func participantCount(_ given: WebHarness) throws -> Int {
        try given.database.participants(ParticipantQuery.unfiltered).total
    }

    @Test func theFormComesBackFilledInAfterSigningInAndSavesOnlyWhenSentAgain() async throws {
        let given = try await WebHarness()
        let oldToken = try editorWhoseSessionEnded(given)

        let signInPage = given.post("/participants/new", Self.typed, csrf: oldToken)
        #expect(signInPage.status == .ok)
        #expect(signInPage.bodyText.contains("<title>Sign in"))
        #expect(signInPage.bodyText.contains(LoginPages.sessionEndedNotice))
        #expect(!signInPage.bodyText.contains("Amina"), "the values stay on the server, not in the page")
        let resume = try #require(hiddenValue("resume", in: signInPage.bodyText))
        #expect(try participantCount(given) == 0)

        let login = given.post("/login", [("email", "ed@example.org"), ("password", WebHarness.password), ("resume", resume)],
                               formPath: "/login")
        #expect(login.status == .seeOther)
        #expect(login.header("Location") == "/participants/new")

        let restored = given.get("/participants/new")
        #expect(restored.status == .ok)
        #expect(restored.bodyText.contains(LoginPages.restoredNotice))
        #expect(restored.bodyText.contains("value=\"Amina Diallo\""))
        #expect(restored.bodyText.contains("value=\"amina@example.org\""))
        #expect(restored.bodyText.contains(">Met at the door; &quot;call&quot; after 6</textarea>"))
        let newToken = try #require(given.csrfToken(from: restored))
        #expect(newToken != oldToken, "the form carries the new session's token")
        #expect(try participantCount(given) == 0, "nothing is saved until Save is pressed")

        let saved = given.post("/participants/new", Self.typed, csrf: newToken)
        #expect(saved.status == .seeOther)
        #expect(try participantCount(given) == 1)
        #expect(!given.get("/participants/new").bodyText.contains("value=\"Amina Diallo\""), "a kept form is handed back once")
    }

    /// The page's own requests after the session ended (its live updates) keep the ended session's cookie, so Save
    /// still carries it and the form is kept.
    @Test func requestsAfterTheSessionEndedKeepItsCookieUntilSave() async throws {
        let given = try await WebHarness()
        let token = try editorWhoseSessionEnded(given)
        #expect(given.get("/events").status == .seeOther)
        #expect(given.cookies["fieldbook_session"] != nil)
        #expect(hiddenValue("resume", in: given.post("/participants/new", Self.typed, csrf: token).bodyText) != nil)
    }

    @Test func anEditFormComesBackAtTheVersionItWasOpenedAt() async throws {
        let given = try await WebHarness()
        try given.createUser("ed@example.org", .editor)
        let participant = try given.database.createParticipant(ParticipantInput(name: "Kwame Mensah", email: "kwame@example.org"),
                                                               by: .system("test"))
        given.signIn("ed@example.org")
        let path = "/participants/\(participant.id.lowercasedString)/edit"
        let token = try #require(given.csrfToken(from: given.get(path)))
        try given.database.endSession(token: try #require(given.cookies["fieldbook_session"]))

        let edit = [("name", "Kwame A. Mensah"), ("email", "kwame@example.org"), ("notes", "New note"), ("version", "1")]
        let resume = try #require(hiddenValue("resume", in: given.post(path, edit, csrf: token).bodyText))
        given.cookies = [:]
        let login = given.post("/login", [("email", "ed@example.org"), ("password", WebHarness.password), ("resume", resume)],
                               formPath: "/login")
        #expect(login.header("Location") == path)
        let restored = given.get(path).bodyText
        #expect(restored.contains("value=\"Kwame A. Mensah\"") && restored.contains(">New note</textarea>"))
        #expect(try given.database.participant(id: participant.id).name == "Kwame Mensah")
    }

    /// Restoring runs only the form's `show` handler (`WebRouteTable.form`): a category's form comes back filled in and
    /// nothing is created until it is sent again.
    @Test func aCategoryFormComesBackFilledInAndSavesNothing() async throws {
        let given = try await WebHarness()
        try given.createUser("ed@example.org", .editor)
        given.signIn("ed@example.org")
        let path = "/activity-types/new"
        let token = try #require(given.csrfToken(from: given.get(path)))
        try given.database.endSession(token: try #require(given.cookies["fieldbook_session"]))
        let before = try given.database.categories(.activityType).count
        let resume = try #require(hiddenValue("resume", in: given.post(path, [("name", "Door knocking")], csrf: token).bodyText))
        let login = given.post("/login", [("email", "ed@example.org"), ("password", WebHarness.password), ("resume", resume)],
                               formPath: "/login")
        #expect(login.header("Location") == path)
        let restored = given.get(path)
        #expect(restored.status == .ok && restored.bodyText.contains("value=\"Door knocking\""))
        #expect(try given.database.categories(.activityType).count == before)
    }

    @Test func aFormWhosePageCannotShowItAgainComesBackToSendAgainWithoutPasswords() async throws {
        let given = try await WebHarness()
        try given.createUser("admin@example.org", .administrator)
        given.signIn("admin@example.org")
        let token = try #require(given.csrfToken(from: given.get("/users/new")))
        try given.database.endSession(token: try #require(given.cookies["fieldbook_session"]))
        let fields = [("name", "Nia Okafor"), ("email", "nia@example.org"), ("role", "editor"),
                      ("password", "a secret typed once"), ("password_confirmation", "a secret typed once")]
        let resume = try #require(hiddenValue("resume", in: given.post("/users/new", fields, csrf: token).bodyText))

        let login = given.post("/login", [("email", "admin@example.org"), ("password", WebHarness.password), ("resume", resume)],
                               formPath: "/login")
        #expect(login.header("Location") == "/send-again")
        let page = given.get("/send-again")
        #expect(page.status == .ok)
        #expect(page.bodyText.contains("action=\"/users/new\""))
        #expect(page.bodyText.contains("value=\"Nia Okafor\""))
        #expect(!page.bodyText.contains("a secret typed once"), "a password is never kept")
        #expect(page.bodyText.contains("name=\"password\""), "it is asked for again")
        #expect(try given.database.users().count == 1)
        #expect(given.get("/send-again").header("Location") == "/", "handed back once")
    }

    /// /send-again shows what the person typed as they would read it: the form's hidden fields go back hidden, and a
    /// field naming a record is labelled by what it names.
    @Test func sendAgainKeepsHiddenFieldsHiddenAndLabelsReadable() async throws {
        let given = try await WebHarness()
        let token = try editorWhoseSessionEnded(given)
        let fields = [("name", "Saturday"), ("assigned_user_id", "a-user"), ("version", "3"), ("picking", "1")]
        let resume = try #require(hiddenValue("resume", in: given.post("/imports", fields, csrf: token).bodyText))
        given.cookies = [:]
        _ = given.post("/login", [("email", "ed@example.org"), ("password", WebHarness.password), ("resume", resume)], formPath: "/login")
        let page = given.get("/send-again").bodyText
        #expect(page.contains("<input type=\"hidden\" name=\"version\" value=\"3\">"))
        #expect(page.contains("<input type=\"hidden\" name=\"picking\" value=\"1\">"))
        #expect(!page.contains(">Version</label>") && !page.contains(">Picking</label>"))
        #expect(page.contains(">Assigned user</label>") && page.contains(">Name</label>"))
    }

    @Test func anUploadSaysItsFilesMustBeChosenAgain() async throws {
        let given = try await WebHarness()
        let token = try editorWhoseSessionEnded(given)
        let file = UploadedFile(fieldName: "file", filename: "people.csv", declaredContentType: "text/csv", path: "/nonexistent", size: 10)
        let answer = given.send(Request(method: .post, path: "/imports", cookies: given.cookies,
                                        form: Parameters([(name: "csrf_token", value: token)]), files: [file]))
        #expect(answer.bodyText.contains(LoginPages.filesNotKeptNotice))
    }

    @Test func aPostThatDidNotComeFromAFieldbookPageIsSentToSignInWithNothingKept() async throws {
        let given = try await WebHarness()
        let token = try editorWhoseSessionEnded(given)
        let withoutToken = given.send(Request(method: .post, path: "/participants/new", cookies: given.cookies,
                                              form: Parameters([(name: "name", value: "X")])))
        #expect(withoutToken.status == .seeOther && withoutToken.header("Location") == "/login")
        let crossSite = given.send(Request(method: .post, path: "/participants/new", headers: ["sec-fetch-site": "cross-site"],
                                           cookies: given.cookies, form: Parameters([(name: "csrf_token", value: token)])))
        #expect(crossSite.status == .seeOther)
        #expect(given.web.formStash.count == 0)
    }

    /// The scenario of a cross-site page posting to Fieldbook from a browser that sends no Sec-Fetch-Site: the
    /// SameSite=Lax session cookie does not come with it, so nothing is kept that the victim would later be shown.
    @Test func aPostWithoutTheCookieOfAnEndedSessionKeepsNothing() async throws {
        let given = try await WebHarness()
        try given.createUser("ed@example.org", .editor)
        let anonymous = try #require(given.csrfToken(from: given.get("/login")))
        let planted = [("name", "Mallory"), ("email", "mallory@example.org"), ("role", "administrator")]
        let noCookie = given.post("/users/new", planted, csrf: anonymous)
        #expect(noCookie.status == .seeOther && noCookie.header("Location") == "/login")
        given.cookies["fieldbook_session"] = "not-a-session"
        let unknownCookie = given.post("/participants/new", planted, csrf: anonymous)
        #expect(unknownCookie.status == .seeOther && unknownCookie.header("Location") == "/login")
        #expect(given.web.formStash.count == 0)
    }

    @Test func aFormEndedByAnAdministratorsResetComesBackToItsOwnerAlone() async throws {
        let given = try await WebHarness()
        let owner = try given.createUser("ed@example.org", .editor)
        try given.createUser("other@example.org", .editor)
        given.signIn("ed@example.org")
        let token = try #require(given.csrfToken(from: given.get("/participants/new")))
        try given.database.resetPassword(id: owner.id, password: WebHarness.password, confirmation: WebHarness.password,
                                         by: .system("test"))
        let resume = try #require(hiddenValue("resume", in: given.post("/participants/new", Self.typed, csrf: token).bodyText))

        let other = given.post("/login", [("email", "other@example.org"), ("password", WebHarness.password), ("resume", resume)],
                               formPath: "/login")
        #expect(other.header("Location") == "/", "another user signing in gets no form")
        #expect(!given.get("/participants/new").bodyText.contains("Amina"))

        given.cookies = [:]
        let login = given.post("/login", [("email", "ed@example.org"), ("password", WebHarness.password), ("resume", resume)],
                               formPath: "/login")
        #expect(login.header("Location") == "/participants/new", "the form stayed for its owner")
        #expect(given.get("/participants/new").bodyText.contains("value=\"Amina Diallo\""))
    }

    @Test func theStashIsBoundedInSizeCountAndAgeAndHandsAFormToItsOwnerOnly() {
        let clock = TestClock()
        let stash = FormStash(now: { clock.now })
        let (owner, other) = (UUID(), UUID())
        let form = { (value: String) in Request(method: .post, path: "/participants/new", form: Parameters([(name: "notes", value: value)])) }
        #expect(stash.keep(form(String(repeating: "x", count: FormStash.maxBytes + 1)), for: owner, restorable: true) == nil)
        let first = stash.keep(form("first"), for: owner, restorable: true)
        for index in 0..<FormStash.maxEntries {
            clock.now += 1
            _ = stash.keep(form("\(index)"), for: owner, restorable: true)
        }
        #expect(stash.count == FormStash.maxEntries)
        #expect(first.flatMap { stash.claim($0, by: owner, for: "session") } == nil, "the oldest made room")
        let kept = stash.keep(form("late"), for: owner, restorable: true)!
        clock.now += FormStash.lifetime + 1
        #expect(stash.claim(kept, by: owner, for: "session") == nil, "expired")
        #expect(stash.count == 0)
        let fresh = stash.keep(form("fresh"), for: owner, restorable: true)!
        #expect(stash.claim(fresh, by: other, for: "other") == nil, "not another user's")
        #expect(stash.claim(fresh, by: owner, for: "session")?.parameters.pairs.first?.value == "fresh")
        #expect(stash.claim(fresh, by: owner, for: "again") == nil, "claimed once")
        #expect(stash.take(claimedBy: "session", path: "/other") == nil)
        #expect(stash.take(claimedBy: "session")?.path == "/participants/new")
        #expect(stash.take(claimedBy: "session") == nil, "taken once")
    }

    /// A phone forgets the lists taken on it only when a page says nobody is signed in: the sign-in page (after signing
    /// out, or when a session ended), never an error page or any other page that has no user on it.
    @Test func onlyTheSignInPageSaysNobodyIsSignedIn() async throws {
        let given = try await WebHarness()
        let marker = "data-signed-out"
        let oldToken = try editorWhoseSessionEnded(given)
        #expect(given.post("/participants/new", Self.typed, csrf: oldToken).bodyText.contains(marker), "the session ended")
        #expect(given.get("/login").bodyText.contains(marker))
        #expect(!given.get("/no-such-page").bodyText.contains(marker), "an error page for nobody")
        given.signIn("ed@example.org")
        #expect(!given.get("/my-visits").bodyText.contains(marker))
        let signedOut = given.post("/logout", [], formPath: "/my-visits")
        #expect(signedOut.status == .seeOther && given.get("/login").bodyText.contains(marker), "signed out")
    }

    final class TestClock: @unchecked Sendable {
        var now = Date()
    }

    private func hiddenValue(_ name: String, in html: String) -> String? {
        guard let range = html.range(of: "name=\"\(name)\" value=\"") else { return nil }
        return String(html[range.upperBound...].prefix { $0 != "\"" })
    }
}
