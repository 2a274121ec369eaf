import Foundation

/// One property of a JSON body. The same value drives the server's checks (APIBody) and the OpenAPI schema,
/// so what the document promises is exactly what the server enforces.
struct Field: Sendable {
    /// The JSON type and format of a property.
    indirect enum Kind: Sendable {
        case text, integer, number, boolean, uuid, date, dateTime, email
        case choice([String])
        case uuidList
        case object([Field])
        /// A schema from components (responses only).
        case reference(String)
        /// An array of a component schema (responses only).
        case list(String)
        /// Any JSON scalar: string, number, boolean or null (a synced field's value).
        case anyValue
        /// An object of field names to JSON scalars (a synced record's fields).
        case anyObject
    }

    let name: String
    var kind: Kind
    var required = false
    var nullable = false
    var minLength: Int?
    var maxLength: Int?
    /// Must contain a character that is not white space (`String.notBlankPattern`).
    var notBlank = false
    var pattern: TextPattern?
    var minimum: Double?
    var maximum: Double?
    var summary: String?

    /// A string, optionally required to hold more than white space; lengths count Unicode code points as JSON Schema does.
    static func text(_ name: String, max: Int, required: Bool = false, nullable: Bool = false, notBlank: Bool = false,
                     _ summary: String? = nil) -> Field {
        Field(name: name, kind: .text, required: required, nullable: nullable, minLength: notBlank ? 1 : nil, maxLength: max,
              notBlank: notBlank, summary: summary)
    }

    static func of(_ name: String, _ kind: Kind, required: Bool = false, nullable: Bool = false, _ summary: String? = nil) -> Field {
        Field(name: name, kind: kind, required: required, nullable: nullable, summary: summary)
    }

    static func version(required: Bool = false) -> Field {
        Field(name: "version", kind: .integer, required: required, minimum: 1, maximum: Double(Int32.max),
              summary: required ? "Increases by one with every change." : "The version you last read; when it is no longer current the change is refused with 409 stale_version.")
    }

    func ranged(_ range: ClosedRange<Double>) -> Field {
        var copy = self
        (copy.minimum, copy.maximum) = (range.lowerBound, range.upperBound)
        return copy
    }

    func kind(_ kind: Kind) -> Field {
        var copy = self
        copy.kind = kind
        return copy
    }

    func matching(_ pattern: TextPattern) -> Field {
        var copy = self
        copy.pattern = pattern
        return copy
    }
}

extension Field {
    /// A JSON object with the required fields, for messages that say what to send.
    static func example(_ fields: [Field]) -> String {
        let parts = fields.filter(\.required).map { "\"\($0.name)\": \($0.kind.exampleValue)" }
        return "{" + parts.joined(separator: ", ") + "}"
    }
}

extension Field.Kind {
    var exampleValue: String {
        switch self {
        case .text, .reference, .list: "\"...\""
        case .email: "\"name@example.org\""
        case .uuid: "\"0d2f3a10-0000-4000-8000-000000000001\""
        case .date: "\"2025-03-12\""
        case .dateTime: "\"2025-03-12T09:30:00Z\""
        case .integer, .number: "1"
        case .boolean: "false"
        case .choice(let options): "\"\(options.first ?? "")\""
        case .uuidList: "[]"
        case .object(let inner): Field.example(inner)
        case .anyValue: "\"...\""
        case .anyObject: "{}"
        }
    }
}

/// A regular expression the document states, with the Swift check that accepts exactly the same strings.
struct TextPattern: Sendable {
    let regex: String
    let matches: @Sendable (String) -> Bool

    /// A phone number as the pages accept it: digits, spaces, dashes, dots and brackets, an optional leading +,
    /// 7 to 15 digits; or empty. Like the regex `$`, a single final newline is allowed.
    static let phone = TextPattern(regex: #"^(\+?[ ().-]*([0-9][ ().-]*){7,15})?$"#) { text in
        let line = text.hasSuffix("\n") ? String(text.unicodeScalars.dropLast()) : text
        if line.isEmpty { return true }
        let body = line.hasPrefix("+") ? line.unicodeScalars.dropFirst() : line.unicodeScalars[...]
        let allowed = Set("0123456789 ().-".unicodeScalars)
        let digits = body.filter { ("0"..."9").contains($0) }.count
        return body.allSatisfy(allowed.contains) && (7...15).contains(digits)
    }
}

extension String {
    /// The white space a required name may not consist of only. Spelled out rather than `\s`, whose meaning differs
    /// between ECMAScript, Python and Rust (the validators clients use); it holds everything Swift's trimming removes,
    /// so a name that passes is never empty once trimmed.
    static let blankScalars: [ClosedRange<UInt32>] = [
        0x09...0x0D, 0x20...0x20, 0x85...0x85, 0xA0...0xA0, 0x1680...0x1680, 0x2000...0x200A, 0x2028...0x2029,
        0x202F...0x202F, 0x205F...0x205F, 0x3000...0x3000, 0xFEFF...0xFEFF,
    ]

    /// The JSON Schema pattern for text without U+0000 (`containsNUL` says why every text field refuses it).
    static let noNULPattern = #"^[^\u0000]*$"#

    /// The JSON Schema pattern for "no U+0000, and a character outside `blankScalars`".
    static let notBlankPattern = #"^[^\u0000]*[^\u0000"# + blankScalars.map { range in
        range.count == 1 ? String(format: "\\u%04x", range.lowerBound) : String(format: "\\u%04x-\\u%04x", range.lowerBound, range.upperBound)
    }.joined() + #"][^\u0000]*$"#

    /// True when every character is in `blankScalars`.
    var isBlankForSchema: Bool {
        unicodeScalars.allSatisfy { scalar in Self.blankScalars.contains { $0.contains(scalar.value) } }
    }
}
