/// One problem with one form field, worded for the person who typed it.
public struct FieldError: Sendable, Equatable, Codable {
    public let field: String
    public let message: String

    public init(field: String, message: String) {
        self.field = field
        self.message = message
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
    public static func clash(_ field: String, _ message: String) -> ValidationError {
        ValidationError([FieldError(field: field, message: message)], cause: .currentRecords)
    }

    public mutating func add(_ field: String, _ message: String) {
        fieldErrors.append(FieldError(field: field, message: message))
    }

    public var isEmpty: Bool { fieldErrors.isEmpty }

    public func message(for field: String) -> String? { fieldErrors.first { $0.field == field }?.message }

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
