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
    public private(set) var fieldErrors: [FieldError]

    public init(_ fieldErrors: [FieldError] = []) { self.fieldErrors = fieldErrors }

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
