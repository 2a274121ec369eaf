import Credentials
import Domain
import Foundation
import Records
import Logging
import Hub

/// A sync hub whose store is PostgreSQL, for organizations with hundreds of nodes: several hub processes may serve
/// one database at once, and PostgreSQL's own tools back it up and replicate it. It decides pushes by the same
/// rules as a SQLite hub (`HubDecider`) and speaks the same protocol. It has no pages: those, and what only pages
/// show (possible duplicates), stay on nodes (README, "What a PostgreSQL hub leaves to nodes").
///
/// The change log's order: a push takes a transaction-level advisory lock before it numbers any change, so the
/// transaction that took a lower number has committed before another can take a higher one. A node that pulled past
/// a number therefore never finds a lower one appearing later (sequence numbers taken by concurrent transactions
/// would otherwise commit out of order, and the pull would skip the late one forever).
public final class PostgresHub: SyncHub {
    static let userKind = RecordKind.named("user")!
    /// The lock every transaction that numbers changes holds until it ends.
    static let changeLogLock = "7340120502"
    /// The channel a commit that grew the change log notifies, so long polls on every hub process wake.
    static let changesChannel = "fieldbook_changes"

    let pool: PostgresPool
    let logger: Logger
    private let passwordHasher: PasswordHasher
    private let listener: ChangeListener

    /// Connects, and brings the database's schema to this version (one process at a time).
    public init(url: String, poolSize: Int = 10, passwordCost: PasswordHasher.Cost = .standard,
                logger: Logger = Logger(label: "fieldbook")) throws {
        // An unreachable database fails a connection in 10 s rather than holding a pool slot (unless set otherwise).
        setenv("PGCONNECT_TIMEOUT", "10", 0)
        pool = PostgresPool(url: url, size: poolSize)
        self.logger = logger
        passwordHasher = PasswordHasher(cost: passwordCost)
        listener = ChangeListener(url: url, channel: Self.changesChannel, logger: logger)
        try pool.withConnection { try PostgresHubSchema.migrate($0) }
    }

    /// Stops listening for other processes' changes.
    public func close() { listener.stop() }

    public func applyPush(_ request: PushRequest, from pusher: Pusher = .hubItself) throws -> PushResponse {
        try pool.transaction { try Self.apply(request, $0, from: pusher) }
    }

    /// Applies a push in the caller's transaction, which then holds the change log's lock until it ends.
    ///
    /// A push without deletions or merges is decided with its records written together at the end, one statement rather
    /// than one per operation. Should the database refuse one of them (a repeated unique key, which only the database
    /// checks), that cannot be told to be one operation's: the batch is undone to its savepoint and decided again one
    /// write at a time, so the refused operation alone is refused.
    static func apply(_ request: PushRequest, _ connection: PostgresConnection, from pusher: Pusher = .hubItself) throws -> PushResponse {
        try connection.execute("SELECT pg_advisory_xact_lock($1)", [Self.changeLogLock])
        guard !request.holdsDeletionsOrMerges else { return try decide(request, connection, pusher) }
        try connection.execute("SAVEPOINT deferred_push")
        do {
            let response = try decide(request, connection, pusher, defersWrites: true)
            try connection.execute("RELEASE SAVEPOINT deferred_push")
            return response
        } catch is DeferredWriteRefused {
            try connection.execute("ROLLBACK TO SAVEPOINT deferred_push")
            try connection.execute("RELEASE SAVEPOINT deferred_push")
            return try decide(request, connection, pusher)
        }
    }

    private static func decide(_ request: PushRequest, _ connection: PostgresConnection, _ pusher: Pusher,
                               defersWrites: Bool = false) throws -> PushResponse {
        let records = PostgresHubRecords(connection: connection, defersWrites: defersWrites)
        try records.readAhead(request.operations)
        let decider = HubDecider(records: records, pusher: pusher)
        // Looked up and remembered once per batch rather than once per operation, to save two round trips each.
        var answered = try Self.earlierResults(connection, request.operations.map(\.operationId))
        var remembered: [AppliedOperation] = []
        var written: [SyncOperation] = []
        var results: [SyncResult] = []
        for operation in request.operations {
            if let earlier = answered[operation.operationId] {
                results.append(earlier)
                continue
            }
            let result = try decider.apply(operation)
            results.append(result)
            // A rejection changed nothing, so it is not remembered: a retry after the cause is fixed is judged anew.
            guard result.outcome != .rejected else { continue }
            answered[operation.operationId] = result
            remembered.append(AppliedOperation(operationId: operation.operationId.lowercaseText, result: String(decoding: result.jsonBytes, as: UTF8.self)))
            written.append(operation)
        }
        try records.flush()
        let reconciled = try records.reconcileAddressPeriods(touchedBy: request.operations)
        try records.finish()
        try Self.followPhotos(connection, written: written)
        try remember(remembered, connection)
        if !remembered.isEmpty || reconciled { try connection.execute("SELECT pg_notify($1, '')", [Self.changesChannel]) }
        return PushResponse(results: results)
    }

    /// Keeps the answers given to these operations (an operation already kept, moved by hub-migrate, stays as it was).
    static func remember(_ operations: [AppliedOperation], _ connection: PostgresConnection) throws {
        guard !operations.isEmpty else { return }
        try connection.execute("""
            INSERT INTO applied_operations (operation_id, result) SELECT * FROM unnest($1::uuid[], $2::text[]) ON CONFLICT DO NOTHING
            """, [PostgresArray.literal(operations.map(\.operationId)), PostgresArray.literal(operations.map(\.result))])
    }

    /// The answers given before to any of these operations.
    private static func earlierResults(_ connection: PostgresConnection, _ ids: [UUID]) throws -> [UUID: SyncResult] {
        let rows = try connection.execute("SELECT operation_id::text AS id, result FROM applied_operations WHERE operation_id = ANY($1::uuid[])",
                                          [PostgresArray.literal(ids.map(\.lowercaseText))])
        var answers: [UUID: SyncResult] = [:]
        for row in 0..<rows.count {
            guard let id = rows.text(row, "id").flatMap(UUID.init(uuidString:)), let text = rows.text(row, "result") else { continue }
            answers[id] = try JSONDecoder().decode(SyncResult.self, from: Data(text.utf8))
        }
        return answers
    }

    public func changes(after cursor: Int64, limit: Int) throws -> ChangePage {
        try pool.withConnection { connection in
            let rows = try connection.execute("""
                SELECT seq, entity, id::text AS id, version, deleted, fields::text AS fields FROM records
                WHERE seq > $1 ORDER BY seq LIMIT $2
                """, [String(cursor), String(limit)])
            let entries = try (0..<rows.count).compactMap { row in
                try rows.recordState(row).map { ChangeLogEntry(seq: rows.int(row, "seq") ?? 0, state: $0) }
            }
            return ChangePage(entries, after: cursor, latest: try Self.latestSequence(connection))
        }
    }

    public func latestChangeSequence() throws -> Int64 {
        try pool.withConnection(Self.latestSequence)
    }

    private static func latestSequence(_ connection: PostgresConnection) throws -> Int64 {
        try connection.execute("SELECT coalesce(max(seq), 0) AS last FROM records").int(0, "last") ?? 0
    }

    public func isHealthy() -> Bool {
        (try? pool.withConnection { try $0.execute("SELECT 1 AS one").int(0, "one") }) == 1
    }

    public func observeChanges(_ onChange: @escaping @Sendable () -> Void) {
        listener.observe(onChange)
    }

    /// Makes an account, as `fieldbook create-user` does on a node: checked by the same rules, and written as a pushed
    /// creation by Fieldbook itself, so it is logged and reaches every node.
    @discardableResult
    public func createUser(_ input: NewUserInput) throws -> User {
        let valid = try input.validated()
        let now = Date()
        let fields: [String: JSONValue] = [
            "email": .string(valid.email), "name": .string(valid.name), "role": .string(valid.role.rawValue),
            "password_hash": .string(try passwordHasher.hash(valid.password)), "is_disabled": .int(0),
        ]
        let operation = SyncOperation(operationId: UUID(), operation: .create, entity: Self.userKind.entity, entityId: UUID(), fields: fields,
                                      before: [:], baseVersion: 0, author: Actor.system("command-line").recorded, createdAt: now)
        let result = try applyPush(PushRequest(nodeId: UUID(), operations: [operation])).results[0]
        guard result.outcome == .applied else {
            throw ValidationError([FieldError(field: "email", message: result.reason ?? "The hub did not accept this account.")])
        }
        return User(id: operation.entityId, version: result.current.version, syncedFields: result.current.fields)
    }

    public func verifyCredentials(email: String, password: String) throws -> User? {
        let normalized = email.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        let rows = try pool.withConnection { connection in
            try connection.execute("""
                SELECT id::text AS id, version, fields::text AS fields FROM records
                WHERE entity = 'user' AND NOT deleted AND lower(fields->>'email') = $1
                """, [normalized])
        }
        guard rows.count == 1, let record = try rows.syncedRecord(0) else {
            _ = passwordHasher.verify(password, against: passwordHasher.dummyHash())
            return nil
        }
        guard passwordHasher.verify(password, against: record.fields.text("password_hash")) else { return nil }
        let user = User(id: record.id, version: record.version, syncedFields: record.fields)
        return user.isDisabled ? nil : user
    }
}
