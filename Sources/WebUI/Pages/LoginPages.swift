import Domain
import Foundation
import HTTPServer
import Surface

/// Sign in and sign out (Requirement 8).
enum LoginPages {
    static func form(_ context: inout PageContext) throws -> Response {
        if context.user != nil { return context.redirect(to: Paths.home()) }
        if try context.database.userCount() == 0 { return context.redirect(to: Paths.setup()) }
        let next = context.request.query["next"].flatMap(ReturnAddress.localPath) ?? ""
        return render(&context, email: "", next: next, errors: ValidationError())
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
            throttle.recordFailure(email: email, address: request.remoteAddress)
            context.web.logger.notice("failed sign-in", metadata: ["client": "\(request.remoteAddress)"])
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

    /// Only paths on this server are followed after sign-in, never another site.
    static func safeNext(_ next: String) -> String {
        ReturnAddress.localPath(next) ?? Paths.home()
    }

    private static func render(_ context: inout PageContext, email: String, next: String, errors: ValidationError,
                               status: HTTPStatus = .ok) -> Response {
        var form = FormView(errors: errors)
        form.input("email", label: "Email address", value: email, type: "email", autocomplete: "username")
        form.input("password", label: "Password", value: "", type: "password", autocomplete: "current-password")
        var view = form.view
        view["next"] = next
        return context.page("login", title: "Sign in", section: nil, view: view, status: status, hasErrors: form.hasErrors)
    }
}
