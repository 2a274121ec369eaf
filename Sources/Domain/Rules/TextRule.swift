import Foundation
import Translations

/// The rule one text field keeps, stated once: an input's `validated()` checks with it and the JSON API's document
/// states it (maxLength, minLength, pattern, format), so a client that validates against the document and the server
/// accept exactly the same strings.
///
/// Lengths count Unicode code points (`unicodeScalars`), as JSON Schema's maxLength and minLength do, so a client
/// that checks against the document counts what the server counts. The record's rule counts the text it keeps
/// (trimmed), so a person's stray spaces around a name at the limit are not held against it; the JSON API also holds
/// a body to the document's limit on the value as sent (`lengthProblem(asSent:)`), since schemathesis and any client
/// validating against the document judge the raw value. One number, stated here, serves both.
public struct TextRule: Sendable {
    /// The field's name in messages, capitalized: "Name", "Notes".
    public let label: Message
    public let maxLength: Int?
    public let minLength: Int?
    /// The message when the text is empty or only white space; nil when the field may be left empty.
    public let missing: Message?
    /// A form the text must have (a phone number), with the message when it does not.
    public let pattern: TextPattern?
    /// The message when the text is not an email address (`EmailAddress.isValid`); nil for other text.
    public let invalidEmail: Message?
    /// Whether white space around the text is dropped before it is kept (passwords keep theirs).
    public let trims: Bool

    public init(label: Message, maxLength: Int?, minLength: Int? = nil, missing: Message? = nil, pattern: TextPattern? = nil,
                invalidEmail: Message? = nil, trims: Bool = true) {
        (self.label, self.maxLength, self.minLength, self.missing) = (label, maxLength, minLength, missing)
        (self.pattern, self.invalidEmail, self.trims) = (pattern, invalidEmail, trims)
    }

    /// A value must be given: it may not be blank, or it must be at least one code point long.
    public var isRequired: Bool { missing != nil || (minLength ?? 0) > 0 }
    public var isEmail: Bool { invalidEmail != nil }

    /// The least length the document states: a field that may not be blank needs one code point.
    public var documentMinLength: Int? { minLength ?? (missing != nil ? 1 : nil) }

    /// The regular expression the document states: the field's own form, else "no U+0000 and not blank" for a field
    /// that may not be blank, else "no U+0000" (`String.containsNUL` says why every text refuses it).
    public var documentPattern: String {
        pattern?.regex ?? (missing != nil ? String.notBlankPattern : String.noNULPattern)
    }

    /// Checks `raw` and answers the text to keep (trimmed unless `trims` is false); its length is the kept text's.
    /// Problems go to `errors`.
    @discardableResult
    public func check(_ raw: String, field: String, into errors: inout ValidationError) -> String {
        let text = trims ? raw.trimmingCharacters(in: .whitespacesAndNewlines) : raw
        if let problem = problem(with: raw, kept: text) { errors.add(field, problem) }
        return text
    }

    /// The document's length limit applied to the value as sent, white space included; nil when it keeps to it.
    public func lengthProblem(asSent raw: String) -> Message? {
        let length = raw.unicodeScalars.count
        if let maxLength, length > maxLength {
            return Message("{label} must be {max} characters or fewer (it has {length})",
                           ["label": .message(label), "max": .digits(maxLength), "length": .digits(length)])
        }
        if let minLength, length < minLength {
            return Message("{label} must be at least {min} characters", ["label": .message(label), "min": .digits(minLength)])
        }
        return nil
    }

    private func problem(with raw: String, kept text: String) -> Message? {
        if raw.containsNUL { return Message("{label} must not contain the NUL character (U+0000); remove it", ["label": .message(label)]) }
        if let missing, raw.isBlank { return missing }
        if let problem = lengthProblem(asSent: text) { return problem }
        if let pattern, !pattern.matches(raw) { return pattern.message }
        if let invalidEmail, !text.isEmpty, !EmailAddress.isValid(text.lowercased()) { return invalidEmail }
        return nil
    }
}

/// A regular expression the document states, with the Swift check that accepts exactly the same strings.
public struct TextPattern: Sendable {
    public let regex: String
    public let matches: @Sendable (String) -> Bool
    /// What a person is told when the text does not have this form.
    public let message: Message

    public init(regex: String, message: Message, matches: @escaping @Sendable (String) -> Bool) {
        (self.regex, self.message, self.matches) = (regex, message, matches)
    }

    /// A phone number: digits, spaces, dashes, dots and brackets, an optional leading + (spaces may come before it,
    /// as a person may type them), 7 to 15 digits; or empty. Like the regex `$`, a single final newline is allowed.
    public static let phone = TextPattern(regex: #"^ *(\+?[ ().-]*([0-9][ ().-]*){7,15})?$"#,
                                          message: Message("Enter a phone number using {format}", ["format": .message(phoneFormat)])) { text in
        let line = (text.hasSuffix("\n") ? String(text.unicodeScalars.dropLast()) : text).drop { $0 == " " }
        if line.isEmpty { return true }
        let body = line.hasPrefix("+") ? line.unicodeScalars.dropFirst() : line.unicodeScalars[...]
        let allowed = Set("0123456789 ().-".unicodeScalars)
        let digits = body.filter { ("0"..."9").contains($0) }.count
        return body.allSatisfy(allowed.contains) && (7...15).contains(digits)
    }

    public static let phoneFormat = Message("digits, spaces, dashes and brackets, optionally starting with +, like +254 712 345 678")
}

extension String {
    /// The white space a required text may not consist of only. Spelled out rather than `\s`, whose meaning differs
    /// between ECMAScript, Python and Rust (the validators clients use); it holds everything Swift's trimming removes,
    /// so a text that passes is never empty once trimmed.
    public static let blankScalars: [ClosedRange<UInt32>] = [
        0x09...0x0D, 0x20...0x20, 0x85...0x85, 0xA0...0xA0, 0x1680...0x1680, 0x2000...0x200A, 0x2028...0x2029,
        0x202F...0x202F, 0x205F...0x205F, 0x3000...0x3000, 0xFEFF...0xFEFF,
    ]

    /// The JSON Schema pattern for text without U+0000.
    public static let noNULPattern = #"^[^\u0000]*$"#

    /// The JSON Schema pattern for "no U+0000, and a character outside `blankScalars`".
    public static let notBlankPattern = #"^[^\u0000]*[^\u0000"# + blankScalars.map { range in
        range.count == 1 ? String(format: "\\u%04x", range.lowerBound) : String(format: "\\u%04x-\\u%04x", range.lowerBound, range.upperBound)
    }.joined() + #"][^\u0000]*$"#

    /// True when every code point is in `blankScalars` (the empty string too).
    public var isBlank: Bool {
        unicodeScalars.allSatisfy { scalar in Self.blankScalars.contains { $0.contains(scalar.value) } }
    }
}
