import Foundation

/// The hub's answers written straight to bytes: serving a first sync, JSONEncoder's generic path (a container and a
/// dynamic cast per field) dominated the hub's time. The JSON is what the Codable conformances write,
/// keys sorted, and those conformances still read it.
extension ChangePage {
    public var jsonBytes: [UInt8] {
        var json = JSONBytes(capacity: 64 + changes.count * 512)
        json.raw("{\"changes\":")
        json.array(changes) { json, entry in
            json.raw("{\"seq\":")
            json.integer(entry.seq)
            json.raw(",\"state\":")
            json.state(entry.state)
            json.raw("}")
        }
        json.raw(",\"has_more\":")
        json.raw(hasMore ? "true" : "false")
        json.raw(",\"next_cursor\":")
        json.integer(nextCursor)
        json.raw(",\"remaining\":")
        json.integer(Int64(remaining))
        json.raw("}")
        return json.bytes
    }
}

extension PushResponse {
    public var jsonBytes: [UInt8] {
        var json = JSONBytes(capacity: 32 + results.count * 512)
        json.raw("{\"results\":")
        json.array(results) { json, result in json.result(result) }
        json.raw("}")
        return json.bytes
    }
}

extension PushRequest {
    /// What a node sends, written straight to bytes as the Codable conformance writes it (keys sorted): with
    /// JSONEncoder, encoding a push cost a node about what applying it costs the hub.
    public var jsonBytes: [UInt8] {
        var json = JSONBytes(capacity: 64 + operations.count * 640)
        json.raw("{\"node_id\":")
        json.id(nodeId)
        json.raw(",\"operations\":")
        json.array(operations) { json, operation in json.operation(operation) }
        json.raw("}")
        return json.bytes
    }
}

extension SyncResult {
    public var jsonBytes: [UInt8] {
        var json = JSONBytes(capacity: 512)
        json.result(self)
        return json.bytes
    }
}

/// Appends JSON tokens to a byte buffer (the sync wire's answers, exports).
public struct JSONBytes: Sendable {
    public private(set) var bytes: [UInt8] = []

    public init(capacity: Int) { bytes.reserveCapacity(capacity) }

    /// The bytes written so far, leaving the buffer empty (its capacity kept) for the next part of a stream.
    public mutating func take() -> [UInt8] {
        defer { bytes.removeAll(keepingCapacity: true) }
        return bytes
    }

    public var count: Int { bytes.count }

    public mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// `[item,item,…]`, each item written by `write`.
    public mutating func array<Item>(_ items: [Item], _ write: (inout JSONBytes, Item) -> Void) {
        raw("[")
        for (index, item) in items.enumerated() {
            if index > 0 { raw(",") }
            write(&self, item)
        }
        raw("]")
    }

    public mutating func integer(_ value: Int64) { bytes.append(contentsOf: String(value).utf8) }

    mutating func state(_ state: RecordState) {
        raw("{\"deleted\":")
        raw(state.deleted ? "true" : "false")
        raw(",\"entity\":")
        string(state.entity)
        raw(",\"entity_id\":")
        id(state.entityId)
        raw(",\"fields\":")
        fields(state.fields)
        raw(",\"version\":")
        integer(Int64(state.version))
        raw("}")
    }

    mutating func operation(_ operation: SyncOperation) {
        raw("{\"author\":")
        string(operation.author)
        raw(",\"base_version\":")
        integer(Int64(operation.baseVersion))
        raw(",\"before\":")
        fields(operation.before)
        raw(",\"created_at\":")
        string(SyncDateFormat.string(from: operation.createdAt))
        raw(",\"entity\":")
        string(operation.entity)
        raw(",\"entity_id\":")
        id(operation.entityId)
        raw(",\"fields\":")
        fields(operation.fields)
        raw(",\"operation\":")
        string(operation.operation.rawValue)
        raw(",\"operation_id\":")
        id(operation.operationId)
        raw("}")
    }

    /// A record's fields: one object, keys sorted.
    mutating func fields(_ fields: [String: JSONValue]) {
        raw("{")
        for (index, name) in fields.keys.sorted().enumerated() {
            if index > 0 { raw(",") }
            string(name)
            raw(":")
            value(fields[name]!)
        }
        raw("}")
    }

    /// An id as the wire writes it: lowercase, quoted.
    mutating func id(_ id: UUID) {
        raw("\"")
        bytes.append(contentsOf: id.lowercaseText.utf8)
        raw("\"")
    }

    mutating func result(_ result: SyncResult) {
        raw("{\"current\":")
        state(result.current)
        raw(",\"losing_fields\":[")
        for (index, field) in result.losingFields.enumerated() {
            if index > 0 { raw(",") }
            raw("{\"mine\":")
            value(field.mine)
            raw(",\"name\":")
            string(field.name)
            raw(",\"theirs\":")
            value(field.theirs)
            raw("}")
        }
        raw("],\"operation_id\":")
        id(result.operationId)
        raw(",\"outcome\":")
        string(result.outcome.rawValue)
        if let reason = result.reason {
            raw(",\"reason\":")
            string(reason)
        }
        raw("}")
    }

    public mutating func value(_ value: JSONValue) {
        switch value {
        case .null: raw("null")
        case .bool(let flag): raw(flag ? "true" : "false")
        case .int(let number): integer(Int64(number))
        case .double(let number): double(number)
        case .string(let text): string(text)
        }
    }

    /// As JSONEncoder writes a Double: the shortest text that reads back the same, without a trailing ".0". JSON has
    /// no infinity (SQLite can hold one; no rule lets it in): it goes as null rather than as invalid JSON.
    mutating func double(_ number: Double) {
        guard number.isFinite else { return raw("null") }
        var text = number.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        bytes.append(contentsOf: text.utf8)
    }

    /// A JSON string: quotes, backslashes and control characters escaped; everything else as its UTF-8.
    public mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): raw("\\\"")
            case UInt8(ascii: "\\"): raw("\\\\")
            case UInt8(ascii: "\n"): raw("\\n")
            case UInt8(ascii: "\r"): raw("\\r")
            case UInt8(ascii: "\t"): raw("\\t")
            case 0..<0x20:
                raw("\\u00")
                bytes.append(hexDigits[Int(byte >> 4)])
                bytes.append(hexDigits[Int(byte & 0xF)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
