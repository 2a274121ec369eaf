import Foundation

/// The sync wire read straight from bytes, the reading side of `JSONBytes`: a hub reads pushes with it, a node the
/// hub's answers: JSONDecoder's generic path (a container and a dynamic cast per field) cost a node pulling a first
/// sync more than writing the records. It reads what the Codable conformances write, in any key order and with any whitespace (a
/// PostgreSQL hub's `jsonb` text has spaces), skips keys it does not know, and fails on anything else.
public enum SyncWireReader {
    public static func changePage(_ data: Data) throws -> ChangePage {
        try read(data) { reader in try reader.changePage() }
    }

    public static func pushResponse(_ data: Data) throws -> PushResponse {
        try read(data) { reader in try reader.pushResponse() }
    }

    public static func pushRequest(_ data: Data) throws -> PushRequest {
        try read(data) { reader in try reader.pushRequest() }
    }

    /// A record's fields: one JSON object of scalar values.
    public static func fields(_ text: String) throws -> [String: JSONValue] {
        var text = text
        return try text.withUTF8 { bytes in
            var reader = JSONByteReader(bytes)
            let fields = try reader.fields()
            try reader.end()
            return fields
        }
    }

    private static func read<Value>(_ data: Data, _ body: (inout JSONByteReader) throws -> Value) throws -> Value {
        try data.withUnsafeBytes { raw in
            var reader = JSONByteReader(raw.bindMemory(to: UInt8.self))
            let value = try body(&reader)
            try reader.end()
            return value
        }
    }
}

/// What the reader could not read, and where.
public struct SyncWireError: Error, CustomStringConvertible, Sendable {
    public let message: String
    public let offset: Int

    public var description: String { "\(message) at byte \(offset)" }
}

/// A cursor over JSON bytes, one value at a time.
struct JSONByteReader {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    /// How deep the values being skipped nest: past `maximumDepth` the answer is refused, never a stack overflow.
    private var depth = 0
    private static let maximumDepth = 512

    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    // The wire's shapes ------------------------------------------------------------------------------------------

    mutating func changePage() throws -> ChangePage {
        var changes: [ChangeLogEntry]?, nextCursor: Int64?, hasMore: Bool?, remaining: Int64?
        try object { reader, key in
            switch key {
            case "changes": changes = try reader.array { try $0.changeLogEntry() }
            case "next_cursor": nextCursor = try reader.integer()
            case "has_more": hasMore = try reader.bool()
            case "remaining": remaining = try reader.integer()
            default: try reader.skipValue()
            }
        }
        return ChangePage(changes: try required(changes, "changes"), nextCursor: try required(nextCursor, "next_cursor"),
                          hasMore: try required(hasMore, "has_more"), remaining: Int(try required(remaining, "remaining")))
    }

    mutating func pushResponse() throws -> PushResponse {
        var results: [SyncResult]?
        try object { reader, key in
            if key == "results" { results = try reader.array { try $0.syncResult() } } else { try reader.skipValue() }
        }
        return PushResponse(results: try required(results, "results"))
    }

    mutating func pushRequest() throws -> PushRequest {
        var nodeId: UUID?, operations: [SyncOperation]?
        try object { reader, key in
            switch key {
            case "node_id": nodeId = try reader.uuid()
            case "operations": operations = try reader.array { try $0.syncOperation() }
            default: try reader.skipValue()
            }
        }
        return PushRequest(nodeId: try required(nodeId, "node_id"), operations: try required(operations, "operations"))
    }

    private mutating func syncOperation() throws -> SyncOperation {
        var id: UUID?, operation: ChangeOperation?, entity: String?, entityId: UUID?, fields: [String: JSONValue]?
        var before: [String: JSONValue]?, baseVersion: Int?, author: String?, createdAt: Date?
        try object { reader, key in
            switch key {
            case "operation_id": id = try reader.uuid()
            case "operation": operation = try reader.choice("operation")
            case "entity": entity = try reader.string()
            case "entity_id": entityId = try reader.uuid()
            case "fields": fields = try reader.fields()
            case "before": before = try reader.fields()
            case "base_version":
                let number = try reader.integer()
                guard let version = Int(exactly: number) else { throw reader.error("base_version out of range") }
                baseVersion = version
            case "author": author = try reader.string()
            case "created_at":
                let text = try reader.string()
                guard let date = SyncDateFormat.date(from: text) else { throw reader.error("not an ISO 8601 date: \(text)") }
                createdAt = date
            default: try reader.skipValue()
            }
        }
        return SyncOperation(operationId: try required(id, "operation_id"), operation: try required(operation, "operation"),
                             entity: try required(entity, "entity"), entityId: try required(entityId, "entity_id"),
                             fields: try required(fields, "fields"), before: try required(before, "before"),
                             baseVersion: try required(baseVersion, "base_version"), author: try required(author, "author"),
                             createdAt: try required(createdAt, "created_at"))
    }

    mutating func fields() throws -> [String: JSONValue] {
        var fields: [String: JSONValue] = [:]
        try object { reader, key in fields[key] = try reader.scalar() }
        return fields
    }

    private mutating func changeLogEntry() throws -> ChangeLogEntry {
        var seq: Int64?, state: RecordState?
        try object { reader, key in
            switch key {
            case "seq": seq = try reader.integer()
            case "state": state = try reader.recordState()
            default: try reader.skipValue()
            }
        }
        return ChangeLogEntry(seq: try required(seq, "seq"), state: try required(state, "state"))
    }

    private mutating func recordState() throws -> RecordState {
        var entity: String?, id: UUID?, deleted: Bool?, version: Int64?, fields: [String: JSONValue]?
        try object { reader, key in
            switch key {
            case "entity": entity = try reader.string()
            case "entity_id": id = try reader.uuid()
            case "deleted": deleted = try reader.bool()
            case "version": version = try reader.integer()
            case "fields": fields = try reader.fields()
            default: try reader.skipValue()
            }
        }
        return RecordState(entity: try required(entity, "entity"), entityId: try required(id, "entity_id"),
                           deleted: try required(deleted, "deleted"), version: Int(try required(version, "version")),
                           fields: try required(fields, "fields"))
    }

    private mutating func syncResult() throws -> SyncResult {
        var id: UUID?, outcome: SyncOutcome?, reason: String?, losing: [LosingField]?, current: RecordState?
        try object { reader, key in
            switch key {
            case "operation_id": id = try reader.uuid()
            case "outcome": outcome = try reader.choice("outcome")
            case "reason": reason = try reader.nullable { try $0.string() }
            case "losing_fields": losing = try reader.array { try $0.losingField() }
            case "current": current = try reader.recordState()
            default: try reader.skipValue()
            }
        }
        return SyncResult(operationId: try required(id, "operation_id"), outcome: try required(outcome, "outcome"), reason: reason,
                          losingFields: try required(losing, "losing_fields"), current: try required(current, "current"))
    }

    private mutating func losingField() throws -> LosingField {
        var name: String?, mine: JSONValue?, theirs: JSONValue?
        try object { reader, key in
            switch key {
            case "name": name = try reader.string()
            case "mine": mine = try reader.scalar()
            case "theirs": theirs = try reader.scalar()
            default: try reader.skipValue()
            }
        }
        return LosingField(name: try required(name, "name"), mine: try required(mine, "mine"), theirs: try required(theirs, "theirs"))
    }

    private func required<Value>(_ value: Value?, _ key: String) throws -> Value {
        guard let value else { throw error("missing \(key)") }
        return value
    }

    // JSON -----------------------------------------------------------------------------------------------------------

    /// Calls `member` with each key of an object, the reader positioned at its value.
    mutating func object(_ member: (inout JSONByteReader, String) throws -> Void) throws {
        try expect(UInt8(ascii: "{"))
        if try peek() == UInt8(ascii: "}") { index += 1; return }
        while true {
            let key = try string()
            try expect(UInt8(ascii: ":"))
            try member(&self, key)
            let next = try take()
            if next == UInt8(ascii: "}") { return }
            guard next == UInt8(ascii: ",") else { throw error("expected , or }") }
        }
    }

    mutating func array<Item>(_ item: (inout JSONByteReader) throws -> Item) throws -> [Item] {
        try expect(UInt8(ascii: "["))
        var items: [Item] = []
        if try peek() == UInt8(ascii: "]") { index += 1; return items }
        while true {
            items.append(try item(&self))
            let next = try take()
            if next == UInt8(ascii: "]") { return items }
            guard next == UInt8(ascii: ",") else { throw error("expected , or ]") }
        }
    }

    /// A string, number, boolean or null: a number written without a fraction or an exponent that fits an Int is an
    /// int, any other (finite) number a double, as `JSONBytes` writes them.
    mutating func scalar() throws -> JSONValue {
        switch try peek() {
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool(try bool())
        case UInt8(ascii: "n"): try literal("null"); return .null
        default:
            let text = try numberText()
            if !text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }), let number = Int(text) { return .int(number) }
            guard let number = Double(text), number.isFinite else { throw error("not a finite number: \(text)") }
            return .double(number)
        }
    }

    mutating func nullable<Value>(_ read: (inout JSONByteReader) throws -> Value) throws -> Value? {
        if try peek() == UInt8(ascii: "n") { try literal("null"); return nil }
        return try read(&self)
    }

    mutating func integer() throws -> Int64 {
        let text = try numberText()
        guard let number = Int64(text) else { throw error("not an integer: \(text)") }
        return number
    }

    mutating func bool() throws -> Bool {
        if try peek() == UInt8(ascii: "t") { try literal("true"); return true }
        try literal("false")
        return false
    }

    mutating func uuid() throws -> UUID {
        let text = try string()
        guard let id = UUID(uuidString: text) else { throw error("not an id: \(text)") }
        return id
    }

    /// One of `Choice`'s raw values; `noun` names it in the error for any other text.
    mutating func choice<Choice: RawRepresentable>(_ noun: String) throws -> Choice where Choice.RawValue == String {
        let text = try string()
        guard let known = Choice(rawValue: text) else { throw error("unknown \(noun) “\(text)”") }
        return known
    }

    mutating func string() throws -> String {
        try expect(UInt8(ascii: "\""))
        let start = index
        // The common case: no escapes, the bytes as they are.
        while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\") { index += 1 }
        guard index < bytes.count else { throw error("unterminated string") }
        if bytes[index] == UInt8(ascii: "\"") {
            defer { index += 1 }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        }
        var text = Array(bytes[start..<index])
        while true {
            guard index < bytes.count else { throw error("unterminated string") }
            let byte = bytes[index]
            index += 1
            if byte == UInt8(ascii: "\"") { return String(decoding: text, as: UTF8.self) }
            guard byte == UInt8(ascii: "\\") else { text.append(byte); continue }
            guard index < bytes.count else { throw error("unterminated escape") }
            let escaped = bytes[index]
            index += 1
            switch escaped {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(escaped)
            case UInt8(ascii: "b"): text.append(0x08)
            case UInt8(ascii: "f"): text.append(0x0C)
            case UInt8(ascii: "n"): text.append(0x0A)
            case UInt8(ascii: "r"): text.append(0x0D)
            case UInt8(ascii: "t"): text.append(0x09)
            case UInt8(ascii: "u"): text.append(contentsOf: String(try unicodeScalar()).utf8)
            default: throw error("unknown escape")
            }
        }
    }

    /// The scalar of a `\u` escape (after the `u`), a surrogate pair read as one.
    private mutating func unicodeScalar() throws -> Character {
        let first = try hex4()
        if (0xD800..<0xDC00).contains(first) {
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                throw error("a lone surrogate")
            }
            index += 2
            let second = try hex4()
            guard (0xDC00..<0xE000).contains(second), let scalar = Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))
            else { throw error("a broken surrogate pair") }
            return Character(scalar)
        }
        guard let scalar = Unicode.Scalar(first) else { throw error("a lone surrogate") }
        return Character(scalar)
    }

    private mutating func hex4() throws -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("a short \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            index += 1
            guard let digit = hexDigitValue(byte) else { throw error("a bad \\u escape") }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// Any value, read past (an object or array whole).
    mutating func skipValue() throws {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maximumDepth else { throw error("values nested more than \(Self.maximumDepth) deep") }
        switch try peek() {
        case UInt8(ascii: "{"): try object { reader, _ in try reader.skipValue() }
        case UInt8(ascii: "["): _ = try array { try $0.skipValue() }
        default: _ = try scalar()
        }
    }

    /// Only whitespace may follow the value.
    mutating func end() throws {
        skipWhitespace()
        guard index == bytes.count else { throw error("unexpected text after the value") }
    }

    private mutating func numberText() throws -> String {
        skipWhitespace()
        let start = index
        while index < bytes.count, Self.numberBytes.contains(bytes[index]) { index += 1 }
        guard index > start else { throw error("expected a value") }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    }

    private static let numberBytes = Set("0123456789+-.eE".utf8)

    private mutating func literal(_ word: StaticString) throws {
        skipWhitespace()
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count, UnsafeBufferPointer(rebasing: bytes[index..<index + count]).elementsEqual(
            UnsafeBufferPointer(start: word.utf8Start, count: count)) else { throw error("expected \(word)") }
        index += count
    }

    private mutating func expect(_ byte: UInt8) throws {
        guard try take() == byte else { throw error("expected \(Character(Unicode.Scalar(byte)))") }
    }

    /// The next byte that is not whitespace, consumed.
    private mutating func take() throws -> UInt8 {
        let byte = try peek()
        index += 1
        return byte
    }

    /// The next byte that is not whitespace, left in place.
    private mutating func peek() throws -> UInt8 {
        skipWhitespace()
        guard index < bytes.count else { throw error("unexpected end") }
        return bytes[index]
    }

    private mutating func skipWhitespace() {
        while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
    }

    func error(_ message: String) -> SyncWireError { SyncWireError(message: message, offset: index) }
}
