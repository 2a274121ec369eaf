import Domain
import HTTPServer
import Surface
import Translations

/// The administrator's user management: list, create, change role, disable, reset password.
enum UserPages {
    static func list(_ context: inout PageContext) throws -> Response {
        let me = try context.signedInUser
        let rows = try context.database.users().map { user -> TemplateView in
            userView(user).merging(["is_me": user.id == me.id])
        }
        return context.page("users/list", title: Message("Users"), section: .users, view: ["rows": rows])
    }

    static func detail(_ context: inout PageContext) throws -> Response {
        let user = try context.database.user(id: context.request.uuidParameter())
        return context.page("users/detail", title: user.name, section: .users, view: ["user": userView(user)])
    }

    static func newForm(_ context: inout PageContext) throws -> Response {
        newUserPage(&context, values: Parameters([("role", UserRole.editor.rawValue)]), errors: ValidationError())
    }

    static func create(_ context: inout PageContext) throws -> Response {
        let request = context.request
        let input = NewUserInput(name: request.field("name"), email: request.field("email"), role: request.field("role"),
                                 password: request.field("password"), passwordConfirmation: request.field("password_confirmation"))
        do {
            let user = try context.database.createUser(input, by: context.actor)
            return context.redirect(to: Paths.users.list(), flash: Message("User {name} ({role}) created. Give them their password in person.",
                                                                                 ["name": .text(user.name), "role": .message(user.role.message)]))
        } catch let errors as ValidationError {
            return newUserPage(&context, values: request.form, errors: errors, status: .unprocessableContent)
        }
    }

    static func editForm(_ context: inout PageContext) throws -> Response {
        let user = try context.database.user(id: context.request.uuidParameter())
        return editPage(&context, user: user, name: user.name, role: user.role.rawValue, disabled: user.isDisabled,
                        errors: ValidationError())
    }

    static func update(_ context: inout PageContext) throws -> Response {
        let request = context.request
        let user = try context.database.user(id: request.uuidParameter())
        let input = UserChangeInput(name: request.field("name"), role: request.field("role"), isDisabled: request.field("disabled") == "yes")
        do {
            let saved = try context.database.updateUser(id: user.id, input, by: context.actor)
            return context.redirect(to: Paths.users.record(saved.id), flash: Message("User {name} saved.", ["name": .text(saved.name)]))
        } catch let errors as ValidationError {
            return editPage(&context, user: user, name: input.name, role: input.role, disabled: input.isDisabled,
                            errors: errors, status: .unprocessableContent)
        } catch DomainError.protected(let message) {
            return editPage(&context, user: user, name: input.name, role: input.role, disabled: input.isDisabled,
                            errors: ValidationError([FieldError(field: "role", message: message)]), status: .conflict)
        }
    }

    static func passwordForm(_ context: inout PageContext) throws -> Response {
        let user = try context.database.user(id: context.request.uuidParameter())
        return passwordPage(&context, user: user, errors: ValidationError())
    }

    static func resetPassword(_ context: inout PageContext) throws -> Response {
        let request = context.request
        let user = try context.database.user(id: request.uuidParameter())
        do {
            try context.database.resetPassword(id: user.id, password: request.field("password"),
                                               confirmation: request.field("password_confirmation"), by: context.actor)
            if user.id == context.user?.id {
                context.cookies.append(.expired(CookieName.session, secure: request.isTLS))
                return context.redirect(to: Paths.login(), flash: Message("Your password was changed. Sign in with the new one."))
            }
            return context.redirect(to: Paths.users.record(user.id), flash: Message("Password for {name} reset; they were signed out everywhere.", ["name": .text(user.name)]))
        } catch let errors as ValidationError {
            return passwordPage(&context, user: user, errors: errors, status: .unprocessableContent)
        }
    }

    private static func newUserPage(_ context: inout PageContext, values: Parameters, errors: ValidationError,
                                    status: HTTPStatus = .ok) -> Response {
        var form = FormView(errors: errors)
        form.anchors["role"] = "role-administrator"
        form.input("name", label: "Name", value: values["name"] ?? "", autocomplete: "off")
        form.input("email", label: "Email address", value: values["email"] ?? "", type: "email", autocomplete: "off")
        addPasswordFields(&form)
        var view = form.view
        view["roles"] = roleOptions(selected: values["role"] ?? "")
        view["role_error"] = errors.message(for: "role")
        return context.page("users/new", title: Message("New user"), section: .users, view: view, status: status, hasErrors: form.hasErrors)
    }

    private static func editPage(_ context: inout PageContext, user: User, name: String, role: String, disabled: Bool,
                                 errors: ValidationError, status: HTTPStatus = .ok) -> Response {
        var form = FormView(errors: errors)
        form.anchors["role"] = "role-administrator"
        form.input("name", label: "Name", value: name, autocomplete: "off")
        var view = form.view
        view["user"] = userView(user)
        view["roles"] = roleOptions(selected: role)
        view["role_error"] = errors.message(for: "role")
        view["disabled"] = disabled
        view["version"] = user.version
        return context.page("users/edit", title: Message("Edit {name}", ["name": .text(user.name)]), section: .users, view: view, status: status, hasErrors: form.hasErrors)
    }

    private static func passwordPage(_ context: inout PageContext, user: User, errors: ValidationError,
                                     status: HTTPStatus = .ok) -> Response {
        var form = FormView(errors: errors)
        addPasswordFields(&form)
        var view = form.view
        view["user"] = userView(user)
        return context.page("users/password", title: Message("Reset password for {name}", ["name": .text(user.name)]), section: .users, view: view,
                            status: status, hasErrors: form.hasErrors)
    }

    private static func addPasswordFields(_ form: inout FormView) {
        form.input("password", label: "Password", value: "", type: "password",
                   hint: "At least \(AccountRules.minPasswordLength) characters", autocomplete: "new-password")
        form.input("password_confirmation", label: "Type the password again", value: "", type: "password", autocomplete: "new-password")
    }

    private static func roleOptions(selected: String) -> [TemplateView] {
        UserRole.allCases.map { role in
            ["value": role.rawValue, "label": role.message, "summary": role.summary, "checked": role.rawValue == selected,
             "id": "role-\(role.rawValue)"]
        }
    }

    static func userView(_ user: User) -> TemplateView {
        let view: TemplateView = ["name": user.name, "email": user.email, "role": user.role.message, "disabled": user.isDisabled,
                                  "password_path": Paths.userPassword(user.id), "created": DateText.format(user.createdAt),
                                  "updated": DateText.format(user.updatedAt)]
        return view.merging(Paths.users.links(user.id))
    }
}
