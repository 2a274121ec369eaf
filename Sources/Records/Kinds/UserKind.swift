import Domain
import Foundation

/// A stored account: the user with their password hash, which never leaves Storage but travels to other nodes so
/// people sign in anywhere.
package struct UserRow: Sendable {
    package var user: User
    package var passwordHash: String

    package var id: UUID { user.id }
    package var version: Int {
        get { user.version }
        set { user.version = newValue }
    }

    package init(user: User, passwordHash: String) {
        self.user = user
        self.passwordHash = passwordHash
    }

    package static let declaration = RecordDeclaration<UserRow>([
        RecordField(\.user.email, "email", .text, label: "Email", rule: .text(AccountRules.email), .listed),
        RecordField(\.user.name, "name", .text, label: "Name", rule: .text(AccountRules.name), .listed),
        RecordField(\.user.role, "role", .choice(.readOnly), label: "Role", rule: .choice(AccountRules.role), .listed),
        RecordField(\.passwordHash, "password_hash", .text, label: "Password", .credential),
        RecordField(\.user.isDisabled, "is_disabled", .flag, label: "Disabled", .listed),
        RecordField(\.user.createdAt, "created_at", .instant, label: "Created", .meta),
        RecordField(\.user.updatedAt, "updated_at", .instant, label: "Updated", .meta),
    ]) { id, version in
        UserRow(user: User(id: id, email: "", name: "", role: .readOnly, isDisabled: false, version: version, createdAt: Date(), updatedAt: Date()),
                passwordHash: "")
    }

    package static let kind = RecordKind(entity: "user", table: "users", declaration, requiredRole: .administrator, label: ("user", "users"),
                                         listPath: "/users", inFullExport: false, uniqueKeys: [["email"]]) { _, _, fields, errors in
        if fields.text("password_hash").isEmpty { errors.add("password_hash", "A user needs a password") }
    }
}

extension User {
    /// A user from their record's synced fields, as a hub that keeps records in their wire form (PostgreSQL) holds them.
    public init(id: UUID, version: Int, syncedFields fields: [String: JSONValue]) {
        self = UserRow.declaration.record(id: id, version: version) { fields[$0] ?? .null }.user
    }
}
