import Domain
import Records
import Translations

/// How one of a kind's declared fields shows on its form: what only a form knows, declared once per field beside the
/// page. The input's name, value and error come from the declared field (its column) and what was typed for it; its
/// label is the field's label, with "(optional)" after an optional one, unless the form words it its own way.
struct FormField<Record>: Sendable {
    fileprivate let property: PartialKeyPath<Record> & Sendable
    fileprivate let label: Message?
    fileprivate let type: String
    fileprivate let hint: Message?
    fileprivate let autocomplete: String?

    init<Value>(_ property: WritableKeyPath<Record, Value> & Sendable, label: Message? = nil, type: String = "text", hint: Message? = nil,
                autocomplete: String? = nil) {
        (self.property, self.label, self.type, self.hint, self.autocomplete) = (property, label, type, hint, autocomplete)
    }

    /// The declared field this one shows.
    fileprivate func declared(in declaration: RecordDeclaration<Record>) -> FieldDeclaration { declaration.field(property).declaration }

    fileprivate func label(of field: FieldDeclaration) -> Message { label ?? field.formLabel }
}

extension FormView {
    /// Adds an input for each of `fields`, filled with what was typed for it.
    mutating func inputs<Record>(_ fields: [FormField<Record>], of declaration: RecordDeclaration<Record>, typed texts: FieldTexts<Record>) {
        for field in fields {
            let declared = field.declared(in: declaration)
            input(declared.column, label: field.label(of: declared), value: texts[column: declared.column], type: field.type, hint: field.hint,
                  autocomplete: field.autocomplete)
        }
    }

    /// Adds a `<select>` for `field`, with the typed choice selected among `options` ((value, label) pairs).
    mutating func select<Record>(_ field: FormField<Record>, of declaration: RecordDeclaration<Record>, typed texts: FieldTexts<Record>,
                                 options: [(value: String, label: Message)]) {
        let declared = field.declared(in: declaration)
        select(declared.column, label: field.label(of: declared), value: texts[column: declared.column], options: options, hint: field.hint)
    }
}

extension FieldDeclaration {
    /// The field's label on a form: "(optional)" after an optional one.
    var formLabel: Message { isOptional ? Message("{label} (optional)", ["label": .message(label)]) : label }
}
