import Translations

/// One problem with one form field, worded for the person who typed it: pages show it in the reader's language, the
/// JSON API, logs and the hub in English.
public struct FieldError: Sendable, Equatable, Codable {
    public let field: String
    public let text: Message

    public init(field: String, _ text: Message) {
        self.field = field
        self.text = text
    }

    /// A problem worded elsewhere in English (a stored or received text), looked up in the catalogs as it is.
    public init(field: String, message: String) {
        self.init(field: field, Message(domainText: message))
    }

    /// The problem in English.
    public var message: String { text.english }

    /// The same field and the same English words, however they were put together.
    public static func == (left: FieldError, right: FieldError) -> Bool {
        left.field == right.field && left.message == right.message
    }

    private enum CodingKeys: String, CodingKey { case field, message }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(field: try container.decode(String.self, forKey: .field), message: try container.decode(String.self, forKey: .message))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(field, forKey: .field)
        try container.encode(message, forKey: .message)
    }
}

/// Every problem found in one submitted form or API body; empty means valid.
public struct ValidationError: Error, Sendable, Equatable {
    /// What the problems are about. Both surfaces show them beside the fields; the JSON API answers rules a body breaks
    /// on its own with 422 and values that clash with the records stored now with 409, since resending the same body
    /// can succeed once those records change.
    public enum Cause: Sendable, Equatable {
        /// The values break a rule on their own (a blank name, a bad email).
        case input
        /// The values are fine on their own but clash with current records (a referenced record is gone, a name is taken).
        case currentRecords
    }

    public private(set) var fieldErrors: [FieldError]
    public let cause: Cause

    public init(_ fieldErrors: [FieldError] = [], cause: Cause = .input) {
        self.fieldErrors = fieldErrors
        self.cause = cause
    }

    /// One field's clash with the records stored now.
    public static func clash(_ field: String, _ message: Message) -> ValidationError {
        ValidationError([FieldError(field: field, message)], cause: .currentRecords)
    }

    public static func clash(_ field: String, _ message: String) -> ValidationError {
        ValidationError([FieldError(field: field, message: message)], cause: .currentRecords)
    }

    public mutating func add(_ field: String, _ message: Message) {
        fieldErrors.append(FieldError(field: field, message))
    }

    /// A problem worded elsewhere in English (`FieldError.init(field:message:)`).
    public mutating func add(_ field: String, _ message: String) {
        fieldErrors.append(FieldError(field: field, message: message))
    }

    public var isEmpty: Bool { fieldErrors.isEmpty }

    /// The first problem with `field`, in English.
    public func message(for field: String) -> String? { text(for: field)?.english }

    /// The first problem with `field`, to translate.
    public func text(for field: String) -> Message? { fieldErrors.first { $0.field == field }?.text }

    /// Throws self when any problem was found.
    public func throwIfAny() throws {
        if !fieldErrors.isEmpty { throw self }
    }
}

extension String {
    /// True when the text holds U+0000. SQLite stores it, but text read back stops there, so "\u{0}Ada" would be kept
    /// and later read as an empty name: every way in refuses or replaces it.
    public var containsNUL: Bool { unicodeScalars.contains("\u{0}") }
}
