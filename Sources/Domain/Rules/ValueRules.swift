import Foundation
import Translations

/// One of a fixed set of values (an enum): exact spelling, no trimming, as the document's `enum` states.
public struct ChoiceRule: Sendable {
    public let options: [String]
    /// Whether leaving it empty is refused.
    public let isRequired: Bool
    /// The message when the value is missing (if required) or not one of `options`.
    public let message: Message

    public init<Choice: RawRepresentable & CaseIterable>(_ type: Choice.Type, required: Bool, message: Message) where Choice.RawValue == String {
        (options, isRequired, self.message) = (Choice.allCases.map(\.rawValue), required, message)
    }

    /// The chosen value; nil when empty (allowed unless required) or refused.
    public func check<Choice: RawRepresentable>(_ raw: String, as type: Choice.Type = Choice.self, field: String,
                                                into errors: inout ValidationError) -> Choice? where Choice.RawValue == String {
        if raw.isEmpty && !isRequired { return nil }
        guard options.contains(raw), let value = Choice(rawValue: raw) else {
            errors.add(field, message)
            return nil
        }
        return value
    }
}

/// A number within a closed range (coordinates, a record version); the document states `minimum` and `maximum`.
public struct NumberRule: Sendable {
    public let label: Message
    public let range: ClosedRange<Double>
    /// Whole numbers only (the document's `integer`).
    public let isWhole: Bool

    public init(label: Message, range: ClosedRange<Double>, whole: Bool = false) {
        (self.label, self.range, isWhole) = (label, range, whole)
    }

    /// `value` when it is finite, whole if it must be, and in range; nil after adding the problem to `errors`.
    public func check(_ value: Double, field: String, into errors: inout ValidationError) -> Double? {
        guard value.isFinite, !isWhole || value.rounded() == value else {
            errors.add(field, isWhole ? Message("{label} must be a whole number", ["label": .message(label)])
                : Message("{label} must be a number", ["label": .message(label)]))
            return nil
        }
        guard range.contains(value) else {
            errors.add(field, Message("{label} must be between {lowest} and {highest}",
                                      ["label": .message(label), "lowest": .text(range.lowerBound.compact), "highest": .text(range.upperBound.compact)]))
            return nil
        }
        return value
    }

    /// A number typed as text: empty for none, else a number in range; nil after adding the problem to `errors`.
    public func check(typed raw: String, field: String, example: String, into errors: inout ValidationError) -> Double? {
        let text = raw.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { return nil }
        guard let value = Double(text) else {
            errors.add(field, Message("{label} must be a number, like {example}", ["label": .message(label), "example": .text(example)]))
            return nil
        }
        return check(value, field: field, into: &errors)
    }
}

/// A record's id, in the canonical 36-character form (the document's `format: uuid`).
public struct IDRule: Sendable {
    public let isRequired: Bool
    /// The message when it is missing (if required) or not an id.
    public let message: Message

    public init(required: Bool, message: Message) { (isRequired, self.message) = (required, message) }

    public func check(_ raw: String, field: String, into errors: inout ValidationError) -> UUID? {
        if raw.isEmpty && !isRequired { return nil }
        guard let id = UUID.strict(raw) else {
            errors.add(field, message)
            return nil
        }
        return id
    }

    /// Every id of a list (checkboxes, an API array), duplicates dropped; a list holding anything else is refused.
    public func check(_ raws: [String], field: String, into errors: inout ValidationError) -> [UUID] {
        let ids = raws.map(UUID.strict)
        if ids.contains(nil) { errors.add(field, message) }
        var seen = Set<UUID>()
        return ids.compactMap { $0 }.filter { seen.insert($0).inserted }
    }
}

/// A day written exactly `YYYY-MM-DD` (the document's `format: date`).
public struct DateRule: Sendable {
    /// The message when it is empty; nil when it may be left empty.
    public let missing: Message?
    /// The message when it is not a real day in that form.
    public let invalid: Message

    public init(missing: Message? = nil, invalid: Message) { (self.missing, self.invalid) = (missing, invalid) }

    public var isRequired: Bool { missing != nil }

    /// The day; nil when empty (after adding `missing` if required) or not a day.
    public func check(_ raw: String, field: String, into errors: inout ValidationError) -> CalendarDate? {
        if raw.isEmpty {
            if let missing { errors.add(field, missing) }
            return nil
        }
        guard let date = CalendarDate.strict(raw) else {
            errors.add(field, invalid)
            return nil
        }
        return date
    }
}

/// A moment written as RFC 3339 says, with its offset (the document's `format: date-time`), that a device's clock gave:
/// when a visit was logged on a phone away from the network, sent hours later. A moment more than `skew` after the
/// server's now or more than `oldest` before it is set aside, not refused: either clock may be wrong (a server with no
/// real-time clock boots behind), and sending the same moment again could never be accepted, so the visit would be lost.
public struct InstantRule: Sendable {
    public let label: Message
    public let skew: TimeInterval
    public let oldest: TimeInterval
    public let isRequired: Bool

    public init(label: Message, skew: TimeInterval, oldest: TimeInterval, required: Bool = false) {
        (self.label, self.skew, self.oldest, isRequired) = (label, skew, oldest, required)
    }

    /// What the rule promises, for the document and for people.
    public var promise: String {
        "a time more than \(Int(skew / 60)) minutes later than the server's clock or \(Int(oldest / 86_400)) days earlier is set aside, "
            + "and the visit is logged when the server receives it"
    }

    /// The moment; nil when empty (allowed unless required), unreadable (after adding the problem to `errors`) or set
    /// aside as out of bounds.
    public func check(_ raw: String, now: Date, field: String, into errors: inout ValidationError) -> Date? {
        if raw.isEmpty {
            if isRequired { errors.add(field, Message("{label} is required", ["label": .message(label)])) }
            return nil
        }
        guard let moment = Self.parse(raw) else {
            errors.add(field, Message("{label} must be a date and time like {example}",
                                      ["label": .message(label), "example": .text("2025-03-12T09:30:00Z")]))
            return nil
        }
        return moment > now.addingTimeInterval(skew) || moment < now.addingTimeInterval(-oldest) ? nil : moment
    }

    /// RFC 3339 with or without fractional seconds (`Date.toISOString()` writes milliseconds).
    public static func parse(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let moment = formatter.date(from: text) { return moment }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }
}

/// The rule of one field of an input, by kind; each kind's declaration (Records) states its fields' rules, from which
/// the JSON API's document states them.
public enum FieldRule: Sendable {
    case text(TextRule)
    case choice(ChoiceRule)
    case number(NumberRule)
    case id(IDRule)
    case idList(IDRule)
    /// A list whose every item is one of the rule's options; required means the list must be sent (it may be empty).
    case choiceList(ChoiceRule)
    case date(DateRule)
    case instant(InstantRule)

    public var isRequired: Bool {
        switch self {
        case .text(let rule): rule.isRequired
        case .choice(let rule): rule.isRequired
        case .number: true
        case .id(let rule): rule.isRequired
        case .idList: false
        case .choiceList(let rule): rule.isRequired
        case .date(let rule): rule.isRequired
        case .instant(let rule): rule.isRequired
        }
    }
}

/// A record's version: it starts at 1 and grows by one with every change, and is stored as a 32-bit integer.
public enum RecordVersion {
    public static let rule = NumberRule(label: Message("version"), range: 1...Double(Int32.max), whole: true)
}

extension UUID {
    /// Parses only the canonical 36-character form (any case), as `format: uuid` promises.
    public static func strict(_ text: String) -> UUID? {
        text.utf8.count == 36 ? UUID(uuidString: text) : nil
    }
}

extension CalendarDate {
    /// Parses exactly `YYYY-MM-DD` with ASCII digits and nothing around it (`format: date`).
    public static func strict(_ text: String) -> CalendarDate? {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes.enumerated().allSatisfy({ index, byte in
            index == 4 || index == 7 ? byte == UInt8(ascii: "-") : (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }) else { return nil }
        return CalendarDate(text)
    }
}

extension Double {
    /// "90" rather than "90.0" in messages.
    public var compact: String { rounded() == self && abs(self) < 1e15 ? String(Int(self)) : String(self) }
}

/// The fields of an assignment, as its form and the API send them.
public enum AssignmentRules {
    public static let participantId = IDRule(required: true, message: Message("Choose a participant: search by name or email, then pick one"))
    public static let roleId = IDRule(required: true, message: Message("Choose the participant's role"))

    public static let rules: [String: FieldRule] = ["participant_id": .id(participantId), "role_id": .id(roleId)]
}
