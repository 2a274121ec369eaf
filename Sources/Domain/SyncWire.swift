import Foundation

/// One outbox operation as a node pushes it to its hub.
public struct SyncOperation: Sendable, Equatable, Codable {
    @LowercasedID public var operationId: UUID
    public var operation: ChangeOperation
    public var entity: String
    @LowercasedID public var entityId: UUID
    /// The new values of the fields the operation changed (every field for a create, none for a delete).
    public var fields: [String: JSONValue]
    /// The values those fields had when the edit was made; a field whose hub value differs from both is a conflict.
    public var before: [String: JSONValue]
    public var baseVersion: Int
    public var author: String
    public var createdAt: Date

    public init(operationId: UUID, operation: ChangeOperation, entity: String, entityId: UUID, fields: [String: JSONValue],
                before: [String: JSONValue], baseVersion: Int, author: String, createdAt: Date) {
        self.operationId = operationId
        self.operation = operation
        self.entity = entity
        self.entityId = entityId
        self.fields = fields
        self.before = before
        self.baseVersion = baseVersion
        self.author = author
        self.createdAt = createdAt
    }

    enum CodingKeys: String, CodingKey {
        case operationId = "operation_id", operation, entity, entityId = "entity_id", fields, before
        case baseVersion = "base_version", author, createdAt = "created_at"
    }
}

/// A record as the hub holds it now: every synced column, or `deleted` when it no longer exists.
public struct RecordState: Sendable, Equatable, Codable {
    public var entity: String
    @LowercasedID public var entityId: UUID
    public var deleted: Bool
    public var version: Int
    public var fields: [String: JSONValue]

    public init(entity: String, entityId: UUID, deleted: Bool, version: Int, fields: [String: JSONValue]) {
        self.entity = entity
        self.entityId = entityId
        self.deleted = deleted
        self.version = version
        self.fields = fields
    }

    enum CodingKeys: String, CodingKey {
        case entity, entityId = "entity_id", deleted, version, fields
    }

    /// A record the hub does not hold: never written, or deleted (a deleted record keeps no version and no fields).
    public static func absent(_ entity: String, _ id: UUID) -> RecordState {
        RecordState(entity: entity, entityId: id, deleted: true, version: 0, fields: [:])
    }
}

/// How the hub dealt with one pushed operation.
public enum SyncOutcome: String, Sendable, Codable {
    /// Applied on the state it was made on.
    case applied
    /// Applied on top of other changes to different fields of the same record.
    case merged
    /// Some or all of its fields lost to an edit that reached the hub first; `losingFields` says which.
    case conflict
    /// Not applied, for a reason retrying cannot fix (invalid, not permitted, still referenced).
    case rejected
}

/// One field an operation lost: the value it wanted and the value that won.
public struct LosingField: Sendable, Equatable, Codable {
    public var name: String
    public var mine: JSONValue
    public var theirs: JSONValue

    public init(name: String, mine: JSONValue, theirs: JSONValue) {
        self.name = name
        self.mine = mine
        self.theirs = theirs
    }
}

/// The hub's answer for one pushed operation.
public struct SyncResult: Sendable, Equatable, Codable {
    @LowercasedID public var operationId: UUID
    public var outcome: SyncOutcome
    public var reason: String?
    public var losingFields: [LosingField]
    /// The record after the operation, so the node can take the hub's values at once.
    public var current: RecordState

    public init(operationId: UUID, outcome: SyncOutcome, reason: String? = nil, losingFields: [LosingField] = [], current: RecordState) {
        self.operationId = operationId
        self.outcome = outcome
        self.reason = reason
        self.losingFields = losingFields
        self.current = current
    }

    enum CodingKeys: String, CodingKey {
        case operationId = "operation_id", outcome, reason, losingFields = "losing_fields", current
    }
}

/// A batch a node pushes.
public struct PushRequest: Sendable, Codable {
    @LowercasedID public var nodeId: UUID
    public var operations: [SyncOperation]

    public init(nodeId: UUID, operations: [SyncOperation]) {
        self.nodeId = nodeId
        self.operations = operations
    }

    enum CodingKeys: String, CodingKey { case nodeId = "node_id", operations }
}

/// The hub's answers, one per pushed operation, in order.
public struct PushResponse: Sendable, Codable {
    public var results: [SyncResult]

    public init(results: [SyncResult]) { self.results = results }
}

/// One entry of the hub's change log: the record's state now, numbered in the hub's order.
public struct ChangeLogEntry: Sendable, Equatable, Codable {
    public var seq: Int64
    public var state: RecordState

    public init(seq: Int64, state: RecordState) {
        self.seq = seq
        self.state = state
    }
}

/// A page of the change log after a cursor.
public struct ChangePage: Sendable, Codable {
    public var changes: [ChangeLogEntry]
    public var nextCursor: Int64
    public var hasMore: Bool
    /// At most how many changes remain after this page (for progress).
    public var remaining: Int

    public init(changes: [ChangeLogEntry], nextCursor: Int64, hasMore: Bool, remaining: Int) {
        self.changes = changes
        self.nextCursor = nextCursor
        self.hasMore = hasMore
        self.remaining = remaining
    }

    enum CodingKeys: String, CodingKey { case changes, nextCursor = "next_cursor", hasMore = "has_more", remaining }

    /// The page of `entries` read after `cursor`, in a log whose newest number is `latest`. `remaining` is an upper
    /// bound (renumbering leaves gaps), known without counting the rest of the log.
    public init(_ entries: [ChangeLogEntry], after cursor: Int64, latest: Int64) {
        let next = entries.last?.seq ?? cursor
        self.init(changes: entries, nextCursor: next, hasMore: latest > next, remaining: Int(max(0, latest - next)))
    }
}

extension JSONEncoder.DateEncodingStrategy {
    /// ISO 8601 with milliseconds, so a timestamp survives the trip between nodes unchanged.
    public static let iso8601withFractions = JSONEncoder.DateEncodingStrategy.custom { date, encoder in
        var container = encoder.singleValueContainer()
        try container.encode(SyncDateFormat.string(from: date))
    }
}

extension JSONDecoder.DateDecodingStrategy {
    /// Reads ISO 8601 with or without fractional seconds.
    public static let iso8601withFractions = JSONDecoder.DateDecodingStrategy.custom { decoder in
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let date = SyncDateFormat.date(from: text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "Expected an ISO 8601 date, got \(text)")
        }
        return date
    }
}

/// The one date format of the sync protocol. Formatters are costly to make (ICU), so each thread keeps its own.
public enum SyncDateFormat {
    public static func string(from date: Date) -> String {
        TimestampText.text(date, .wire) ?? formatter(fractions: true).string(from: date)
    }

    public static func date(from text: String) -> Date? {
        UTCTimestamp.date(from: text) ?? formatter(fractions: true).date(from: text) ?? formatter(fractions: false).date(from: text)
    }

    private static func formatter(fractions: Bool) -> ISO8601DateFormatter {
        let key = fractions ? "fieldbook.sync-date-fractions" : "fieldbook.sync-date"
        if let cached = Thread.current.threadDictionary[key] as? ISO8601DateFormatter { return cached }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = fractions ? [.withInternetDateTime, .withFractionalSeconds] : [.withInternetDateTime]
        Thread.current.threadDictionary[key] = formatter
        return formatter
    }
}

/// A UUID written lower-case, as Fieldbook writes ids everywhere (read in either case).
@propertyWrapper
public struct LowercasedID: Sendable, Equatable, Hashable, Codable {
    public var wrappedValue: UUID

    public init(wrappedValue: UUID) { self.wrappedValue = wrappedValue }

    public init(from decoder: Decoder) throws { wrappedValue = try UUID(from: decoder) }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue.uuidString.lowercased())
    }
}
