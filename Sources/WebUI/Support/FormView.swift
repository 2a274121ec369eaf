import Domain
import Translations

/// Builds the view of a form's fields: typed values kept, each error tied to its field (GOV.UK error summary pattern).
struct FormView {
    private(set) var fields: [String: TemplateView] = [:]
    let errors: ValidationError

    init(errors: ValidationError = ValidationError()) { self.errors = errors }

    /// Adds a text-like input; `value` is what the user typed (or the stored value on first display).
    mutating func input(_ name: String, label: String, value: String, type: String = "text", hint: String? = nil,
                        autocomplete: String? = nil) {
        input(name, label: Message.verbatim(label), value: value, type: type, hint: hint.map(Message.verbatim),
              autocomplete: autocomplete)
    }

    /// A text-like input whose label and hint are translated.
    mutating func input(_ name: String, label: Message, value: String, type: String = "text", hint: Message? = nil,
                        autocomplete: String? = nil) {
        // A date the browser cannot show (typed elsewhere) is kept as text, so the value is not lost and the HTML stays valid.
        let shownType = type == "date" && !value.isEmpty && CalendarDate(value) == nil ? "text" : type
        var field: TemplateView = ["name": name, "id": name, "label": label, "value": value, "type": shownType]
        let hintId = hint.map { _ in "\(name)-hint" }
        if let hint, let hintId { field["hint"] = hint; field["hint_id"] = hintId }
        if let autocomplete { field["autocomplete"] = autocomplete }
        let message = errors.text(for: name)
        let errorId = message.map { _ in "\(name)-error" }
        if let message, let errorId {
            field["error"] = message
            field["error_id"] = errorId
        }
        let describedBy = [hintId, errorId].compactMap { $0 }
        if !describedBy.isEmpty { field["describedby"] = describedBy.joined(separator: " ") }
        fields[name] = field
    }

    /// Adds a `<select>`; `options` are (value, label) pairs and the one equal to `value` is selected.
    mutating func select(_ name: String, label: String, value: String, options: [(value: String, label: String)], hint: String? = nil) {
        input(name, label: Message.verbatim(label), value: value, hint: hint.map(Message.verbatim))
        fields[name]?["options"] = Self.options(options, selected: value, shown: TemplateValue.text)
    }

    /// A `<select>` whose label, options and hint are translated (a record's name as an option is `Message.verbatim`).
    mutating func select(_ name: String, label: Message, value: String, options: [(value: String, label: Message)], hint: Message? = nil) {
        input(name, label: label, value: value, hint: hint)
        fields[name]?["options"] = Self.options(options, selected: value, shown: TemplateValue.message)
    }

    /// Fields, not dictionaries: a list's filters hold every area and type as an option, as many as its rows.
    private static func options<Label: Sendable>(_ options: [(value: String, label: Label)], selected value: String,
                                       shown: @escaping @Sendable (Label) -> TemplateValue) -> [TemplateFields] {
        options.map { option in
            let selected = option.value == value
            return TemplateFields { field in
                switch field {
                case "value": .text(option.value)
                case "label": shown(option.label)
                case "selected": .flag(selected)
                default: nil
                }
            }
        }
    }

    /// Where the error summary links for fields that are not a single input (a radio group links to its first radio).
    var anchors: [String: String] = [:]

    /// The view for templates: `field_<name>` for each field plus the error summary.
    var view: TemplateView {
        var view: TemplateView = [:]
        for (name, field) in fields { view["field_\(name)"] = field }
        if !errors.isEmpty {
            view["has_errors"] = true
            view["errors"] = errors.fieldErrors.map { error -> TemplateView in
                ["anchor": anchors[error.field] ?? error.field, "message": error.text]
            }
        }
        return view
    }

    var hasErrors: Bool { !errors.isEmpty }
}
