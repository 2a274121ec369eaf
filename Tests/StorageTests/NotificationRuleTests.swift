import Domain
import Foundation
import Records
import GRDB
import PropertyBased
@testable import Storage
import Testing

/// The notification rules (issue 13, organizer property 19): for any event a rule matches, exactly one notification
/// with the right person, kind, record and text; none for the person who caused it, a disabled account, or a kind the
/// person turned off; nothing twice.
@Suite struct NotificationRuleTests {
    @Test func property19_eachMatchedEventMakesExactlyOneNotificationForEachPersonItConcerns() async throws {
        await propertyCheck(count: 40, input: Gen.int(in: 0...1_000_000)) { seed in
            var random = SeededRandom(seed: UInt64(seed))
            let world = try NotificationWorld(random: &random)
            for _ in 0..<6 {
                let (expected, describe) = try world.randomEvent(&random)
                let made = try world.database.deliverNotifications()
                let got = made.map { Expected(user: $0.userId, kind: $0.kind, subject: $0.subject.id) }
                #expect(got.sorted() == expected.sorted(), "seed \(seed): \(describe)")
                for notification in made {
                    let stored = try world.database.notification(id: notification.id, for: notification.userId)
                    #expect(stored.text == notification.text && stored.kind == notification.kind && stored.subject == notification.subject && !stored.isRead)
                    #expect(world.names.contains { notification.text.contains($0) }, "the text names its record: \(notification.text)")
                }
                #expect(try world.database.deliverNotifications().isEmpty, "nothing is told twice")
            }
        }
    }

    @Test func changesPushedByANodeAreNotToldAgainOnTheHub() throws {
        let given = try TestDatabase(linked: false)
        let world = try NotificationWorld(given)
        let (participant, user) = try #require(world.participantUsers.first)
        let activity = try #require(world.activities.first)
        let push = PushRequest(nodeId: UUID(), operations: [SyncOperation(
            operationId: UUID(), operation: .create, entity: "assignment", entityId: UUID(),
            fields: ["activity_id": .string(activity.databaseText), "participant_id": .string(participant.databaseText),
                     "role_id": .string(world.role.databaseText), "assigned_at": .string(Date().storedText)], before: [:],
            baseVersion: 0, author: world.admin.databaseText, createdAt: Date())])
        #expect(try given.database.applyPush(push).results.first?.outcome == .applied)
        #expect(try given.database.deliverNotifications().isEmpty, "the node that made the change told \(user)")
    }

    @Test func aLostConflictAndSetAsideChangesTellTheirAuthor() throws {
        let given = try TestDatabase()
        let world = try NotificationWorld(given)
        _ = try given.database.deliverNotifications()
        let editor = try #require(world.participantUsers.first?.user)
        try given.database.pool.write { db in
            try SyncNoticeKind.note(db, .conflictLost, entity: "activity", entityId: world.activities[0], author: editor.databaseText,
                                    detail: UUID().databaseText)
            try SyncNoticeKind.note(db, .setAside, author: editor.databaseText)
            try SyncNoticeKind.note(db, .setAside, author: editor.databaseText)
        }
        let made = try given.database.deliverNotifications()
        #expect(made.map(\.kind).sorted { $0.rawValue < $1.rawValue } == [.conflictLost, .operationsSetAside])
        #expect(made.allSatisfy { $0.userId == editor })
        #expect(made.first { $0.kind == .operationsSetAside }?.text.contains("2 changes of yours") == true)
    }

    @Test func aHubOutageIsToldToAdministratorsOncePerOutage() throws {
        let given = try TestDatabase()
        let world = try NotificationWorld(given)
        _ = try given.database.deliverNotifications()
        let since = Date().addingTimeInterval(-2 * 3600)
        #expect(try given.database.deliverNotifications(outage: HubOutage(since: Date().addingTimeInterval(-60), pending: 3)).isEmpty,
                "a minute is not an outage")
        let told = try given.database.deliverNotifications(outage: HubOutage(since: since, pending: 3))
        #expect(Set(told.map(\.userId)) == Set(world.administrators.filter { world.receives($0, .hubUnreachable) }))
        #expect(told.allSatisfy { $0.kind == .hubUnreachable && $0.text.contains("3 changes are waiting") })
        #expect(try given.database.deliverNotifications(outage: HubOutage(since: since, pending: 4)).isEmpty, "the same outage")
    }

    @Test func readingIsPerPersonAndOthersNotificationsAreOutOfReach() throws {
        let given = try TestDatabase()
        let world = try NotificationWorld(given)
        let (participant, user) = try #require(world.participantUsers.first)
        try given.database.assign(participant: participant.databaseText, role: world.role.databaseText, toActivity: world.activities[0],
                                  by: .user(world.admin))
        let made = try #require(try given.database.deliverNotifications().first)
        #expect(try given.database.unreadNotificationCount(for: user) == 1)
        let someoneElse = try #require(try given.database.read { db in try UserRow.fetchOne(db, key: world.admin.databaseText)?.user })
        #expect(throws: DomainError.self) { try given.database.markNotificationRead(id: made.id, by: someoneElse) }
        let owner = try #require(try given.database.read { db in try UserRow.fetchOne(db, key: user.databaseText)?.user })
        #expect(try given.database.markNotificationRead(id: made.id, by: owner).isRead)
        #expect(try given.database.unreadNotificationCount(for: user) == 0)
        let queued = try given.database.outboxEntries(limit: 100_000).map(\.change).filter { $0.entity == "notification" }
        #expect(queued.map(\.operation) == [.create, .update], "made and read, both queued for the hub")
        #expect(try given.database.deliverNotifications().isEmpty, "reading a notification tells nobody")
    }
}

/// What a test expects: one notification for a person, of a kind, about a record.
struct Expected: Comparable, CustomStringConvertible {
    let user: UUID
    let kind: NotificationKind
    let subject: UUID?

    static func < (lhs: Expected, rhs: Expected) -> Bool { lhs.description < rhs.description }
    var description: String { "\(user.uuidString.prefix(6)) \(kind.rawValue) \(subject?.uuidString.prefix(6) ?? "-")" }
}

/// A small community with accounts: two administrators (the first makes every change), and people who are both a
/// participant and an account (same email), with random roles, disabled accounts and turned-off kinds.
final class NotificationWorld {
    let given: TestDatabase
    var database: AppDatabase { given.database }
    let admin: UUID
    private(set) var administrators: [UUID] = []
    /// Participant and account of the same person.
    private(set) var participantUsers: [(participant: UUID, user: UUID)] = []
    private(set) var activities: [UUID] = []
    let role: UUID
    private(set) var names: [String] = []
    private(set) var disabled = Set<UUID>()
    private var muted: [UUID: Set<NotificationKind>] = [:]
    private var roles: [UUID: UserRole] = [:]

    convenience init(random: inout SeededRandom) throws {
        try self.init(TestDatabase(linked: false), random: &random)
    }

    init(_ given: TestDatabase, random: inout SeededRandom) throws {
        self.given = given
        let database = given.database
        _ = try database.importDemoCommunity(size: DemoCommunity.Size(venues: 3, participants: 8, activities: 4), seed: random.next() % 1000)
        role = CategoryKind.participantRole.predefined[0].id
        admin = try Self.user(database, "Ada", "ada@example.org", .administrator)
        let second = try Self.user(database, "Bo", "bo@example.org", .administrator)
        administrators = [admin, second]
        roles = [admin: .administrator, second: .administrator]
        let people = try database.read { db in try Row.fetchAll(db, sql: "SELECT id, name, email FROM participants WHERE email <> '' ORDER BY id") }
        for (index, person) in people.prefix(5).enumerated() {
            let role = UserRole.allCases[Int(random.next() % 3)]
            let user = try Self.user(database, person["name"], person["email"], role)
            participantUsers.append((person.uuid("id"), user))
            roles[user] = role
            if role == .administrator { administrators.append(user) }
            if index == 4, random.next() % 2 == 0 {
                try database.updateUser(id: user, UserChangeInput(name: person["name"], role: role.rawValue, isDisabled: true), by: .system("test"))
                disabled.insert(user)
            }
            let mutedKinds = Set(NotificationKind.allCases.filter { _ in random.next() % 4 == 0 })
            if !mutedKinds.isEmpty {
                let account = try database.read { db in try UserRow.fetchOne(db, key: user.databaseText)!.user }
                try database.saveNotificationPreferences(NotificationPreferences(userId: user, mutedKinds: mutedKinds), by: account)
                muted[user] = mutedKinds
            }
        }
        activities = try database.read { db in try String.fetchAll(db, sql: "SELECT id FROM activities ORDER BY id") }.compactMap(UUID.init(uuidString:))
        names = try database.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM activities UNION SELECT name FROM users UNION SELECT name FROM visit_lists")
        }
        _ = try database.deliverNotifications()
    }

    convenience init(_ given: TestDatabase) throws {
        var random = SeededRandom(seed: 7)
        try self.init(given, random: &random)
    }

    private static func user(_ database: AppDatabase, _ name: String, _ email: String, _ role: UserRole) throws -> UUID {
        try database.createUser(NewUserInput(name: name, email: email, role: role.rawValue, password: "correct horse 1",
                                             passwordConfirmation: "correct horse 1"), by: .system("test")).id
    }

    /// Whether `user` is told of `kind` by a change the first administrator made.
    private func tells(_ user: UUID, _ kind: NotificationKind) -> Bool { user != admin && receives(user, kind) }

    /// Whether `user` is told of `kind` at all.
    func receives(_ user: UUID, _ kind: NotificationKind) -> Bool {
        !disabled.contains(user) && !(muted[user]?.contains(kind) ?? false) && (!kind.isForAdministrators || roles[user] == .administrator)
    }

    private func usersOf(participant: UUID) -> [UUID] { participantUsers.filter { $0.participant == participant }.map(\.user) }

    private func usersOf(activity: UUID) throws -> [UUID] {
        let assigned = try database.read { db in
            try String.fetchAll(db, sql: "SELECT DISTINCT participant_id FROM assignments WHERE activity_id = ?", arguments: [activity.databaseText])
        }.compactMap(UUID.init(uuidString:))
        return Array(Set(assigned.flatMap(usersOf(participant:))))
    }

    /// Makes one random change as the first administrator; returns the notifications it should make.
    func randomEvent(_ random: inout SeededRandom) throws -> ([Expected], String) {
        let by = Actor.user(admin)
        switch random.next() % 5 {
        case 0:
            let (participant, _) = participantUsers[Int(random.next() % UInt64(participantUsers.count))]
            let activity = activities[Int(random.next() % UInt64(activities.count))]
            let already = try database.read { db in
                try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM assignments WHERE activity_id = ? AND participant_id = ? AND role_id = ?)",
                                  arguments: [activity.databaseText, participant.databaseText, role.databaseText]) ?? false
            }
            guard !already else { return ([], "nothing") }
            try database.assign(participant: participant.databaseText, role: role.databaseText, toActivity: activity, by: by)
            return (usersOf(participant: participant).filter { tells($0, .assignedToActivity) }
                .map { Expected(user: $0, kind: .assignedToActivity, subject: activity) }, "assign")
        case 1:
            guard let row = try database.read({ db in try Row.fetchOne(db, sql: "SELECT id, participant_id, activity_id FROM assignments ORDER BY random()") })
            else { return ([], "nothing to unassign") }
            try database.unassign(row.uuid("id"), by: by)
            return (usersOf(participant: row.uuid("participant_id")).filter { tells($0, .removedFromActivity) }
                .map { Expected(user: $0, kind: .removedFromActivity, subject: row.uuid("activity_id")) }, "unassign")
        case 2:
            let activity = activities[Int(random.next() % UInt64(activities.count))]
            let status = ActivityStatus.allCases[Int(random.next() % 4)]
            let changed = try database.transaction(by: by) { records -> Bool in
                let stored = try records.fetch(Activity.self, id: activity)
                var edited = stored
                edited.status = status
                return try records.save(edited, over: stored).version != stored.version
            }
            guard changed else { return ([], "same status") }
            let kind: NotificationKind = status == .cancelled ? .activityCancelled : .activityChanged
            return (try usersOf(activity: activity).filter { tells($0, kind) }.map { Expected(user: $0, kind: kind, subject: activity) }, "status \(status)")
        case 3:
            // Visit lists go to enabled editors and administrators only.
            let everyone = Array(roles.keys.filter { !disabled.contains($0) && roles[$0] != .readOnly }).sorted { $0.uuidString < $1.uuidString }
            let assignee = everyone[Int(random.next() % UInt64(everyone.count))]
            let list = try database.createVisitList(VisitListInput(name: "Round \(random.next() % 100)", visitDate: "2026-12-01",
                                                                   assigneeId: assignee.databaseText), stops: .picked([]), by: by)
            names.append(list.name)
            return (tells(assignee, .visitListAssigned) ? [Expected(user: assignee, kind: .visitListAssigned, subject: list.id)] : [], "visit list")
        default:
            let candidates = participantUsers.map(\.user).filter { !disabled.contains($0) }
            guard let user = candidates.randomElement(using: &random) else { return ([], "nobody to disable") }
            let account = try database.read { db in try UserRow.fetchOne(db, key: user.databaseText)!.user }
            try database.updateUser(id: user, UserChangeInput(name: account.name, role: account.role.rawValue, isDisabled: true), by: by)
            disabled.insert(user)
            return (administrators.filter { $0 != user && tells($0, .userDisabled) }.map { Expected(user: $0, kind: .userDisabled, subject: user) },
                    "disable")
        }
    }
}

/// A small deterministic generator (SplitMix64), so a failing seed can be replayed.
struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
