import Domain
import Foundation
import HTTPServer
import Hub
import Storage
import Surface
import Sync
import Translations

/// The sync protocol's endpoints (hub side: push and changes) and this node's own sync controls, for administrators.
struct SyncEndpoints: Sendable {
    var engine: SyncEngine?
    var status: SyncStatusReporter?
    /// Holds long polls of the change log; nil where only the route table is wanted.
    var waiters: ChangeWaiters?
    static let maxBatch = 1000
    static let maxPage = 2000
    /// The longest a node may ask the hub to hold a poll of the change log, in seconds (below common proxy timeouts).
    static let maxWait = 25
    /// An operation's author and base version as the document states them (the outbox row's own limits).
    static let authorRule = TextRule(label: .verbatim("author"), maxLength: 200)
    static let baseVersionRule = NumberRule(label: .verbatim("base_version"), range: 0...Double(Int32.max), whole: true)

    /// The hub's side, which any hub serves (a PostgreSQL one too): push and the change log.
    func registerHub(in table: inout APIRouteTable) {
        table.add(.post, APIPaths.syncPush, .administrator, Self.pushDoc, push)
        // Reading from the start notes the node as linked (`changes`).
        table.getThatWrites(APIPaths.syncChanges, .administrator, Self.changesDoc, changes)
        table.add(.get, APIPaths.linkedNodes, .administrator, LinkedNodeResource.listDoc, LinkedNodeResource.list)
        table.add(.post, APIPaths.linkedNodeRevoke, .administrator, LinkedNodeResource.revokeDoc, LinkedNodeResource.revoke)
    }

    /// This node's own sync controls.
    func registerNode(in table: inout APIRouteTable) {
        table.add(.get, APIPaths.syncStatus, .administrator, Self.statusDoc, currentStatus)
        table.add(.post, APIPaths.syncRun, .administrator, Self.runDoc, run)
        table.add(.get, APIPaths.syncConflicts, .administrator, Self.conflictsDoc, conflicts)
    }

    /// Applies a node's batch; each operation is answered in order.
    func push(_ context: APIContext) throws -> Response {
        let push: PushRequest
        do {
            push = try SyncWireReader.pushRequest(Data(context.request.body))
        } catch {
            throw HTTPError(.badRequest, "The body is not a valid sync request: \(error).")
        }
        guard push.operations.count <= Self.maxBatch else {
            throw HTTPError(.badRequest, "Send at most \(Self.maxBatch) operations per push; this one had \(push.operations.count).")
        }
        try Self.check(push.operations)
        let pusher = Pusher.node(signedInAs: try context.signedInUser.id)
        return Response(headers: [("Content-Type", "application/json")], body: try context.hub.applyPush(push, from: pusher).jsonBytes)
    }

    /// The limits the document states for each operation, refused as a page refuses a field (422 with `fields`).
    static func check(_ operations: [SyncOperation]) throws {
        var errors = ValidationError()
        let entities = Set(AppDatabase.syncedEntities)
        for (index, operation) in operations.enumerated() {
            let name = "operations[\(index)]"
            if !entities.contains(operation.entity) {
                errors.add(name + ".entity", "entity must be one of: " + AppDatabase.syncedEntities.joined(separator: ", "))
            }
            authorRule.check(operation.author, field: name + ".author", into: &errors)
            _ = baseVersionRule.check(Double(operation.baseVersion), field: name + ".base_version", into: &errors)
        }
        try errors.throwIfAny()
    }

    /// Pages through the change log after a cursor; with `wait`, an empty page is held until a change arrives.
    func changes(_ context: APIContext) throws -> Response {
        let after = try context.integer("after", in: 0...9_000_000_000_000_000) ?? 0
        let limit = try context.integer("limit", in: 1...Self.maxPage) ?? 500
        let wait = try context.integer("wait", in: 0...Self.maxWait) ?? 0
        // A sign-in reading the change log from its start is a node linking here (or starting over); administrators hear of it once.
        if after == 0, let bearer = context.bearer {
            try context.hub.noteNodeLinked(family: bearer.familyId, userId: bearer.user.id, address: context.request.remoteAddress)
        }
        let page = try context.hub.changes(after: Int64(after), limit: limit)
        if page.changes.isEmpty, wait > 0, let waiters { return waiters.hold(after: Int64(after), limit: limit, wait: wait) }
        return Self.response(page)
    }

    /// A change log page as the answer's body, written by `ChangePage.jsonBytes`, several times faster than JSONEncoder (scripts/benchmark-libraries.sh wire).
    static func response(_ page: ChangePage) -> Response {
        Response(headers: [("Content-Type", "application/json")], body: page.jsonBytes)
    }

    func currentStatus(_ context: APIContext) throws -> Response {
        let current = try (status ?? SyncStatusReporter(database: context.database, engine: engine)).current()
        let snapshot = engine?.snapshot()
        return SyncJSON.response(StatusBody(
            hub: current.hub.rawValue, pendingOperations: current.pendingOperations,
            failedOperations: try context.database.failedOperationCount(), conflicts: try context.database.openConflictCount(),
            lastSuccessfulSync: current.lastSuccessfulSync, syncing: snapshot?.progress != nil, paused: snapshot?.paused ?? false,
            lastError: snapshot?.lastError))
    }

    /// "Sync now": wakes the sync thread; 409 when no hub is linked.
    func run(_ context: APIContext) throws -> Response {
        guard let engine, try context.database.hubLink() != nil else {
            throw HTTPError(.conflict, "This Fieldbook is standalone: link it to a hub first (fieldbook link, or the settings page).")
        }
        engine.syncNow()
        return SyncJSON.response(["status": "started"])
    }

    func conflicts(_ context: APIContext) throws -> Response {
        let all = try context.choice("show", ConflictFilter.self) == .all
        return SyncJSON.response(["items": try context.database.conflicts(includeResolved: all).map(ConflictBody.init)])
    }
}

/// Which conflicts /api/v1/sync/conflicts lists.
enum ConflictFilter: String, CaseIterable {
    case open, all
}

/// A node's sync state as /api/v1/sync/status reports it (nulls written out).
struct StatusBody: Encodable {
    let hub: String
    let pendingOperations: Int
    let failedOperations: Int
    let conflicts: Int
    @Null var lastSuccessfulSync: Date?
    let syncing: Bool
    let paused: Bool
    @Null var lastError: String?

    enum CodingKeys: String, CodingKey {
        case hub, pendingOperations = "pending_operations", failedOperations = "failed_operations", conflicts
        case lastSuccessfulSync = "last_successful_sync", syncing, paused, lastError = "last_error"
    }
}

/// A conflict as the API lists it.
struct ConflictBody: Encodable {
    @LowercasedID var id: UUID
    let entity: String
    @LowercasedID var entityId: UUID
    let kind: String
    let recordLabel: String?
    let fields: [LosingField]
    let detectedAt: Date
    let resolution: String?

    init(_ conflict: SyncConflict) {
        (id, entity, entityId, kind) = (conflict.id, conflict.entity, conflict.entityId, conflict.kind.rawValue)
        (recordLabel, fields, detectedAt, resolution) = (conflict.recordLabel, conflict.fields, conflict.detectedAt, conflict.resolution)
    }

    enum CodingKeys: String, CodingKey {
        case id, entity, entityId = "entity_id", kind, recordLabel = "record_label", fields, detectedAt = "detected_at", resolution
    }
}

/// JSON in the sync protocol's date format.
enum SyncJSON {
    static func decode<T: Decodable>(_ body: Data) throws -> T {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601withFractions
        do {
            return try decoder.decode(T.self, from: body)
        } catch {
            throw HTTPError(.badRequest, "The body is not a valid sync request: \(describe(error)).")
        }
    }

    static func response(_ value: some Encodable, status: HTTPStatus = .ok) -> Response {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601withFractions
        encoder.outputFormatting = [.sortedKeys]
        return Response.json((try? encoder.encode(value)) ?? Data("{}".utf8), status: status)
    }

    private static func describe(_ error: Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _): "missing \(key.stringValue)"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context), DecodingError.dataCorrupted(let context):
            "\(context.codingPath.map(\.stringValue).joined(separator: ".")): \(context.debugDescription)"
        default: "not JSON"
        }
    }
}
