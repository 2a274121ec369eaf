import Credentials
import Domain
import Foundation
@testable import PostgresHub
import Hub
import Storage
import TestSupport
import Synchronization
import Testing

/// The PostgreSQL hub's own guarantees: the change log's order under concurrent transactions, migrations when several
/// hub processes start together, and sign-in by the same token rules as every Fieldbook.
@Suite struct PostgresHubTests {
    @Test func aChangeNumberedWhileAnOlderTransactionIsOpenIsNeverSkipped() throws {
        try PostgresCluster.with { cluster in
            let hub = try PostgresHub(url: cluster.url, poolSize: 4, passwordCost: .test)
            defer { hub.close() }
            let slow = try PostgresConnection(url: cluster.url), fast = try PostgresConnection(url: cluster.url)
            let insert = """
                INSERT INTO records (entity, id, version, fields, seq)
                VALUES ('activity_type', gen_random_uuid(), 1, jsonb_build_object('name', $1::text), nextval('change_seq'))
                """

            // The hazard, without the lock: the later number commits first, a pull passes it, and the earlier is skipped.
            try slow.execute("BEGIN")
            try slow.execute(insert, ["Slow"])
            try fast.execute("BEGIN")
            try fast.execute(insert, ["Fast"])
            try fast.execute("COMMIT")
            let passed = try hub.changes(after: 0, limit: 100)
            #expect(passed.changes.map { $0.state.fields.text("name") } == ["Fast"])
            try slow.execute("COMMIT")
            #expect(try hub.changes(after: passed.nextCursor, limit: 100).changes.isEmpty, "the earlier change is skipped for ever")

            // A push takes the change log's lock first, so it waits for the older transaction instead of passing it.
            let cursor = try hub.latestChangeSequence()
            try slow.execute("BEGIN")
            try slow.execute("SELECT pg_advisory_xact_lock($1)", [PostgresHub.changeLogLock])
            try slow.execute(insert, ["Slow again"])
            let pushed = DispatchSemaphore(value: 0)
            let operation = SyncOperation(operationId: UUID(), operation: .create, entity: "activity_type", entityId: UUID(),
                                          fields: ["name": .string("Pushed")], before: [:], baseVersion: 0, author: "system:test",
                                          createdAt: Date())
            Thread.detachNewThread {
                _ = try? hub.applyPush(PushRequest(nodeId: UUID(), operations: [operation]))
                pushed.signal()
            }
            #expect(pushed.wait(timeout: .now() + 1) == .timedOut, "the push waits for the open transaction")
            #expect(try hub.changes(after: cursor, limit: 100).changes.isEmpty)
            try slow.execute("COMMIT")
            #expect(pushed.wait(timeout: .now() + 10) == .success)
            let page = try hub.changes(after: cursor, limit: 100)
            #expect(page.changes.map { $0.state.fields.text("name") } == ["Slow again", "Pushed"])
        }
    }

    @Test func hubsStartingTogetherMigrateOnceAndAllServe() throws {
        try PostgresCluster.with { cluster in
            let started = Mutex<[Result<PostgresHub, Error>]>([])
            let group = DispatchGroup()
            for _ in 0..<4 {
                group.enter()
                Thread.detachNewThread {
                    let hub = Result { try PostgresHub(url: cluster.url, poolSize: 2, passwordCost: .test) }
                    started.withLock { $0.append(hub) }
                    group.leave()
                }
            }
            group.wait()
            let hubs = try started.withLock { try $0.map { try $0.get() } }
            defer { hubs.forEach { $0.close() } }
            #expect(hubs.allSatisfy { $0.isHealthy() })
            #expect(try cluster.psql("SELECT count(*) FROM fieldbook_schema").trimmingCharacters(in: .whitespacesAndNewlines)
                    == String(PostgresHubSchema.steps.count))
            let predefined = CategoryKind.allCases.map(\.predefined.count).reduce(0, +)
            #expect(try cluster.psql("SELECT count(*) FROM records WHERE seq IS NULL").trimmingCharacters(in: .whitespacesAndNewlines)
                    == String(predefined))
        }
    }

    /// Many values travel as one array parameter (`PostgresArray.literal`): each comes back as it was sent.
    @Test func anArrayLiteralCarriesEveryTextUnchanged() throws {
        let texts = ["plain", "", "NULL", "with \"quotes\"", "back\\slash\\", "comma, {braces}", "ünïcødé ✓", " spaced ", "{\"json\": [1, \"a\\\"b\"]}"]
        try PostgresCluster.with { cluster in
            let connection = try PostgresConnection(url: cluster.url)
            let rows = try connection.execute("SELECT value FROM unnest($1::text[]) WITH ORDINALITY AS t(value, n) ORDER BY n",
                                              [PostgresArray.literal(texts)])
            #expect(rows.values.map { $0[0] } == texts.map(Optional.some))
        }
    }

    @Test func aPhotoFileTheHubDoesNotHoldIsAnsweredAsMissing() throws {
        try PostgresCluster.with { cluster in
            let hub = try PostgresHub(url: cluster.url, poolSize: 2, passwordCost: .test)
            defer { hub.close() }
            #expect(try hub.heldPhotoFile(String(repeating: "0", count: 64)) == nil)
            #expect(try hub.photoFilesHeld(among: [String(repeating: "0", count: 64)]).isEmpty)
        }
    }

    /// The same sign-in steps, and the same answers, on a SQLite Fieldbook and on a PostgreSQL hub.
    @Test func signInAndTokenRotationFollowTheSameRulesOnBothKindsOfHub() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fieldbook-tokens-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = NewUserInput(name: "Ada", email: "Ada@Example.org", role: "administrator", password: "correct horse 1",
                                 passwordConfirmation: "correct horse 1")
        let sqlite = try AppDatabase(path: folder.appendingPathComponent("fieldbook.sqlite").path, passwordCost: .test)
        try sqlite.createUser(input, by: .system("test"))
        let onSQLite = try Self.signInSteps(sqlite)
        let onPostgres = try PostgresCluster.with { cluster in
            let hub = try PostgresHub(url: cluster.url, poolSize: 2, passwordCost: .test)
            defer { hub.close() }
            try hub.createUser(input)
            #expect(throws: ValidationError.self) { try hub.createUser(input) }
            return try Self.signInSteps(hub)
        }
        #expect(onPostgres == onSQLite)
        #expect(onSQLite == ["wrong password refused", "signed in as administrator", "bearer works", "refreshed", "old access refused",
                             "lost answers retried", "replayed token refused", "family revoked", "lost token revokes its sign-in"])
    }

    private static func signInSteps(_ hub: any SyncHub) throws -> [String] {
        var steps: [String] = []
        let now = Date(), policy = APITokenPolicy()
        if try hub.verifyCredentials(email: "ada@example.org", password: "wrong") == nil { steps.append("wrong password refused") }
        guard let user = try hub.verifyCredentials(email: " ADA@example.org ", password: "correct horse 1") else { return steps }
        steps.append("signed in as \(user.role.rawValue)")
        let first = try hub.issueAPITokens(for: user, policy: policy, now: now)
        if try hub.apiBearer(accessToken: first.accessToken, now: now)?.user.id == user.id { steps.append("bearer works") }
        guard let second = try hub.refreshAPITokens(refreshToken: first.refreshToken, policy: policy, now: now) else { return steps }
        steps.append("refreshed")
        if try hub.apiBearer(accessToken: first.accessToken, now: now) == nil { steps.append("old access refused") }
        // The answers to that refresh and to its retry were lost: the client presents the same refresh token again.
        guard let lost = try hub.refreshAPITokens(refreshToken: first.refreshToken, policy: policy, now: now),
              let retried = try hub.refreshAPITokens(refreshToken: first.refreshToken, policy: policy, now: now) else { return steps }
        if try hub.apiBearer(accessToken: retried.accessToken, now: now) != nil, try hub.apiBearer(accessToken: lost.accessToken, now: now) == nil,
           Set([second.refreshToken, lost.refreshToken, retried.refreshToken]).count == 3 {
            steps.append("lost answers retried")
        }
        guard let used = try hub.refreshAPITokens(refreshToken: retried.refreshToken, policy: policy, now: now) else { return steps }
        // Presented after its successor was used, the same token is a copy: refused, and the whole sign-in ends.
        if try hub.refreshAPITokens(refreshToken: first.refreshToken, policy: policy, now: now) == nil { steps.append("replayed token refused") }
        if try hub.refreshAPITokens(refreshToken: used.refreshToken, policy: policy, now: now) == nil,
           try hub.apiBearer(accessToken: used.accessToken, now: now) == nil { steps.append("family revoked") }
        // Another sign-in: its client received a rotation, then a copy of the older token was presented (taken for a
        // retry). The token the client holds turns up as a lost one: a copy is about, and the sign-in ends.
        let other = try hub.issueAPITokens(for: user, policy: policy, now: now)
        guard let received = try hub.refreshAPITokens(refreshToken: other.refreshToken, policy: policy, now: now),
              let taken = try hub.refreshAPITokens(refreshToken: other.refreshToken, policy: policy, now: now) else { return steps }
        if try hub.refreshAPITokens(refreshToken: received.refreshToken, policy: policy, now: now) == nil,
           try hub.refreshAPITokens(refreshToken: taken.refreshToken, policy: policy, now: now) == nil,
           try hub.apiBearer(accessToken: taken.accessToken, now: now) == nil { steps.append("lost token revokes its sign-in") }
        return steps
    }
}
