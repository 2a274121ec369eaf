import Domain
import Foundation
import HTTPServer
import Storage
import Sync

/// The sync protocol's endpoints (hub side: push and changes) and a node's own sync controls, for administrators.
struct SyncEndpoints {
    let database: AppDatabase
    let engine: SyncEngine?
    let status: SyncStatusReporter
    static let maxBatch = 1000
    static let maxPage = 2000

    /// Applies a node's batch; each operation is answered in order.
    func push(_ request: Request) throws -> Response {
        let push: PushRequest = try SyncJSON.decode(Data(request.body))
        guard push.operations.count <= Self.maxBatch else {
            throw HTTPError(.payloadTooLarge, "Send at most \(Self.maxBatch) operations per push; this one had \(push.operations.count).")
        }
        return SyncJSON.response(try database.applyPush(push))
    }

    /// Pages through the change log after a cursor.
    func changes(_ request: Request) throws -> Response {
        let after = try integer(request, "after", default: 0, range: 0...Int64.max)
        let limit = try integer(request, "limit", default: 500, range: 1...Int64(Self.maxPage))
        return SyncJSON.response(try database.changes(after: after, limit: Int(limit)))
    }

    func currentStatus(_ request: Request) throws -> Response {
        let current = status.current()
        let snapshot = engine?.snapshot()
        let body = StatusBody(hub: current.hub.rawValue, pendingOperations: current.pendingOperations,
                              failedOperations: try database.failedOperationCount(), conflicts: try database.openConflictCount(),
                              lastSuccessfulSync: current.lastSuccessfulSync, syncing: snapshot?.progress != nil,
                              paused: snapshot?.paused ?? false, lastError: snapshot?.lastError)
        return SyncJSON.response(body)
    }

    /// "Sync now": wakes the sync thread; 409 when no hub is linked.
    func run(_ request: Request) throws -> Response {
        guard let engine, try database.hubLink() != nil else {
            throw HTTPError(.conflict, "This Fieldbook is standalone: link it to a hub first (fieldbook link, or the settings page).")
        }
        engine.start()
        engine.wake(reason: "api")
        return SyncJSON.response(["status": "started"], status: .accepted)
    }

    func conflicts(_ request: Request) throws -> Response {
        let items = try database.conflicts(includeResolved: request.query["show"] == "all").map(ConflictBody.init)
        return SyncJSON.response(["items": items])
    }

    private func integer(_ request: Request, _ name: String, default value: Int64, range: ClosedRange<Int64>) throws -> Int64 {
        guard let text = request.query[name] else { return value }
        guard let number = Int64(text), range.contains(number) else {
            throw HTTPError(.badRequest, "\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound).")
        }
        return number
    }
}

/// A node's sync state as /api/v1/sync/status reports it.
struct StatusBody: Encodable {
    let hub: String
    let pendingOperations: Int
    let failedOperations: Int
    let conflicts: Int
    let lastSuccessfulSync: Date?
    let syncing: Bool
    let paused: Bool
    let lastError: String?

    enum CodingKeys: String, CodingKey {
        case hub, pendingOperations = "pending_operations", failedOperations = "failed_operations", conflicts
        case lastSuccessfulSync = "last_successful_sync", syncing, paused, lastError = "last_error"
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(hub, forKey: .hub)
        try container.encode(pendingOperations, forKey: .pendingOperations)
        try container.encode(failedOperations, forKey: .failedOperations)
        try container.encode(conflicts, forKey: .conflicts)
        try container.encode(lastSuccessfulSync, forKey: .lastSuccessfulSync)
        try container.encode(syncing, forKey: .syncing)
        try container.encode(paused, forKey: .paused)
        try container.encode(lastError, forKey: .lastError)
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

/// JSON in the sync protocol's date format, lower-case ids.
enum SyncJSON {
    static func decode<T: Decodable>(_ body: Data) throws -> T {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601withFractions
        do {
            return try decoder.decode(T.self, from: body)
        } catch {
            throw HTTPError(.badRequest, "The body is not a valid sync request: \(describe(error))")
        }
    }

    static func response(_ value: some Encodable, status: HTTPStatus = .ok) -> Response {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601withFractions
        encoder.outputFormatting = [.sortedKeys]
        let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
        return Response.json(data, status: status)
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
