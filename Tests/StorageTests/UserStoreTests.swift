import Domain
import Foundation
@testable import Storage
import Testing

@Suite struct UserStoreTests {
    let password = "correct horse battery staple"

    func newUser(_ email: String, _ role: UserRole) -> NewUserInput { .forTests(email, role, password: password) }

    @Test func verifiesCredentialsAndStoresOnlyAHash() throws {
        let given = try TestDatabase()
        let user = try given.database.createUser(newUser("Ada@Example.org", .editor), by: .system("test"))
        #expect(user.email == "ada@example.org")
        #expect(try given.database.verifyCredentials(email: " ADA@example.org ", password: password)?.id == user.id)
        #expect(try given.database.verifyCredentials(email: "ada@example.org", password: password + "x") == nil)
        #expect(try given.database.verifyCredentials(email: "nobody@example.org", password: password) == nil)
        let stored = try given.database.pool.read { try String.fetchOne($0, sql: "SELECT password_hash FROM users") }
        #expect(stored?.hasPrefix("scrypt$10$8$1$") == true)
        #expect(stored?.contains(password) == false)
    }

    @Test func firstAdministratorCanOnlyBeCreatedOnce() throws {
        let given = try TestDatabase(linked: false)
        #expect(try given.database.offersSetup())
        let first = try given.database.createFirstAdministrator(newUser("first@example.org", .readOnly))
        #expect(first.role == .administrator)
        #expect(try !given.database.offersSetup())
        #expect(throws: DomainError.self) { try given.database.createFirstAdministrator(newUser("second@example.org", .administrator)) }
    }

    // Issue 36: a linked node's accounts come from its hub; one made here before they arrive would be pushed as an
    // administrator no hub administrator chose.
    @Test func aLinkedFieldbookWithoutAccountsOffersNoSetup() throws {
        let given = try TestDatabase()
        #expect(try given.database.userCount() == 0)
        #expect(try !given.database.offersSetup())
        #expect(try given.database.awaitsHubAccounts())
        #expect(throws: DomainError.self) { try given.database.createFirstAdministrator(newUser("first@example.org", .administrator)) }
    }

    @Test func theLastAdministratorCannotBeDemotedOrDisabled() throws {
        let given = try TestDatabase()
        let admin = try given.database.createUser(newUser("admin@example.org", .administrator), by: .system("test"))
        #expect(throws: DomainError.self) {
            try given.database.updateUser(id: admin.id, UserChangeInput(name: "Admin", role: "editor", isDisabled: false), by: .user(admin.id))
        }
        #expect(throws: DomainError.self) {
            try given.database.updateUser(id: admin.id, UserChangeInput(name: "Admin", role: "administrator", isDisabled: true), by: .user(admin.id))
        }
        try given.database.createUser(newUser("second@example.org", .administrator), by: .user(admin.id))
        let demoted = try given.database.updateUser(id: admin.id, UserChangeInput(name: "Admin", role: "editor", isDisabled: false),
                                                    by: .user(admin.id))
        #expect(demoted.role == .editor)
    }

    @Test func disablingOrResettingAPasswordEndsSessions() throws {
        let given = try TestDatabase()
        let admin = try given.database.createUser(newUser("admin@example.org", .administrator), by: .system("test"))
        let editor = try given.database.createUser(newUser("editor@example.org", .editor), by: .user(admin.id))
        let policy = SessionPolicy()
        let first = try given.database.startSession(for: editor.id)
        #expect(try given.database.session(token: first.token, policy: policy)?.user.id == editor.id)
        try given.database.resetPassword(id: editor.id, password: "another long password", confirmation: "another long password",
                                         by: .user(admin.id))
        #expect(try given.database.session(token: first.token, policy: policy) == nil)
        #expect(try given.database.verifyCredentials(email: "editor@example.org", password: "another long password") != nil)
        let second = try given.database.startSession(for: editor.id)
        try given.database.updateUser(id: editor.id, UserChangeInput(name: "Ed", role: "editor", isDisabled: true), by: .user(admin.id))
        #expect(try given.database.session(token: second.token, policy: policy) == nil)
        #expect(try given.database.verifyCredentials(email: "editor@example.org", password: "another long password") == nil)
    }

    @Test func sessionsExpireWhenIdleOrTooOld() throws {
        let given = try TestDatabase()
        let user = try given.database.createUser(newUser("admin@example.org", .administrator), by: .system("test"))
        let policy = SessionPolicy(idleTimeout: 600, absoluteTimeout: 3600)
        let start = Date()
        let idle = try given.database.startSession(for: user.id)
        #expect(try given.database.session(token: idle.token, policy: policy, now: start.addingTimeInterval(300)) != nil)
        #expect(try given.database.session(token: idle.token, policy: policy, now: start.addingTimeInterval(300 + 601)) == nil)
        let old = try given.database.startSession(for: user.id)
        var now = start
        while now < start.addingTimeInterval(3500) {
            now = now.addingTimeInterval(500)
            #expect(try given.database.session(token: old.token, policy: policy, now: now) != nil)
        }
        #expect(try given.database.session(token: old.token, policy: policy, now: start.addingTimeInterval(3700)) == nil)
    }

    @Test func userWritesGoThroughTheOutbox() throws {
        let given = try TestDatabase()
        let admin = try given.database.createUser(newUser("admin@example.org", .administrator), by: .system("test"))
        try given.database.createUser(newUser("reader@example.org", .readOnly), by: .user(admin.id))
        let entries = try given.database.outboxEntries()
        #expect(entries.map(\.change.entity) == ["user", "user"])
        #expect(entries[1].author == admin.id.uuidString.lowercased())
    }

    @Test func backupIsAConsistentCopy() throws {
        let given = try TestDatabase()
        try given.database.createCategory(.activityType, CategoryInput(name: "Choir"), by: .system("test"))
        let copyPath = given.directory.appendingPathComponent("copy.sqlite").path
        try given.database.backup(to: copyPath)
        let copy = try AppDatabase(path: copyPath, passwordCost: .test)
        #expect(try copy.categories(.activityType).contains { $0.name == "Choir" })
        #expect(try copy.outboxEntries().count == 1)
    }
}
