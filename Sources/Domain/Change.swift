import Foundation

/// A JSON value, for the changed fields an outbox entry carries.
public enum JSONValue: Sendable, Equatable, Codable {
    case null, bool(Bool), int(Int), double(Double), string(String)

    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        // Strings first: most fields are text, and each type tried in vain costs a thrown error (a first sync decoded
        // three per text field when strings came last).
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Int.self) { self = .int(value) }
        else { self = .double(try container.decode(Double.self)) }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        }
    }
}

/// What kind of change an outbox entry records.
public enum ChangeOperation: String, Sendable, Codable {
    case create, update, delete
}

/// One change to one record, as appended to the outbox in the same transaction as the change itself.
public struct Change: Sendable, Equatable {
    public var operation: ChangeOperation
    public var entity: String
    public var entityId: UUID
    /// Field name to new value (all fields for create, the changed ones for update, none for delete).
    public var fields: [String: JSONValue]
    /// The record's version the change was made on (0 for create).
    public var baseVersion: Int

    public init(operation: ChangeOperation, entity: String, entityId: UUID, fields: [String: JSONValue], baseVersion: Int) {
        self.operation = operation
        self.entity = entity
        self.entityId = entityId
        self.fields = fields
        self.baseVersion = baseVersion
    }
}

/// Who made a change: a user, or the system itself (command line, migrations).
public enum Actor: Sendable, Equatable {
    case user(UUID)
    case system(String)

    /// The author of what a node queues when it is linked: a copy of every record it holds, for the hub to take.
    public static let linking = Actor.system("link")

    public var recorded: String {
        switch self {
        case .user(let id): id.uuidString.lowercased()
        case .system(let name): "system:\(name)"
        }
    }
}
