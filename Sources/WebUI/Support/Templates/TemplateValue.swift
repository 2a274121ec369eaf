import Translations

/// A value a template shows: the renderer switches over these cases rather than casting values of unknown type.
enum TemplateValue: Sendable {
    case text(String)
    case number(Int)
    case flag(Bool)
    case html(RenderedHTML)
    /// Text made in Swift, translated when the page is rendered, in the reader's language.
    case message(Message)
    case list([TemplateValue])
    case view(TemplateView)
    case fields(TemplateFields)
    /// A name the view declares without a value (an optional holding nothing): it is found, and shows nothing, so a
    /// value of the same name further out is not shown in its place.
    case nothing
}

/// A view whose names are given when it is made: a page, a record, a nested part of either.
struct TemplateView: ExpressibleByDictionaryLiteral, Sendable {
    private(set) var entries: [String: TemplateValue]

    /// A name written twice is a mistake, stopped as a dictionary literal's would be.
    init(dictionaryLiteral elements: (String, any TemplateValueConvertible)...) {
        entries = Dictionary(uniqueKeysWithValues: elements.lazy.map { ($0, $1.templateValue) })
    }

    init(_ entries: [String: TemplateValue] = [:]) {
        self.entries = entries
    }

    /// Setting nil removes the name, as it does in a dictionary. Read a value back with `value(_:)` or `text(_:)`.
    subscript(name: String) -> (any TemplateValueConvertible)? {
        get { entries[name] }
        set { entries[name] = newValue?.templateValue }
    }

    /// The value of a name that holds something (for a view built in steps that asks what it already has).
    func value(_ name: String) -> TemplateValue? { entries[name] }

    /// The text a name holds, or nil when it holds something else or nothing.
    func text(_ name: String) -> String? {
        if case .text(let text)? = entries[name] { text } else { nil }
    }

    /// This view with `other`'s names added; where both have a name, `other`'s value is kept.
    func merging(_ other: TemplateView) -> TemplateView {
        TemplateView(entries.merging(other.entries) { $1 })
    }

    mutating func merge(_ other: TemplateView) {
        entries.merge(other.entries) { $1 }
    }
}

/// A view that answers names itself rather than from a dictionary: a list's row. Fifty rows made fifty dictionaries
/// of about ten entries each, every entry hashed when made and again when looked up, for a page read once.
struct TemplateFields: Sendable {
    /// The value for a name, or nil when this view has none (the name is then looked up in the views around it).
    let field: @Sendable (String) -> TemplateValue?

    init(_ field: @escaping @Sendable (String) -> TemplateValue?) {
        self.field = field
    }

    /// The names of a view (a list whose rows are few).
    init(_ view: TemplateView) {
        self.init { view.value($0) }
    }
}

/// A template already rendered (a page's body inside the layout), written as its bytes: turning it into a `String`
/// and back checked every byte of the page twice.
struct RenderedHTML: Sendable {
    let bytes: [UInt8]
}

/// A Swift value a view may hold, and the template value it is shown as.
protocol TemplateValueConvertible {
    var templateValue: TemplateValue { get }
}

extension TemplateValue: TemplateValueConvertible, ExpressibleByStringLiteral, ExpressibleByBooleanLiteral {
    var templateValue: TemplateValue { self }
    init(stringLiteral value: String) { self = .text(value) }
    init(booleanLiteral value: Bool) { self = .flag(value) }
}

extension String: TemplateValueConvertible {
    var templateValue: TemplateValue { .text(self) }
}

extension Int: TemplateValueConvertible {
    var templateValue: TemplateValue { .number(self) }
}

extension Double: TemplateValueConvertible {
    /// Shown as Swift writes it (`1.5`, `2.0`).
    var templateValue: TemplateValue { .text(String(describing: self)) }
}

extension Bool: TemplateValueConvertible {
    var templateValue: TemplateValue { .flag(self) }
}

extension Message: TemplateValueConvertible {
    var templateValue: TemplateValue { .message(self) }
}

extension RenderedHTML: TemplateValueConvertible {
    var templateValue: TemplateValue { .html(self) }
}

extension TemplateView: TemplateValueConvertible {
    var templateValue: TemplateValue { .view(self) }
}

extension TemplateFields: TemplateValueConvertible {
    var templateValue: TemplateValue { .fields(self) }
}

extension Optional: TemplateValueConvertible where Wrapped: TemplateValueConvertible {
    var templateValue: TemplateValue { self?.templateValue ?? .nothing }
}

// Closures rather than `\.templateValue`: a key path over a generic element is instantiated again on every call, and
// every page converts lists this way.
extension Array: TemplateValueConvertible where Element: TemplateValueConvertible {
    var templateValue: TemplateValue { .list(map { $0.templateValue }) }
}

extension Dictionary: TemplateValueConvertible where Key == String, Value: TemplateValueConvertible {
    var templateValue: TemplateValue { .view(TemplateView(mapValues { $0.templateValue })) }
}
