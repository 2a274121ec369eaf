import Domain
import Records
import Translations
@testable import WebUI
import Testing

/// A form's inputs come from the kind's declared fields: name, label, value and error; the form adds only its own wording.
@Suite struct FormFieldTests {
    @Test func anInputIsNamedLabelledAndFilledFromItsDeclaredField() throws {
        let typed = ["name": "Ann", "phone": "12", "home_venue_id": ""]
        let texts = FieldTexts(Participant.declaration) { typed[$0] ?? "" }
        var form = FormView(errors: ValidationError([FieldError(field: "phone", message: "Enter a phone number")]))
        form.inputs([FormField(\.name, label: Message("Full name")), FormField(\.phone, type: "tel")], of: Participant.declaration, typed: texts)
        let view = form.view
        func field(_ name: String) -> TemplateView? { if case .view(let field)? = view.value("field_\(name)") { field } else { nil } }
        // Labels and errors are messages, shown in the reader's language; here in English.
        func shown(_ field: TemplateView, _ name: String) -> String? {
            if case .message(let message)? = field.value(name) { message.english } else { field.text(name) }
        }
        let name = try #require(field("name"))
        #expect(shown(name, "label") == "Full name" && name.text("value") == "Ann" && shown(name, "error") == nil)
        let phone = try #require(field("phone"))
        #expect(shown(phone, "label") == "Phone (optional)" && phone.text("value") == "12" && phone.text("type") == "tel")
        #expect(shown(phone, "error") == "Enter a phone number")
    }
}
