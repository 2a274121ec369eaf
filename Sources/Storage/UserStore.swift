import Domain
import Foundation
import GRDB

/// Accounts: queries, sign-in checks, and the writes that keep at least one administrator.
extension AppDatabase {
    public func userCount() throws -> Int {
        try read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM users") ?? 0 }
    }

    public func users() throws -> [User] {
        try read { db in try Row.fetchAll(db, sql: "SELECT * FROM users ORDER BY name COLLATE NOCASE, email").map(User.init(row:)) }
    }

    public func user(id: UUID) throws -> User {
        try read { db in try Self.fetchUser(db, id: id) }
    }

    /// The user whose email and password match, if enabled; nil otherwise (same work either way).
    public func verifyCredentials(email: String, password: String) throws -> User? {
        let normalized = email.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        let row = try read { db in try Row.fetchOne(db, sql: "SELECT * FROM users WHERE email = ?", arguments: [normalized]) }
        guard let row else {
            _ = passwordHasher.verify(password, against: passwordHasher.dummyHash())
            return nil
        }
        guard passwordHasher.verify(password, against: row["password_hash"]) else { return nil }
        let user = User(row: row)
        return user.isDisabled ? nil : user
    }

    @discardableResult
    public func createUser(_ input: NewUserInput, by actor: Actor) throws -> User {
        let valid = try input.validated()
        let hash = try passwordHasher.hash(valid.password)
        return try write(by: actor) { db, changes in
            try Self.ensureUniqueEmail(db, valid.email)
            let now = Date()
            let user = User(id: UUID(), email: valid.email, name: valid.name, role: valid.role, isDisabled: false,
                            version: 1, createdAt: now, updatedAt: now)
            try db.execute(sql: """
                INSERT INTO users (id, email, name, role, password_hash, is_disabled, version, created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, 0, 1, ?, ?)
                """, arguments: [user.id.databaseText, user.email, user.name, user.role.rawValue, hash, now, now])
            try changes.recordCreate("user", id: user.id, fields: user.syncedFields.merging(["password_hash": .string(hash)]) { $1 })
            return user
        }
    }

    /// Creates the first administrator; refused once any user exists (so /setup works exactly once).
    @discardableResult
    public func createFirstAdministrator(_ input: NewUserInput) throws -> User {
        var first = input
        first.role = UserRole.administrator.rawValue
        guard try userCount() == 0 else {
            throw DomainError.protected(message: "Fieldbook already has an administrator. Sign in instead.")
        }
        return try createUser(first, by: .system("setup"))
    }

    /// Changes name, role or disabled state; the last enabled administrator cannot be demoted or disabled.
    @discardableResult
    public func updateUser(id: UUID, _ input: UserChangeInput, by actor: Actor) throws -> User {
        let valid = try input.validated()
        return try write(by: actor) { db, changes in
            var user = try Self.fetchUser(db, id: id)
            let losesAdministration = user.role == .administrator && !user.isDisabled
                && (valid.role != .administrator || valid.isDisabled)
            if losesAdministration, try Self.enabledAdministratorCount(db) <= 1 {
                throw DomainError.protected(message: "\(user.name) is the only administrator. Make someone else an administrator first, so that somebody can still manage users.")
            }
            let before = user.syncedFields
            let baseVersion = user.version
            (user.name, user.role, user.isDisabled) = (valid.name, valid.role, valid.isDisabled)
            guard user.syncedFields != before else { return user }
            user.version += 1
            user.updatedAt = Date()
            try db.execute(sql: "UPDATE users SET name = ?, role = ?, is_disabled = ?, version = ?, updated_at = ? WHERE id = ?",
                           arguments: [user.name, user.role.rawValue, user.isDisabled, user.version, user.updatedAt, id.databaseText])
            if user.isDisabled { try Self.signOutEverywhere(db, userId: id) }
            try changes.recordUpdate("user", id: id, before: before, after: user.syncedFields, baseVersion: baseVersion)
            return user
        }
    }

    /// Sets a new password and signs the user out everywhere.
    public func resetPassword(id: UUID, password: String, confirmation: String, by actor: Actor) throws {
        var errors = ValidationError()
        AccountRules.checkNewPassword(password, confirmation: confirmation, into: &errors)
        try errors.throwIfAny()
        let hash = try passwordHasher.hash(password)
        try write(by: actor) { db, changes in
            let user = try Self.fetchUser(db, id: id)
            let oldHash = try String.fetchOne(db, sql: "SELECT password_hash FROM users WHERE id = ?", arguments: [id.databaseText]) ?? ""
            try db.execute(sql: "UPDATE users SET password_hash = ?, version = version + 1, updated_at = ? WHERE id = ?",
                           arguments: [hash, Date(), id.databaseText])
            try Self.signOutEverywhere(db, userId: id)
            try changes.recordUpdate("user", id: id, before: ["password_hash": .string(oldHash)], after: ["password_hash": .string(hash)],
                                     baseVersion: user.version)
        }
    }

    /// Ends the user's browser sessions and API tokens (node-local state, so nothing is recorded for sync).
    private static func signOutEverywhere(_ db: Database, userId: UUID) throws {
        try db.execute(sql: "DELETE FROM sessions WHERE user_id = ?", arguments: [userId.databaseText])
        try db.execute(sql: "DELETE FROM api_tokens WHERE user_id = ?", arguments: [userId.databaseText])
    }

    private static func fetchUser(_ db: Database, id: UUID) throws -> User {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM users WHERE id = ?", arguments: [id.databaseText]) else {
            throw DomainError.notFound(entity: "user")
        }
        return User(row: row)
    }

    private static func ensureUniqueEmail(_ db: Database, _ email: String) throws {
        if try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM users WHERE email = ?)", arguments: [email]) == true {
            throw ValidationError.clash("email", "A user with the email \(email) already exists; use another address")
        }
    }

    private static func enabledAdministratorCount(_ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM users WHERE role = 'administrator' AND is_disabled = 0") ?? 0
    }
}

extension User {
    /// The fields that travel in outbox entries (the password hash is added where it changes).
    var syncedFields: [String: JSONValue] {
        ["email": .string(email), "name": .string(name), "role": .string(role.rawValue), "is_disabled": .bool(isDisabled)]
    }

    init(row: Row) {
        self.init(id: row.uuid("id"), email: row["email"], name: row["name"],
                  role: UserRole(rawValue: row["role"]) ?? .readOnly, isDisabled: row["is_disabled"],
                  version: row["version"], createdAt: row["created_at"], updatedAt: row["updated_at"])
    }
}
