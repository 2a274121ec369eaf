import Domain
import Foundation
import HTTPServer
import Storage
import Surface
import Translations

/// The signed-in person's own account: changing their password with the current one (issue 16).
enum AccountPages {
    static func passwordForm(_ context: inout PageContext) throws -> Response {
        page(&context, errors: ValidationError())
    }

    static func changePassword(_ context: inout PageContext) throws -> Response {
        let request = context.request, user = try context.signedInUser
        do {
            try context.database.changeOwnPassword(id: user.id, current: request.field("current_password"), password: request.field("password"),
                                                   confirmation: request.field("password_confirmation"),
                                                   keepingSession: request.cookie(CookieName.session), by: context.actor)
            return context.redirect(to: Paths.home(), flash: Message("Your password was changed. You stay signed in here; anywhere else, sign in again."))
        } catch let errors as ValidationError {
            return page(&context, errors: errors, status: .unprocessableContent)
        }
    }

    /// Passwords are never typed back into the form.
    private static func page(_ context: inout PageContext, errors: ValidationError, status: HTTPStatus = .ok) -> Response {
        var form = FormView(errors: errors)
        form.input("current_password", label: Message("Your current password"), value: "", type: "password", autocomplete: "current-password")
        form.input("password", label: Message("New password"), value: "", type: "password",
                   hint: Message("At least {min} characters", ["min": .digits(AccountRules.minPasswordLength)]), autocomplete: "new-password")
        form.input("password_confirmation", label: Message("Type the new password again"), value: "", type: "password", autocomplete: "new-password")
        return context.page("account/password", title: Message("Change your password"), section: nil, view: form.view, status: status,
                            hasErrors: form.hasErrors)
    }
}
