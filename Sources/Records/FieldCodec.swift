import Domain
import Foundation

/// How one field's Swift value crosses layers: as the `JSONValue` its column stores (SQLite's value, a PostgreSQL hub's
/// JSON, the sync wire's field), so every store reads and writes a record through the same conversion.
public struct FieldCodec<Value>: Sendable {
    public let encode: @Sendable (Value) -> JSONValue
    public let decode: @Sendable (JSONValue) -> Value
    /// The column holds a moment (`StoredInstant`), which exports write in ISO 8601.
    public let isInstant: Bool

    public init(isInstant: Bool = false, encode: @escaping @Sendable (Value) -> JSONValue, decode: @escaping @Sendable (JSONValue) -> Value) {
        (self.encode, self.decode, self.isInstant) = (encode, decode, isInstant)
    }

    /// The same conversion for a column that may be NULL; a stored value that does not read as one is NULL too.
    func optional(_ parse: @escaping @Sendable (JSONValue) -> Value?) -> FieldCodec<Value?> {
        let encode = self.encode
        return FieldCodec<Value?>(isInstant: isInstant, encode: { $0.map(encode) ?? .null }) { $0 == .null ? nil : parse($0) }
    }
}

extension JSONValue {
    /// The value as text: strings as they are, numbers written out, null as empty.
    public var text: String {
        switch self {
        case .string(let value): value
        case .int(let value): String(value)
        case .double(let value): String(value)
        case .bool(let value): value ? "1" : "0"
        case .null: ""
        }
    }
}

extension FieldCodec where Value == String {
    public static let text = FieldCodec(encode: { .string($0) }, decode: \.text)
}

extension FieldCodec where Value == String? {
    public static let optionalText = FieldCodec<String>.text.optional { $0.text }
}

extension FieldCodec where Value == UUID {
    /// Ids are stored lower-case; an unreadable one reads as the nil UUID.
    public static let id = FieldCodec(encode: { .string($0.lowercaseText) }, decode: { UUID.stored($0) ?? .zero })
}

extension FieldCodec where Value == UUID? {
    public static let optionalID = FieldCodec<UUID>.id.optional(UUID.stored)
}

extension UUID {
    static func stored(_ value: JSONValue) -> UUID? {
        if case .string(let text) = value { UUID(canonicalText: text) ?? UUID(uuidString: text) } else { nil }
    }
}

extension FieldCodec where Value == CalendarDate {
    /// Days are stored `yyyy-MM-dd`; an unreadable one reads as `CalendarDate.unreadable`.
    public static let day = FieldCodec(encode: { .string($0.description) }, decode: { CalendarDate($0.text) ?? .unreadable })
}

extension FieldCodec where Value == CalendarDate? {
    public static let optionalDay = FieldCodec<CalendarDate>.day.optional { CalendarDate($0.text) }
}

extension FieldCodec where Value == Date {
    public static let instant = FieldCodec(isInstant: true, encode: { .string(StoredInstant.text($0)) },
                                           decode: { StoredInstant.date($0) ?? .unreadable })
}

extension FieldCodec where Value == Int {
    public static let integer = FieldCodec(encode: { .int($0) }, decode: { value in
        switch value {
        case .int(let number): number
        case .double(let number): Int(number)
        case .bool(let flag): flag ? 1 : 0
        case .string(let text): Int(text) ?? 0
        case .null: 0
        }
    })
}

extension FieldCodec where Value == Double? {
    public static let optionalReal = FieldCodec<Double?>(encode: { $0.map(JSONValue.double) ?? .null }) { value in
        switch value {
        case .double(let number): number
        case .int(let number): Double(number)
        case .string(let text): Double(text)
        case .bool, .null: nil
        }
    }
}

extension FieldCodec where Value == Bool {
    /// Stored as 0 or 1, as SQLite keeps booleans.
    public static let flag = FieldCodec(encode: { .bool($0) }, decode: { value in
        switch value {
        case .bool(let flag): flag
        case .int(let number): number != 0
        case .double(let number): number != 0
        case .string(let text): text == "1" || text == "true"
        case .null: false
        }
    })
}

extension FieldCodec {
    /// One of an enum's cases, stored as its raw value; an unknown value reads as `fallback`.
    public static func choice(_ fallback: Value) -> FieldCodec where Value: RawRepresentable & Sendable, Value.RawValue == String {
        FieldCodec(encode: { .string($0.rawValue) }, decode: { Value(rawValue: $0.text) ?? fallback })
    }

    /// One of an enum's cases or NULL; an unknown value reads as NULL.
    public static func optionalChoice<Choice>(_ type: Choice.Type) -> FieldCodec
        where Value == Choice?, Choice: RawRepresentable & Sendable, Choice.RawValue == String {
        FieldCodec(encode: { $0.map { .string($0.rawValue) } ?? .null }, decode: { Choice(rawValue: $0.text) })
    }
}
