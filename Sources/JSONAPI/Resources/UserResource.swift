import Domain
import Foundation
import HTTPServer
import Records
import Storage
import Surface

/// Accounts, for administrators: create, change name/role/disabled, reset a password. Users are never deleted (disable them).
enum UserResource {
    /// The body and schema derived from the declared fields, without the password hash.
    static let shape = APIRecordShape(UserRow.declaration, id: { $0.id }, version: { $0.version }, leftOut: ["password_hash"],
                                      shown: [.of("is_disabled", .boolean, required: true)])

    static func body(_ user: User) -> RecordBody { shape.body(UserRow(user: user, passwordHash: "")) }

    static let passwordField = Field.input("password", .text(AccountRules.password))
    static let createFields: [Field] = [
        .input("name", .text(AccountRules.name)),
        .input("email", .text(AccountRules.email)),
        .input("role", .choice(AccountRules.role)),
        passwordField,
    ]
    static let writeFields: [Field] = [
        .input("name", .text(AccountRules.name)),
        .input("role", .choice(AccountRules.role)),
        .of("is_disabled", .boolean, "Disabled users cannot sign in; false when absent"),
        .version(),
    ]

    static let components: [String: [Field]] = [
        "User": shape.schema,
        "UserCreate": createFields,
        "UserWrite": writeFields,
        "PasswordReset": [passwordField],
    ]

    static let docs: ResourceDocs = {
        var docs = ResourceDocs(schema: "User", plural: "Users", listQuery: [], protected: true)
        docs.createBody = "UserCreate"
        return docs
    }()
    static let handlers = RecordHandlers(list: list, get: get, create: create, update: update)

    static let passwordDoc = APIOperation(id: "resetUserPassword", summary: "Set a new password; the user is signed out everywhere",
                                          body: "PasswordReset", success: .noContent)

    @Sendable static func list(_ context: APIContext) throws -> Response {
        APIResponse.ok(ListEnvelope(all: try context.database.users().map(body), page: try context.pageRequest()))
    }

    @Sendable static func get(_ context: APIContext) throws -> Response {
        APIResponse.ok(body(try context.database.user(id: try context.id())))
    }

    @Sendable static func create(_ context: APIContext) throws -> Response {
        let user = try context.create(createFields, input: { body in
            NewUserInput(name: body.text("name"), email: body.text("email"), role: body.text("role"), password: body.text("password"),
                         passwordConfirmation: body.text("password"))
        }) { try context.database.createUser($0, by: context.actor) }
        return APIResponse.created(body(user), at: APIPaths.users.item(user.id))
    }

    @Sendable static func update(_ context: APIContext, mode: WriteMode) throws -> Response {
        // The store's updateUser takes no version, so the version the body names is compared here.
        var currentVersion = 0
        let user = try context.update(writeFields, mode: mode, load: context.database.user(id:), input: { body, keep, current in
            currentVersion = current.version
            return UserChangeInput(name: body.text("name", otherwise: keep?.name), role: body.text("role", otherwise: keep?.role.rawValue),
                                   isDisabled: body.bool("is_disabled") ?? keep?.isDisabled ?? false)
        }) { id, input, version in
            if let version, version != currentVersion { throw DomainError.staleVersion(entity: "user") }
            return try context.database.updateUser(id: id, input, by: context.actor)
        }
        return APIResponse.ok(body(user))
    }

    @Sendable static func resetPassword(_ context: APIContext) throws -> Response {
        let id = try context.id()
        let password = try context.body([passwordField], mode: .full).text("password")
        try context.database.resetPassword(id: id, password: password, confirmation: password, by: context.actor)
        return APIResponse.noContent
    }
}
