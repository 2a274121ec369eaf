import Domain
import Foundation
import Translations

/// One property of a JSON body or response. A body field's limits are a Domain rule (`rule`): the OpenAPI schema
/// states it and Domain's implementation checks it, so what the document promises is exactly what the server enforces.
struct Field: Sendable {
    /// The JSON type and format of a property.
    indirect enum Kind: Sendable {
        case text, integer, number, boolean, uuid, date, dateTime
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
        /// A GeoJSON position: [longitude, latitude].
        case position
        /// An array of strings.
        case textList
        /// An array of values each one of a fixed set (notification kinds).
        case choiceList([String])
        /// An array of at most `maxItems` SHA-256 hashes, each 64 lowercase hexadecimal digits (photo files).
        case contentAddressList(maxItems: Int)
        /// A file of a multipart form.
        case file
    }

    /// Who applies a field's rule, so that each value is checked once.
    enum RuleCheck: Sendable {
        /// The store's `validated()` of the input the body is turned into.
        case store
        /// APIBody, for values no Domain input receives (a version, sign-in credentials).
        case body
    }

    let name: String
    var kind: Kind
    var required = false
    var nullable = false
    var rule: FieldRule?
    var ruleCheck = RuleCheck.body
    var summary: String?

    /// A field of a Domain input: its JSON type, whether it is required and whether it may be null all follow from
    /// the rule (an optional value may be null; a list is empty rather than null), and the store checks it.
    static func input(_ name: String, _ rule: FieldRule, _ summary: String? = nil) -> Field {
        var kind: Kind {
            switch rule {
            case .text: .text
            case .choice(let choice): .choice(choice.options)
            case .number(let number): number.isWhole ? .integer : .number
            case .id: .uuid
            case .idList: .uuidList
            case .choiceList(let choice): .choiceList(choice.options)
            case .date: .date
            case .instant: .dateTime
            }
        }
        var nullable: Bool {
            switch rule {
            case .idList, .choiceList: false
            default: !rule.isRequired
            }
        }
        return Field(name: name, kind: kind, required: rule.isRequired, nullable: nullable, rule: rule, ruleCheck: .store, summary: summary)
    }

    /// A text no Domain input receives, of at most `max` (and at least `min`) code points: in a body APIBody checks
    /// it with a Domain text rule, in a query the operation's handler checks it with the rule the limits come from.
    static func text(_ name: String, max: Int, min: Int? = nil, required: Bool = false, _ summary: String? = nil) -> Field {
        Field(name: name, kind: .text, required: required, rule: .text(TextRule(label: .verbatim(name), maxLength: max, minLength: min)), summary: summary)
    }

    static func of(_ name: String, _ kind: Kind, required: Bool = false, nullable: Bool = false, _ summary: String? = nil) -> Field {
        Field(name: name, kind: kind, required: required, nullable: nullable, summary: summary)
    }

    static func version(required: Bool = false) -> Field {
        Field(name: "version", kind: .integer, required: required, rule: .number(RecordVersion.rule),
              summary: required ? "Increases by one with every change." : "The version you last read; when it is no longer current the change is refused with 409 stale_version.")
    }

    /// The same field limited to `range` (query parameters and sync cursors; APIBody checks it in a body).
    func ranged(_ range: ClosedRange<Double>) -> Field {
        var copy = self
        copy.rule = .number(NumberRule(label: .verbatim(name), range: range, whole: { if case .integer = kind { true } else { false } }()))
        copy.ruleCheck = .body
        return copy
    }
}

extension Field {
    /// A JSON object with the required fields, for messages that say what to send.
    static func example(_ fields: [Field]) -> String {
        let parts = fields.filter(\.required).map { "\"\($0.name)\": \($0.exampleValue)" }
        return "{" + parts.joined(separator: ", ") + "}"
    }

    var exampleValue: String {
        if case .text(let rule)? = rule, rule.isEmail { return "\"name@example.org\"" }
        return kind.exampleValue
    }
}

extension Field.Kind {
    var exampleValue: String {
        switch self {
        case .text, .reference, .list, .file: "\"...\""
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
        case .position: "[-0.1276, 51.5072]"
        case .textList, .choiceList, .contentAddressList: "[]"
        }
    }
}
