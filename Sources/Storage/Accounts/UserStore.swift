import Credentials
import Domain
import Foundation
import Hub
import Records
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
        try read { db in try UserRow.find(db, id: id).user }
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
        return try transaction(by: actor) { transaction in
            try Self.ensureUniqueEmail(transaction.db, valid.email)
            let user = valid.user(at: Date())
            try transaction.insert(UserRow(user: user, passwordHash: hash))
            return user
        }
    }

    /// Whether /setup may make the first administrator: only a Fieldbook with no account that is not linked to a hub.
    /// A linked node's accounts come from its hub, where only a hub administrator grants them; one made here while
    /// the first copy is still arriving would be pushed as an administrator nobody there chose.
    public func offersSetup() throws -> Bool {
        try read { db in
            try !Self.isLinked(db) && (Int.fetchOne(db.cachedStatement(sql: "SELECT COUNT(*) FROM users")) ?? 0) == 0
        }
    }

    /// True while a linked node is still bringing its first copy of the hub, accounts included (they come last).
    public func awaitsHubAccounts() throws -> Bool {
        try read { db in try Self.isLinked(db) && !Self.hasCopiedHub(db) }
    }

    /// Whether an account with this email is held here (enabled or not).
    public func holdsAccount(email: String) throws -> Bool {
        let normalized = email.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        return try read { db in
            try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM users WHERE email = ?)", arguments: [normalized]) ?? false
        }
    }

    /// Creates the first administrator; refused once any user exists (so /setup works exactly once) and on a linked node.
    @discardableResult
    public func createFirstAdministrator(_ input: NewUserInput) throws -> User {
        var first = input
        first.role = UserRole.administrator.rawValue
        guard try offersSetup() else {
            throw DomainError.protected(message: try isLinkedToHub()
                ? "This Fieldbook is linked to a hub: its accounts come from the hub. Sign in with your account there."
                : "Fieldbook already has an administrator. Sign in instead.")
        }
        return try createUser(first, by: .system("setup"))
    }

    /// Changes name, role or disabled state; the last enabled administrator cannot be demoted or disabled.
    @discardableResult
    public func updateUser(id: UUID, _ input: UserChangeInput, by actor: Actor) throws -> User {
        let valid = try input.validated()
        return try transaction(by: actor) { transaction in
            let stored = try transaction.fetch(UserRow.self, id: id)
            let user = stored.user
            let losesAdministration = user.role == .administrator && !user.isDisabled
                && (valid.role != .administrator || valid.isDisabled)
            if losesAdministration, try Self.enabledAdministratorCount(transaction.db) <= 1 {
                throw DomainError.protected(message: "\(user.name) is the only administrator. Make someone else an administrator first, so that somebody can still manage users.")
            }
            var edited = stored
            (edited.user.name, edited.user.role, edited.user.isDisabled) = (valid.name, valid.role, valid.isDisabled)
            let saved = try transaction.save(edited, over: stored)
            if saved.user.isDisabled, saved.version != stored.version { try Self.signOutEverywhere(transaction.db, userId: id) }
            return saved.user
        }
    }

    /// The language a person's pages are shown in; nil: their browser's. Which languages exist is the server's
    /// resources' business, so the tag is kept as given (a language no longer offered falls back to the browser's).
    @discardableResult
    public func setLanguage(of id: UUID, to language: String?, by actor: Actor) throws -> User {
        try transaction(by: actor) { transaction in
            let stored = try transaction.fetch(UserRow.self, id: id)
            var edited = stored
            edited.user.language = language
            return try transaction.save(edited, over: stored).user
        }
    }

    /// Sets a new password and signs the user out everywhere but on the nodes they linked (`NodeCredential`).
    public func resetPassword(id: UUID, password: String, confirmation: String, by actor: Actor) throws {
        var errors = ValidationError()
        AccountRules.checkNewPassword(password, confirmation: confirmation, into: &errors)
        try errors.throwIfAny()
        let hash = try passwordHasher.hash(password)
        try transaction(by: actor) { transaction in
            try Self.setPasswordHash(hash, of: id, in: transaction)
            try Self.signOutEverywhere(transaction.db, userId: id, keepingNodes: true)
        }
    }

    private static func setPasswordHash(_ hash: String, of id: UUID, in transaction: RecordTransaction) throws {
        let stored = try transaction.fetch(UserRow.self, id: id)
        var edited = stored
        edited.passwordHash = hash
        try transaction.save(edited, over: stored)
    }

    /// A user changing their own password: the current one must be right. Their other browser sessions and their API
    /// tokens end (whoever else was signed in as them is out); the session making the change, `keepingSession`, and
    /// the sign-ins of nodes they linked stay.
    public func changeOwnPassword(id: UUID, current: String, password: String, confirmation: String, keepingSession token: String?,
                                  by actor: Actor) throws {
        var errors = ValidationError()
        let stored = try read { try String.fetchOne($0, sql: "SELECT password_hash FROM users WHERE id = ?", arguments: [id.databaseText]) }
        if current.isEmpty {
            errors.add("current_password", "Enter your current password")
        } else if !(stored.map { passwordHasher.verify(current, against: $0) } ?? false) {
            errors.add("current_password", "That is not your current password. If you have forgotten it, ask an administrator to reset it")
        }
        AccountRules.checkNewPassword(password, confirmation: confirmation, into: &errors)
        try errors.throwIfAny()
        let hash = try passwordHasher.hash(password)
        try transaction(by: actor) { transaction in
            try Self.setPasswordHash(hash, of: id, in: transaction)
            try Self.signOutEverywhere(transaction.db, userId: id, keepingSession: token.map(TokenSecret.hash), keepingNodes: true)
        }
    }

    /// Ends the user's browser sessions and API tokens (node-local state, so nothing is recorded for sync);
    /// `keepingSession`: the hash of a session that stays (the one making the change); `keepingNodes`: the sign-ins of
    /// nodes they linked stay, as a node must not stop for a new password.
    private static func signOutEverywhere(_ db: Database, userId: UUID, keepingSession: String? = nil, keepingNodes: Bool = false) throws {
        try endSessions(db, of: userId, keeping: keepingSession)
        try db.execute(sql: "DELETE FROM api_tokens WHERE user_id = ? \(keepingNodes ? "AND " + NodeCredentialSchema.notANode : "")",
                       arguments: [userId.databaseText])
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
    init(row: Row) { self = UserRow(row: row).user }
}
