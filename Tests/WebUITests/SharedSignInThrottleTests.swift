@testable import App
import Domain
import Foundation
import HTTPServer
import Logging
import Storage
import Testing

/// The app hands one sign-in throttle to the pages and the API, so failed sign-ins count together whichever way they come.
@Suite struct SharedSignInThrottleTests {
    @Test func failuresSplitBetweenThePagesAndTheAPIReachTheLimitTogether() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("fieldbook-throttle-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let configuration = AppConfiguration(dataDirectory: data.path, resourcesDirectory: WebHarness.repositoryRoot.path, passwordCost: .test)
        let app = try await FieldbookApp.make(configuration, logger: Logger(label: "test"))
        defer { try? app.database.close() }
        try app.database.createUser(NewUserInput(name: "Ed", email: "ed@example.org", role: "editor", password: WebHarness.password,
                                                 passwordConfirmation: WebHarness.password), by: .system("test"))
        let pages = SignInForm(responder: app.responder)

        let onPages = 3
        for _ in 0..<onPages { #expect(pages.submit(email: "ed@example.org", password: "wrong").status == .unprocessableContent) }
        for _ in onPages..<LoginThrottle.freeAttempts {
            #expect(apiLogin(app.responder, email: "ed@example.org", password: "wrong password!").status == .unauthorized)
        }

        // Neither surface alone saw five failures; together they did, so the right password waits on both.
        #expect(pages.submit(email: "ed@example.org", password: WebHarness.password).status == .tooManyRequests)
        let api = apiLogin(app.responder, email: "ed@example.org", password: WebHarness.password)
        #expect(api.status == .tooManyRequests)
        #expect(Int(api.header("Retry-After") ?? "") ?? 0 > 0)
    }

    private func apiLogin(_ responder: AppResponder, email: String, password: String) -> Response {
        let body = try! JSONSerialization.data(withJSONObject: ["email": email, "password": password])
        return responder.respond(to: Request(method: .post, path: "/api/v1/auth/login", headers: ["content-type": "application/json"],
                                             body: Array(body)))
    }
}

/// The sign-in page as a browser uses it: the form's CSRF token comes with its cookie.
private struct SignInForm {
    let responder: AppResponder

    func submit(email: String, password: String) -> Response {
        let form = responder.respond(to: Request(method: .get, path: "/login"))
        let cookie = form.headers.first { $0.name == "Set-Cookie" && $0.value.hasPrefix("fieldbook_csrf=") }
        let token = cookie.map { String($0.value.dropFirst("fieldbook_csrf=".count).prefix { $0 != ";" }) } ?? ""
        let fields = Parameters([(name: "email", value: email), (name: "password", value: password), (name: "csrf_token", value: token)])
        return responder.respond(to: Request(method: .post, path: "/login", cookies: ["fieldbook_csrf": token], form: fields))
    }
}
