import Domain
import Foundation
import Translations

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
        RecordField(\.user.email, "email", .text, label: Message("Email"), rule: .text(AccountRules.email), .listed),
        RecordField(\.user.name, "name", .text, label: Message("Name"), rule: .text(AccountRules.name), .listed),
        RecordField(\.user.role, "role", .choice(.readOnly), label: Message("Role"), rule: .choice(AccountRules.role), .listed),
        RecordField(\.passwordHash, "password_hash", .text, label: Message("Password"), .credential),
        RecordField(\.user.isDisabled, "is_disabled", .flag, label: Message("Disabled"), .listed),
        // Synced, so that a person's pages are in their language on every node.
        RecordField(\.user.language, "language", .optionalText, label: Message("Language")),
    ] + RecordField<UserRow>.timestamps(created: \.user.createdAt, updated: \.user.updatedAt)) { id, version in
        UserRow(user: User.blank(id: id, version: version), passwordHash: "")
    }

    package static let kind = RecordKind(entity: "user", table: "users", declaration, requiredRole: .administrator, label: ("user", "users"), inFullExport: false, uniqueKeys: [["email"]]) { _, _, fields, errors in
        // The form keeps an email trimmed; a pushed one with spaces around it would not match it at sign-in.
        let email = fields.text("email")
        if !email.isEmpty, email != email.trimmingCharacters(in: .whitespacesAndNewlines) {
            errors.add("email", AccountRules.email.invalidEmail ?? Message("Enter an email address"))
        }
        if fields.text("password_hash").isEmpty { errors.add("password_hash", Message("A user needs a password")) }
    }
}

extension User {
    /// A user from their record's synced fields, as a hub that keeps records in their wire form (PostgreSQL) holds them.
    public init(id: UUID, version: Int, syncedFields fields: [String: JSONValue]) {
        self = UserRow.declaration.record(id: id, version: version) { fields[$0] ?? .null }.user
    }
}
