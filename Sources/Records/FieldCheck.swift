import Domain
import Foundation

extension FieldDeclaration {
    /// Checks a stored value, as text, against the field's rule, as the form that wrote it did; problems go to `errors`.
    func check(_ text: String, into errors: inout ValidationError) {
        switch rule {
        case .text(let rule): rule.check(text, field: column, into: &errors)
        case .choice(let rule): _ = rule.check(text, as: Option.self, field: column, into: &errors)
        case .number(let rule): _ = rule.check(typed: text, field: column, example: example ?? "", into: &errors)
        case .id(let rule): _ = rule.check(text, field: column, into: &errors)
        case .date(let rule): _ = rule.check(text, field: column, into: &errors)
        // A moment's bounds are around the time it was sent, which a stored value is long past.
        case .idList, .choiceList, .instant, nil: break
        }
    }
}

/// Any text, as an option of a `ChoiceRule`: the rule itself decides which are allowed.
private struct Option: RawRepresentable {
    let rawValue: String
    init?(rawValue: String) { self.rawValue = rawValue }
}
