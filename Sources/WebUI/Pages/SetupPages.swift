import Domain
import HTTPServer
import Surface
import Translations

/// First run: the one-time code printed by the server lets its operator create the first administrator.
enum SetupPages {
    static func form(_ context: inout PageContext) throws -> Response {
        if try !context.database.offersSetup() { return context.redirect(to: Paths.login()) }
        return render(&context, values: Parameters(), errors: ValidationError())
    }

    static func submit(_ context: inout PageContext) throws -> Response {
        if try !context.database.offersSetup() { return context.redirect(to: Paths.login()) }
        let request = context.request
        let input = NewUserInput(name: request.field("name"), email: request.field("email"), role: UserRole.administrator.rawValue,
                                 password: request.field("password"), passwordConfirmation: request.field("password_confirmation"))
        var errors = ValidationError()
        if request.field("setup_code").trimmingCharacters(in: .whitespaces).isEmpty {
            errors.add("setup_code", "Enter the setup code shown where Fieldbook was started")
        } else if !context.web.setupCode.matches(request.field("setup_code")) {
            errors.add("setup_code", "That setup code is not right. Copy it from the line “One-time setup code: …” that Fieldbook printed when it started")
        }
        do {
            _ = try input.validated()
        } catch let validation as ValidationError {
            validation.fieldErrors.forEach { errors.add($0.field, $0.text) }
        }
        guard errors.isEmpty else {
            return render(&context, values: request.form, errors: errors, status: .unprocessableContent)
        }
        let user = try context.database.createFirstAdministrator(input)
        context.web.setupCode.invalidate()
        return try LoginPages.signIn(user, context: &context, next: Paths.home(), flash: context.translator.text(Message("Welcome, {name}. Your administrator account is ready.", ["name": .text(user.name)])))
    }

    private static func render(_ context: inout PageContext, values: Parameters, errors: ValidationError,
                               status: HTTPStatus = .ok) -> Response {
        var form = FormView(errors: errors)
        form.input("setup_code", label: Message("Setup code"), value: values["setup_code"] ?? "",
                   hint: Message("Printed by the server when it started, on the line “One-time setup code: …”"), autocomplete: "off")
        form.input("name", label: Message("Your name"), value: values["name"] ?? "", autocomplete: "name")
        form.input("email", label: Message("Email address"), value: values["email"] ?? "", type: "email", autocomplete: "email")
        form.input("password", label: Message("Password"), value: "", type: "password",
                   hint: Message("At least {min} characters. A few unrelated words make a strong password.",
                                 ["min": .digits(AccountRules.minPasswordLength)]),
                   autocomplete: "new-password")
        form.input("password_confirmation", label: Message("Type the password again"), value: "", type: "password", autocomplete: "new-password")
        return context.page("setup", title: Message("Set up Fieldbook"), section: nil, view: form.view, status: status, hasErrors: form.hasErrors)
    }
}
