import Domain
import Foundation
@testable import PostgresHub
import Hub
import Records
import Storage
import TestSupport
import Testing

/// The same pushed operations give the same answers and the same change log on a SQLite hub and on a PostgreSQL hub:
/// nodes cannot tell which kind of hub they sync with (issue 17).
@Suite struct SameResultsAsSQLiteHubTests {
    /// Operations covering each rule a hub applies: creates, clean edits, merges, conflicts on a field and on a deleted
    /// record, a repeated operation id, checks of the page's form, references (missing, RESTRICT, CASCADE, SET NULL),
    /// unique names and emails, the author's role, and append-only records.
    static func script() -> [SyncOperation] {
        let area = UUID(), otherArea = UUID(), venue = UUID(), person = UUID(), address = UUID(), type = UUID(), activity = UUID()
        let editor = UUID(), listId = UUID(), stop = UUID(), log = UUID()
        let mover = UUID(), venue2 = UUID(), firstHome = UUID(), lostMove = UUID(), laterHome = UUID(), earlierStay = UUID()
        let cook = CategoryKind.participantRole.predefined[0].id
        let editorFields: [String: JSONValue] = ["email": "editor@example.org", "name": "Ed", "role": "editor",
                                                 "password_hash": "scrypt$10$8$1$AAAA$AAAA", "is_disabled": .bool(false)]
        let firstCreate = operation(.create, "geographic_area", area, ["name": "Riverside", "area_type": "CITY", "parent_id": .null])
        return [
            firstCreate,
            firstCreate,  // the same operation again: the first answer, nothing applied twice
            operation(.create, "geographic_area", otherArea, ["name": "Hillside", "area_type": "NEIGHBOURHOOD", "parent_id": .string(area.lowercaseText)]),
            operation(.update, "geographic_area", area, ["parent_id": .string(otherArea.lowercaseText)], before: ["parent_id": .null], base: 1),
            operation(.create, "venue", venue, ["name": "Hall", "address": "1 Main St", "geographic_area_id": .string(area.lowercaseText),
                                                "latitude": .double(51.5), "longitude": .double(-0.1), "venue_type": "PUBLIC_BUILDING"]),
            operation(.create, "venue", UUID(), ["name": "Nowhere", "address": "2 Main St", "geographic_area_id": .string(UUID().lowercaseText),
                                                 "latitude": .null, "longitude": .null, "venue_type": "PUBLIC_BUILDING"]),
            operation(.create, "participant", person, ["name": "Ann Okafor", "email": "ann@example.org", "phone": .null,
                                                       "notes": .null, "home_venue_id": .string(venue.lowercaseText)]),
            operation(.create, "participant", UUID(), ["name": "", "email": "not an email", "phone": .null, "notes": .null,
                                                       "home_venue_id": .null]),
            operation(.create, "participant", UUID(), ["name": "Upper", "email": "upper@example.org", "phone": .null, "notes": .null,
                                                       "home_venue_id": .string(venue.uuidString)]),
            operation(.create, "activity_type", UUID(), ["name": "Ébénisterie"]),
            operation(.create, "activity_type", UUID(), ["name": "éBÉNISTERIE"]),
            // Moves from two nodes meeting at the hub: open address periods made to agree with the home again.
            operation(.create, "venue", venue2, ["name": "Annex", "address": "3 Main St", "geographic_area_id": .string(area.lowercaseText),
                                                 "latitude": .null, "longitude": .null, "venue_type": "PUBLIC_BUILDING"]),
            operation(.create, "participant", mover, ["name": "Moe Mover", "email": "moe@example.org", "phone": .null, "notes": .null,
                                                      "home_venue_id": .string(venue.lowercaseText)]),
            operation(.create, "participant_address", firstHome, ["participant_id": .string(mover.lowercaseText), "venue_id": .string(venue.lowercaseText),
                                                                  "effective_from": "2025-01-01", "effective_to": .null]),
            operation(.create, "participant_address", lostMove, ["participant_id": .string(mover.lowercaseText), "venue_id": .string(venue2.lowercaseText),
                                                                 "effective_from": "2025-03-01", "effective_to": .null]),
            operation(.update, "participant", mover, ["home_venue_id": .string(venue2.lowercaseText)], before: ["home_venue_id": .string(venue.lowercaseText)], base: 1),
            operation(.create, "participant_address", laterHome, ["participant_id": .string(mover.lowercaseText), "venue_id": .string(venue2.lowercaseText),
                                                                  "effective_from": "2025-06-01", "effective_to": .null]),
            operation(.create, "participant_address", earlierStay, ["participant_id": .string(mover.lowercaseText), "venue_id": .string(venue.lowercaseText),
                                                                    "effective_from": "2025-02-01", "effective_to": .null]),
            operation(.update, "participant", person, ["phone": "555-0100"], before: ["phone": .null], base: 1),
            operation(.update, "participant", person, ["notes": "Likes tea"], before: ["notes": .null], base: 1),
            operation(.update, "participant", person, ["phone": "555-0199"], before: ["phone": .null], base: 1),
            operation(.create, "participant_address", address, ["participant_id": .string(person.lowercaseText), "venue_id": .string(venue.lowercaseText),
                                                                "effective_from": "2025-01-01", "effective_to": .null]),
            operation(.create, "activity_type", type, ["name": "Choir"]),
            operation(.create, "activity_type", UUID(), ["name": "choir"]),
            operation(.create, "activity", activity, ["name": "Sunday choir", "description": .null, "activity_type_id": .string(type.lowercaseText),
                                                      "start_date": "2025-02-01", "end_date": .null, "status": "ACTIVE"]),
            operation(.create, "assignment", UUID(), ["activity_id": .string(activity.lowercaseText), "participant_id": .string(person.lowercaseText),
                                                      "role_id": .string(cook.lowercaseText), "assigned_at": "2025-02-01 10:00:00.000"]),
            operation(.delete, "geographic_area", area, [:], base: 2),
            operation(.create, "user", editor, editorFields),
            operation(.create, "user", UUID(), editorFields.merging(["email": "EDITOR@example.org"]) { $1 }),
            operation(.create, "user", UUID(), editorFields.merging(["email": "someone@example.org"]) { $1 }, author: editor.lowercaseText),
            operation(.create, "visit_list", listId, ["name": "Door knocking", "visit_date": "2025-03-01", "purpose": "", "script": "",
                                                      "assigned_user_id": .string(editor.lowercaseText), "status": "PLANNED"]),
            operation(.create, "visit_stop", stop, ["visit_list_id": .string(listId.lowercaseText), "venue_id": .string(venue.lowercaseText),
                                                    "participant_id": .string(person.lowercaseText), "follow_up_of": .null,
                                                    "added_at": "2025-03-01 09:00:00.000"]),
            operation(.create, "visit_stop", UUID(), ["visit_list_id": .string(listId.lowercaseText), "venue_id": .string(String(repeating: "v", count: 3000)),
                                                      "participant_id": .null, "follow_up_of": .null, "added_at": "2025-03-01 09:00:00.000"]),
            operation(.create, "contact_log", log, ["visit_stop_id": .string(stop.lowercaseText), "result": "SPOKE", "note": "",
                                                    "logged_at": "2025-03-01 09:30:00.000", "logged_by": .string(editor.lowercaseText),
                                                    "latitude": .null, "longitude": .null, "accuracy_m": .null]),
            operation(.update, "contact_log", log, ["note": "Changed later"], before: ["note": ""], base: 1),
            operation(.create, "visit_list", UUID(), ["name": "No purpose", "visit_date": "2025-03-01", "purpose": .null, "script": "",
                                                      "assigned_user_id": .string(editor.lowercaseText), "status": "PLANNED"]),
            operation(.delete, "participant", person, [:], base: 2),
            operation(.delete, "participant", person, [:], base: 3),
            operation(.update, "participant", person, ["name": "Ann O."], before: ["name": "Ann Okafor"], base: 3),
            operation(.update, "participant", UUID(), ["name": "Ghost"], before: ["name": "Nobody"], base: 1),
            operation(.create, "no_such_kind", UUID(), ["name": "x"]),
        ]
    }

    @Test func theSameOperationsGiveTheSameAnswersAndTheSameChangeLog() throws {
        try Self.withBothKindsOfHub { sqliteHub, postgresHub in
            var answers: [String] = []
            for (index, operation) in Self.script().enumerated() {
                let push = PushRequest(nodeId: UUID(), operations: [operation])
                let onSQLite = try sqliteHub.applyPush(push).results
                let onPostgres = try postgresHub.applyPush(push).results
                #expect(onPostgres.map(Comparable.init) == onSQLite.map(Comparable.init), "operation \(index): \(operation.operation) \(operation.entity)")
                answers += onSQLite.map { "\($0.outcome) \($0.reason ?? "")" }
            }
            // The script reaches every rule it is meant to: otherwise agreeing would prove little.
            for expected in ["applied", "merged", "conflict edited", "conflict deleted", "conflict changed", "refers to a record",
                             "already has the same name", "already has the same email", "needs a value for purpose",
                             "may not change this kind", "never changed or deleted", "cannot be inside itself", "does not exist on the hub",
                             "does not know records"] {
                #expect(answers.contains { $0.contains(expected) }, "no answer says \(expected): \(answers)")
            }
            let sqliteLog = try sqliteHub.changes(after: 0, limit: 2000)
            let postgresLog = try postgresHub.changes(after: 0, limit: 2000)
            // The moves took both of reconciliation's steps: two periods removed (besides the one a deleted participant
            // took with it) and an earlier one closed.
            let periods = sqliteLog.changes.map(\.state).filter { $0.entity == "participant_address" }
            #expect(periods.filter(\.deleted).count == 3 && periods.contains { $0.fields["effective_to"] == "2025-06-01" })
            // The records one deletion takes with it may be numbered in another order: that order carries no meaning.
            #expect(postgresLog.changes.map { Comparable($0.state) }.sorted() == sqliteLog.changes.map { Comparable($0.state) }.sorted())
            #expect(postgresLog.changes.map(\.seq) == postgresLog.changes.map(\.seq).sorted())
            #expect(!postgresLog.hasMore && postgresLog.remaining == 0)
        }
    }

    /// The same script as one batch (an operation repeated within its own batch included) on fresh hubs.
    @Test func theScriptAsOneBatchGetsTheSameAnswersOnBothKindsOfHub() throws {
        try Self.withBothKindsOfHub { sqliteHub, postgresHub in
            let push = PushRequest(nodeId: UUID(), operations: Self.script())
            let onSQLite = try sqliteHub.applyPush(push).results.map(Comparable.init)
            let onPostgres = try postgresHub.applyPush(push).results.map(Comparable.init)
            #expect(onPostgres == onSQLite)
            #expect(onPostgres[0] == onPostgres[1], "the repeated operation gets the first answer")
        }
    }

    /// A PostgreSQL hub writes a batch without deletions together (issue 17), a SQLite hub one without deletions or
    /// accounts (issue 15). With a repeated unique key in it, which only the database sees, the batch is decided again
    /// one write at a time; without one, its records are written together. Either way both kinds of hub give the same
    /// answers and the same change log.
    @Test func aBatchWithoutDeletionsGetsTheSameAnswersAndTheSameChangeLog() throws {
        let withoutDeletions = Self.script().filter { $0.operation != .delete }
        let repeatsNoUniqueKey = withoutDeletions.filter { operation in
            !["éBÉNISTERIE", "choir"].contains(operation.fields.text("name")) && operation.fields.text("email") != "EDITOR@example.org"
        }
        // Without accounts too: a SQLite hub writes such a batch together, and decides it again the same way.
        let noAccounts = { (operations: [SyncOperation]) in operations.filter { $0.entity != "user" } }
        for (operations, refusesARepeatedKey) in [(withoutDeletions, true), (repeatsNoUniqueKey, false),
                                                  (noAccounts(withoutDeletions), true), (noAccounts(repeatsNoUniqueKey), false)] {
            try Self.withBothKindsOfHub { sqliteHub, postgresHub in
                let push = PushRequest(nodeId: UUID(), operations: operations)
                let onSQLite = try sqliteHub.applyPush(push).results
                let onPostgres = try postgresHub.applyPush(push).results
                #expect(onPostgres.map(Comparable.init) == onSQLite.map(Comparable.init))
                #expect(onSQLite.contains { $0.reason?.contains("already has the same name") == true } == refusesARepeatedKey)
                let sqliteLog = try sqliteHub.changes(after: 0, limit: 2000).changes
                let postgresLog = try postgresHub.changes(after: 0, limit: 2000).changes
                #expect(postgresLog.map { Comparable($0.state) }.sorted() == sqliteLog.map { Comparable($0.state) }.sorted())
                #expect(postgresLog.map(\.seq) == postgresLog.map(\.seq).sorted())
            }
        }
    }

    /// A record that names one coming later in the same batch is refused on both kinds of hub, as it is when pushed
    /// alone: writing the batch together (kinds others refer to first) must not let it through.
    @Test func aRecordNamingOneLaterInItsBatchIsRefusedOnBothKindsOfHub() throws {
        let area = UUID(), venue = UUID()
        let push = PushRequest(nodeId: UUID(), operations: [
            Self.operation(.create, "participant", UUID(), ["name": "Early Bird", "email": "early@example.org", "phone": .null,
                                                          "notes": .null, "home_venue_id": .string(venue.lowercaseText)]),
            Self.operation(.create, "geographic_area", area, ["name": "Lakeside", "area_type": "CITY", "parent_id": .null]),
            Self.operation(.create, "venue", venue, ["name": "Boathouse", "address": "1 Shore Rd", "geographic_area_id": .string(area.lowercaseText),
                                                     "latitude": .null, "longitude": .null, "venue_type": "PUBLIC_BUILDING"]),
        ])
        try Self.withBothKindsOfHub { sqliteHub, postgresHub in
            let onSQLite = try sqliteHub.applyPush(push).results
            #expect(onSQLite.map(\.outcome) == [.rejected, .applied, .applied])
            #expect(try postgresHub.applyPush(push).results.map(Comparable.init) == onSQLite.map(Comparable.init))
        }
    }

    /// A node linking is told once per sign-in, to the same administrators in the same words on both kinds of hub: not
    /// to a disabled administrator, not to one who turned these notices off, not to an editor.
    @Test func aNodeLinkingTellsTheSameAdministratorsOnceOnBothKindsOfHub() throws {
        let told = UUID(), disabled = UUID(), muted = UUID(), editor = UUID()
        func account(_ id: UUID, _ email: String, role: String, disabled: Bool = false) -> SyncOperation {
            Self.operation(.create, "user", id, ["email": .string(email), "name": "Someone", "role": .string(role),
                                                 "password_hash": "scrypt$10$8$1$AAAA$AAAA", "is_disabled": .bool(disabled)])
        }
        let accounts = PushRequest(nodeId: UUID(), operations: [
            account(told, "told@example.org", role: "administrator"), account(disabled, "off@example.org", role: "administrator", disabled: true),
            account(muted, "muted@example.org", role: "administrator"), account(editor, "editor@example.org", role: "editor"),
            Self.operation(.create, "notification_preferences", muted, ["user_id": .string(muted.lowercaseText), "muted_kinds": "node_linked",
                                                                         "system_notifications": .bool(false)]),
        ])
        try Self.withBothKindsOfHub { sqliteHub, postgresHub in
            #expect(try sqliteHub.applyPush(accounts).results.map(\.outcome) == Array(repeating: .applied, count: 5))
            #expect(try postgresHub.applyPush(accounts).results.map(\.outcome) == Array(repeating: .applied, count: 5))
            let first = UUID(), second = UUID()
            for hub in [sqliteHub, postgresHub] as [any SyncHub] {
                try hub.noteNodeLinked(family: first, userId: editor, address: "192.0.2.7")
                try hub.noteNodeLinked(family: first, userId: editor, address: "192.0.2.7")  // the same sign-in starting over
                try hub.noteNodeLinked(family: second, userId: told, address: "")
            }
            try sqliteHub.deliverNotifications()
            func notices(_ hub: any SyncHub) throws -> [String] {
                try hub.changes(after: 0, limit: 1000).changes.map(\.state).filter { $0.entity == "notification" }
                    .map { "\($0.fields.text("user_id")) \($0.fields.text("kind")) \($0.fields.text("text"))" }.sorted()
            }
            let expected = [
                "\(told.lowercaseText) node_linked A Fieldbook linked to this hub from 192.0.2.7, signed in as editor@example.org.",
                "\(told.lowercaseText) node_linked A Fieldbook linked to this hub, signed in as told@example.org.",
            ].sorted()
            #expect(try notices(sqliteHub) == expected)
            #expect(try notices(postgresHub) == expected)
        }
    }

    /// A new SQLite hub (a Fieldbook's database in a temporary folder) and a new PostgreSQL hub, removed afterwards.
    private static func withBothKindsOfHub(_ body: (AppDatabase, PostgresHub) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fieldbook-hub-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let sqliteHub = try AppDatabase(path: folder.appendingPathComponent("fieldbook.sqlite").path, passwordCost: .test)
        try PostgresCluster.with { cluster in
            let postgresHub = try PostgresHub(url: cluster.url, poolSize: 2, passwordCost: .test)
            defer { postgresHub.close() }
            try body(sqliteHub, postgresHub)
        }
    }

    private static func operation(_ kind: ChangeOperation, _ entity: String, _ id: UUID, _ fields: [String: JSONValue],
                                  before: [String: JSONValue] = [:], base: Int = 0, author: String = "system:test") -> SyncOperation {
        SyncOperation(operationId: UUID(), operation: kind, entity: entity, entityId: id, fields: fields, before: before,
                      baseVersion: base, author: author, createdAt: Date(timeIntervalSince1970: 1_750_000_000))
    }

    /// An answer or a record state without the moments each hub stamps with its own clock.
    struct Comparable: Equatable, Swift.Comparable, CustomStringConvertible {
        let text: String

        init(_ result: SyncResult) {
            text = "\(result.outcome) \(result.reason ?? "-") \(result.losingFields.map { "\($0.name):\($0.mine)/\($0.theirs)" }) "
                + Comparable(result.current).text
        }

        init(_ state: RecordState) {
            let fields = state.fields.filter { $0.key != "updated_at" }.mapValues(\.asStored).sorted { $0.key < $1.key }
            text = "\(state.entity) \(state.entityId.lowercaseText) deleted=\(state.deleted) v\(state.version) \(fields)"
        }

        var description: String { text }

        static func < (left: Comparable, right: Comparable) -> Bool { left.text < right.text }
    }
}

extension JSONValue: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
}
