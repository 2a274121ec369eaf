import Domain
import Foundation
import GRDB

/// A stored account: the user with their password hash, which never leaves Storage but travels to other nodes so
/// people sign in anywhere.
struct UserRow: StoredRecord {
    var user: User
    var passwordHash: String

    static let databaseTableName = "users"

    static let kind = RecordKind(
        entity: "user", table: databaseTableName, columns: ["email", "name", "role", "password_hash", "is_disabled"],
        metaColumns: RecordKind.timestamps, requiredRole: .administrator, label: ("user", "users"), listPath: "/users",
        inFullExport: false, uniqueKeys: [["email"]], credentials: ["password_hash"]
    ) { _, _, fields in
        var errors = ValidationError()
        if !EmailAddress.isValid(fields.text("email")) { errors.add("email", "Enter an email address in the correct format, like name@example.org") }
        if fields.text("password_hash").isEmpty { errors.add("password_hash", "A user needs a password") }
        try errors.throwIfAny()
        _ = try UserChangeInput(name: fields.text("name"), role: fields.text("role"), isDisabled: fields["is_disabled"]?.isTrue ?? false)
            .validated()
    }

    var id: UUID { user.id }
    var version: Int {
        get { user.version }
        set { user.version = newValue }
    }

    init(user: User, passwordHash: String) {
        self.user = user
        self.passwordHash = passwordHash
    }

    init(row: Row) {
        user = User(row: row)
        passwordHash = row["password_hash"]
    }

    func encode(to container: inout PersistenceContainer) {
        container["id"] = user.id.databaseText
        container["email"] = user.email
        container["name"] = user.name
        container["role"] = user.role.rawValue
        container["password_hash"] = passwordHash
        container["is_disabled"] = user.isDisabled
        container.encodeVersionAndTimes(user.version, user.createdAt, user.updatedAt)
    }

    mutating func stamp(editedAt date: Date) { user.updatedAt = date }
}

extension User {
    /// A user from their record's synced fields, as a hub that keeps records in their wire form (PostgreSQL) holds them.
    public init(id: UUID, version: Int, syncedFields fields: [String: JSONValue]) {
        self.init(id: id, email: fields.text("email"), name: fields.text("name"), role: UserRole(rawValue: fields.text("role")) ?? .readOnly,
                  isDisabled: fields["is_disabled"]?.isTrue ?? false, version: version,
                  createdAt: StoredDate.parse(fields.text("created_at")) ?? Date(timeIntervalSince1970: 0),
                  updatedAt: StoredDate.parse(fields.text("updated_at")) ?? Date(timeIntervalSince1970: 0))
    }
}
