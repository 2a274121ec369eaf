import Domain
import Foundation
import HTTPServer
import Surface

/// Sign in and sign out (Requirement 8).
enum LoginPages {
    static func form(_ context: inout PageContext) throws -> Response {
        if context.user != nil { return context.redirect(to: Paths.home()) }
        if try context.database.offersSetup() { return context.redirect(to: Paths.setup()) }
        return render(&context, email: "", next: context.request.query["next"] ?? "", errors: ValidationError())
    }

    static func submit(_ context: inout PageContext) throws -> Response {
        let request = context.request
        let email = request.field("email").trimmingCharacters(in: .whitespacesAndNewlines)
        let password = request.field("password")
        let next = request.field("next")
        var errors = ValidationError()
        if email.isEmpty { errors.add("email", "Enter your email address") }
        if password.isEmpty { errors.add("password", "Enter your password") }
        guard errors.isEmpty else { return render(&context, email: email, next: next, errors: errors, status: .unprocessableContent) }

        let throttle = context.web.signInThrottle
        let wait = throttle.waitTime(email: email, address: request.remoteAddress)
        if wait > 0 {
            errors.add("email", "Too many failed sign-in attempts. Wait \(wait) seconds, then try again")
            return render(&context, email: email, next: next, errors: errors, status: .tooManyRequests)
        }
        guard let user = try context.database.verifyCredentials(email: email, password: password) else {
            context.web.logger.notice("failed sign-in", metadata: ["client": "\(request.remoteAddress)"])
            // While the hub's accounts are still arriving, an email held nowhere here may be one of them: that try is
            // not counted (there is no account here to guess the password of), and the page says why it failed.
            if try context.database.awaitsHubAccounts(), try !context.database.holdsAccount(email: email) {
                errors.add("email", "The accounts of the hub have not all arrived here yet, and \(email) is not among those that have. Try again once this page no longer says they are arriving")
                return render(&context, email: email, next: next, errors: errors, status: .unprocessableContent)
            }
            throttle.recordFailure(email: email, address: request.remoteAddress)
            errors.add("password", "The email address or password is not right, or the account is disabled. Check them and try again")
            return render(&context, email: email, next: next, errors: errors, status: .unprocessableContent)
        }
        throttle.recordSuccess(email: email, address: request.remoteAddress)
        return try signIn(user, context: &context, next: next, flash: nil)
    }

    static func logout(_ context: inout PageContext) throws -> Response {
        if let token = context.request.cookies[CookieName.session] { try context.database.endSession(token: token) }
        context.cookies.append(.expired(CookieName.session, secure: context.request.isTLS))
        return context.redirect(to: Paths.login(), flash: "You have signed out.")
    }

    /// Starts a session for `user` and sends them on; a fresh session id defeats session fixation.
    static func signIn(_ user: User, context: inout PageContext, next: String, flash: String?) throws -> Response {
        let session = try context.database.startSession(for: user.id)
        context.cookies.append(Cookie(name: CookieName.session, value: session.token, secure: context.request.isTLS))
        context.cookies.append(.expired(CookieName.anonymousCSRF, secure: context.request.isTLS))
        return context.redirect(to: safeNext(next), flash: flash)
    }

    /// Only local paths are followed after sign-in, never another site.
    static func safeNext(_ next: String) -> String {
        next.hasPrefix("/") && !next.hasPrefix("//") && !next.contains("\\") ? next : Paths.home()
    }

    /// What a linked node bringing its first copy of the hub says on its sign-in page, with how far it has got; nil
    /// once the copy is complete (or on a Fieldbook that is not linked).
    private static func hubAccountsArriving(_ context: PageContext) -> String? {
        guard (try? context.database.awaitsHubAccounts()) == true else { return nil }
        let progress = context.web.syncEngine?.snapshot().progress
        let done = progress.map { " So far: \($0.percent)% (\($0.pulled.formatted()) changes received)." }
            ?? " It carries on at the next sync."
        return "This Fieldbook is bringing its records and accounts from its hub; the accounts come last. "
            + "Accounts of the hub can sign in here once they have arrived." + done
    }

    private static func render(_ context: inout PageContext, email: String, next: String, errors: ValidationError,
                               status: HTTPStatus = .ok) -> Response {
        var form = FormView(errors: errors)
        form.input("email", label: "Email address", value: email, type: "email", autocomplete: "username")
        form.input("password", label: "Password", value: "", type: "password", autocomplete: "current-password")
        var view = form.view
        view["next"] = next
        view["hub_accounts_arriving"] = hubAccountsArriving(context)
        return context.page("login", title: "Sign in", section: nil, view: view, status: status, hasErrors: form.hasErrors)
    }
}
