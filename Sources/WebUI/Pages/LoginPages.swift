import Domain
import Foundation
import HTTPServer
import Surface
import Translations

/// Sign in and sign out (Requirement 8).
enum LoginPages {
    static func form(_ context: inout PageContext) throws -> Response {
        if context.user != nil { return context.redirect(to: Paths.home()) }
        if try context.database.offersSetup() { return context.redirect(to: Paths.setup()) }
        let next = context.request.query["next"].flatMap(ReturnAddress.localPath) ?? ""
        return render(&context, email: "", next: next, errors: ValidationError())
    }

    /// Why the sign-in page is shown for a form sent after its session ended; the notices below add what became of the form.
    static let signInAgainNotice = "Your session ended, so you need to sign in again."
    private static let typedIsKept = "What you typed is kept and will be back in the form"
    static let sessionEndedNotice = "\(signInAgainNotice) \(typedIsKept)."
    static let filesNotKeptNotice = "\(signInAgainNotice) \(typedIsKept), but files cannot be kept: choose them again."
    static let tooLargeNotice = "\(signInAgainNotice) What you typed was too long to keep: go back to the form after signing in."
    static let restoredNotice = "You are signed in again. What you typed before your session ended is back in the form below; "
        + "nothing was saved. Check it and press Save."

    /// A form that arrived with the cookie of a session that has ended (idle too long, signed out, a password reset):
    /// the sign-in page, saying why, with the form's fields kept server-side (`FormStash`) for that session's user,
    /// under an id the sign-in form carries. nil for anything else, which is sent to sign in as before with nothing
    /// kept: a request without that cookie (no session, or a post from another site, which the SameSite=Lax cookie
    /// never comes with), without a form token, or one the browser says came from another site.
    static func sessionEnded(_ context: inout PageContext, restorable: Bool) -> Response? {
        let request = context.request
        let site = request.header("sec-fetch-site") ?? "same-origin"
        guard let owner = context.endedSessionUser, !request.field("csrf_token").isEmpty, site == "same-origin" || site == "none",
              request.field(checkOnlyField) != "1" else { return nil }
        guard request.form.pairs.contains(where: { $0.name != "csrf_token" }) || !request.files.isEmpty else {
            // Nothing typed to keep (signing out, a button): only why the sign-in page is shown.
            return render(&context, email: "", next: "", errors: ValidationError(), notice: signInAgainNotice)
        }
        let kept = context.web.formStash.keep(request, for: owner, restorable: restorable)
        let notice = kept == nil ? tooLargeNotice : request.files.isEmpty ? sessionEndedNotice : filesNotKeptNotice
        return render(&context, email: "", next: "", errors: ValidationError(), resume: kept ?? "", notice: notice)
    }

    /// A kept form whose own page cannot show it again: its values in a form that sends them to the same address.
    static func sendAgain(_ context: inout PageContext) throws -> Response {
        guard let session = context.session else { throw AccessDenied(message: "Sign in to see this page.") }
        guard let kept = context.web.formStash.take(claimedBy: session.csrfToken) else {
            return context.redirect(to: Paths.home(), flash: "There is no form waiting to be sent again.")
        }
        var view = TypedValues.view(action: kept.path, pairs: kept.parameters.pairs, csrfToken: context.csrfToken)
        view["files_dropped"] = kept.hadFiles
        return context.page("send_again", title: "Send your form again", section: nil, view: view)
    }

    static func submit(_ context: inout PageContext) throws -> Response {
        let request = context.request
        let email = request.field("email").trimmingCharacters(in: .whitespacesAndNewlines)
        let password = request.field("password")
        let next = request.field("next")
        let resume = request.field("resume")
        var errors = ValidationError()
        if email.isEmpty { errors.add("email", "Enter your email address") }
        if password.isEmpty { errors.add("password", "Enter your password") }
        guard errors.isEmpty else {
            return render(&context, email: email, next: next, errors: errors, resume: resume, status: .unprocessableContent)
        }

        let throttle = context.web.signInThrottle
        let wait = throttle.waitTime(email: email, address: request.remoteAddress)
        if wait > 0 {
            errors.add("email", "Too many failed sign-in attempts. Wait \(wait) seconds, then try again")
            return render(&context, email: email, next: next, errors: errors, resume: resume, status: .tooManyRequests)
        }
        guard let user = try context.database.verifyCredentials(email: email, password: password) else {
            context.web.logger.notice("failed sign-in", metadata: ["client": "\(request.remoteAddress)"])
            // While the hub's accounts are still arriving, an email held nowhere here may be one of them: that try is
            // not counted (there is no account here to guess the password of), and the page says why it failed.
            if try context.database.awaitsHubAccounts(), try !context.database.holdsAccount(email: email) {
                errors.add("email", "The accounts of the hub have not all arrived here yet, and \(email) is not among those that have. Try again once this page no longer says they are arriving")
                return render(&context, email: email, next: next, errors: errors, resume: resume, status: .unprocessableContent)
            }
            throttle.recordFailure(email: email, address: request.remoteAddress)
            errors.add("password", "The email address or password is not right, or the account is disabled. Check them and try again")
            return render(&context, email: email, next: next, errors: errors, resume: resume, status: .unprocessableContent)
        }
        throttle.recordSuccess(email: email, address: request.remoteAddress)
        return try signIn(user, context: &context, next: next, flash: nil, resume: resume)
    }

    static func logout(_ context: inout PageContext) throws -> Response {
        if let token = context.request.cookie(CookieName.session) { try context.database.endSession(token: token) }
        context.cookies.append(.expired(CookieName.session, secure: context.request.isTLS))
        return context.redirect(to: Paths.login(), flash: "You have signed out.")
    }

    /// Starts a session for `user` and sends them on; a fresh session id defeats session fixation. With `resume`, the
    /// id of a form kept when one of `user`'s sessions ended, the new session takes it and goes back to its page (or
    /// `/send-again`), where the form is shown with the new session's CSRF token: the old one ended with its session.
    static func signIn(_ user: User, context: inout PageContext, next: String, flash: String?, resume: String = "") throws -> Response {
        let session = try context.database.startSession(for: user.id)
        context.cookies.append(Cookie(name: CookieName.session, value: session.token, secure: context.request.isTLS))
        context.cookies.append(.expired(CookieName.anonymousCSRF, secure: context.request.isTLS))
        if !resume.isEmpty, let kept = context.web.formStash.claim(resume, by: user.id, for: session.csrfToken) {
            return context.redirect(to: kept.restorable ? kept.path : Paths.sendAgain())
        }
        return context.redirect(to: safeNext(next), flash: flash)
    }

    /// Only paths on this server are followed after sign-in, never another site.
    static func safeNext(_ next: String) -> String {
        ReturnAddress.localPath(next) ?? Paths.home()
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
                               resume: String = "", notice: String? = nil, status: HTTPStatus = .ok) -> Response {
        context.saysNobodyIsSignedIn = true
        var form = FormView(errors: errors)
        form.input("email", label: Message("Email address"), value: email, type: "email", autocomplete: "username")
        form.input("password", label: Message("Password"), value: "", type: "password", autocomplete: "current-password")
        var view = form.view
        view["next"] = next
        if !resume.isEmpty {
            view["resume"] = resume
            view["notice"] = notice ?? sessionEndedNotice
        } else if let notice {
            view["notice"] = notice
        }
        view["hub_accounts_arriving"] = hubAccountsArriving(context)
        return context.page("login", title: Message("Sign in"), section: nil, view: view, status: status, hasErrors: form.hasErrors)
    }
}
