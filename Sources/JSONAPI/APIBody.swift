import Domain
import Foundation
import HTTPServer
import Translations

/// A JSON value as a client sent it.
indirect enum JSONInput: Decodable, Sendable, Equatable {
    case null, bool(Bool), int(Int), double(Double), string(String), array([JSONInput]), object([String: JSONInput])

    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Int.self) { self = .int(value) }
        else if let value = try? container.decode(Double.self) { self = .double(value) }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode([JSONInput].self) { self = .array(value) }
        else { self = .object(try container.decode([String: JSONInput].self)) }
    }

    var number: Double? {
        switch self {
        case .int(let value): Double(value)
        case .double(let value): value
        default: nil
        }
    }
}

/// How a write treats fields the body leaves out.
enum WriteMode {
    /// POST and PUT: required fields must be present; absent optional fields are cleared.
    case full
    /// PATCH: nothing is required; absent fields keep their current values.
    case partial
}

/// A request's JSON object, checked against its fields' shape: 400 when it is not JSON, 422 listing every field that
/// is missing, null where it may not be, of the wrong JSON type or format (an id, a date, one of an enum), or breaks a
/// rule no Domain input checks (`Field.RuleCheck.body`). The other rules are the store's `validated()`'s, so that a
/// value is checked once.
struct APIBody {
    let values: [String: JSONInput]

    init(_ request: Request, fields: [Field], mode: WriteMode, example: String) throws {
        guard let object = try? JSONDecoder().decode([String: JSONInput].self, from: Data(request.body)) else {
            throw APIMalformedJSON(example: example)
        }
        try self.init(values: object, fields: fields, mode: mode)
    }

    init(values: [String: JSONInput], fields: [Field], mode: WriteMode) throws {
        self.values = values
        var errors = ValidationError()
        Self.check(values, fields: fields, mode: mode, prefix: "", into: &errors)
        try errors.throwIfAny()
    }

    func has(_ name: String) -> Bool { values[name] != nil }

    /// The string sent for `name`; "" when null; `fallback` (or "") when absent.
    func text(_ name: String, otherwise fallback: String? = nil) -> String {
        switch values[name] {
        case .string(let value): value
        case .some: ""
        case nil: fallback ?? ""
        }
    }

    func integer(_ name: String) -> Int? { values[name]?.number.flatMap { Int(exactly: $0) } }

    func number(_ name: String) -> Double? { values[name]?.number }

    func bool(_ name: String) -> Bool? {
        if case .bool(let value) = values[name] { return value }
        return nil
    }

    func strings(_ name: String) -> [String]? {
        guard case .array(let items) = values[name] else { return nil }
        return items.compactMap { if case .string(let text) = $0 { text } else { nil } }
    }

    /// The nested object sent for `name`, or nil when null or absent.
    func object(_ name: String) -> APIBody? {
        guard case .object(let inner) = values[name] else { return nil }
        return APIBody(checked: inner)
    }

    private init(checked values: [String: JSONInput]) { self.values = values }

    private static func check(_ values: [String: JSONInput], fields: [Field], mode: WriteMode, prefix: String,
                              into errors: inout ValidationError) {
        for field in fields {
            let name = prefix + field.name
            guard let value = values[field.name] else {
                if field.required && mode == .full { errors.add(name, "\(name) is required") }
                continue
            }
            if value == .null {
                if !field.nullable { errors.add(name, "\(name) must not be null") }
                continue
            }
            if let problem = problem(with: value, for: field, name: name, into: &errors) { errors.add(name, problem) }
        }
    }

    /// What is wrong with the shape of one non-null value, if anything; a rule APIBody applies and nested objects add
    /// their own errors.
    private static func problem(with value: JSONInput, for field: Field, name: String, into errors: inout ValidationError) -> String? {
        switch (field.kind, value) {
        case (.text, .string(let text)):
            guard case .text(let rule)? = field.rule else { return nil }
            // The document's limit holds for the value as sent; the rest of the rule is checked once, by whoever keeps it.
            if let problem = rule.lengthProblem(asSent: text) { return problem.english }
            if field.ruleCheck == .body { rule.check(text, field: name, into: &errors) }
            return nil
        case (.uuid, .string(let text)): return UUID.strict(text) == nil ? "\(name) must be an id like 0d2f3a10-0000-4000-8000-000000000001" : nil
        case (.date, .string(let text)): return CalendarDate.strict(text) == nil ? "\(name) must be a real day written like 2025-03-12" : nil
        case (.dateTime, .string(let text)):
            return InstantRule.parse(text) == nil ? "\(name) must be a date and time like 2025-03-12T09:30:00Z" : nil
        case (.choice(let options), .string(let text)):
            return options.contains(text) ? nil : "\(name) must be one of: \(options.joined(separator: ", "))"
        case (.integer, _), (.number, _): return numberProblem(value, field, name: name, into: &errors)
        case (.boolean, .bool): return nil
        case (.uuidList, .array(let items)):
            return items.allSatisfy({ if case .string(let text) = $0 { UUID.strict(text) != nil } else { false } })
                ? nil : "\(name) must be a list of ids"
        case (.object(let inner), .object(let object)):
            check(object, fields: inner, mode: .full, prefix: name + ".", into: &errors)
            return nil
        case (.choiceList(let options), .array(let items)):
            return items.allSatisfy({ if case .string(let text) = $0 { options.contains(text) } else { false } })
                ? nil : "\(name) must be a list of: \(options.joined(separator: ", "))"
        case (.contentAddressList(let most), .array(let items)):
            let hashes = items.allSatisfy { if case .string(let text) = $0 { PhotoImage.isContentAddress(text) } else { false } }
            return hashes && items.count <= most ? nil : "\(name) must be \(field.kind.noun)"
        default: return "\(name) must be \(field.kind.noun)"
        }
    }

    private static func numberProblem(_ value: JSONInput, _ field: Field, name: String, into errors: inout ValidationError) -> String? {
        let whole = if case .integer = field.kind { true } else { false }
        guard let number = value.number, number.isFinite, !whole || number.rounded() == number else {
            return "\(name) must be \(field.kind.noun)"
        }
        if field.ruleCheck == .body, case .number(let rule)? = field.rule { _ = rule.check(number, field: name, into: &errors) }
        return nil
    }
}

/// A body that is not a JSON object: 400 malformed_json, saying what to send instead.
struct APIMalformedJSON: HTTPResponseError {
    let example: String
    var status: HTTPStatus { .badRequest }
    var publicMessage: String {
        "The body is not a JSON object. Send Content-Type: application/json and a body like \(example)."
    }
}

extension Field.Kind {
    /// What a value of this kind is, for messages.
    var noun: String {
        switch self {
        case .text, .choice: "text"
        case .uuid: "an id"
        case .date: "a date like 2025-03-12"
        case .dateTime: "a date and time"
        case .integer: "a whole number"
        case .number: "a number"
        case .boolean: "true or false"
        case .uuidList: "a list of ids"
        case .object: "an object"
        case .reference, .list, .anyValue: "a value"
        case .file: "a file"
        case .anyObject: "an object of values"
        case .position: "a [longitude, latitude] pair"
        case .textList: "a list of texts"
        case .choiceList(let options): "a list of: \(options.joined(separator: ", "))"
        case .contentAddressList(let most): "a list of at most \(most) SHA-256 hashes, each 64 lowercase hexadecimal digits"
        }
    }
}
