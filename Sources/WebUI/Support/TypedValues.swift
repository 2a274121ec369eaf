import HTTPServer

/// A form submission that could not be saved (the disk is full), shown back so nothing typed is lost: every value in a
/// form that sends it again to the same address. Works for any form, including ones added later, since it needs only
/// the request. Passwords are not written into the page; the person types them again.
enum TypedValues {
    static func view(of request: Request, csrfToken: String) -> TemplateView {
        view(action: request.pathWithQuery, pairs: request.form.pairs, csrfToken: csrfToken)
    }

    /// The same for values kept elsewhere (`FormStash`), sent to `action`.
    static func view(action: String, pairs: [(name: String, value: String)], csrfToken: String) -> TemplateView {
        let kept = pairs.filter { $0.name != "csrf_token" }
        let hidden = kept.filter { formMachinery.contains($0.name) }.map { ["name": $0.name, "value": $0.value] }
        let fields: [TemplateView] = kept.filter { !formMachinery.contains($0.name) }.enumerated().map { index, pair in
            let secret = isSecret(pair.name)
            return ["id": "typed-\(index)", "name": pair.name, "label": label(pair.name), "value": secret ? "" : pair.value,
                    "secret": secret, "multiline": pair.value.contains("\n")]
        }
        let typedValues: TemplateView = ["action": action, "csrf_token": csrfToken, "fields": fields, "hidden": hidden,
                                         "has_fields": !fields.isEmpty]
        return ["typed_values": typedValues]
    }

    /// Fields the forms carry hidden, for the server rather than the person (the version an edit was made from, a
    /// picker's state, where to go next): sent again as they were, never shown as boxes to fill in.
    static let formMachinery: Set<String> = ["version", "kept_version", "removed_version", "picking", "confirmed", "next",
                                             "return_to", "resume", "kept_display", "kept_thumbnail"]

    /// A field whose value is never written into a page nor kept: a password.
    static func isSecret(_ name: String) -> Bool { name.lowercased().contains("password") }

    /// "given_name" → "Given name"; "assigned_user_id" → "Assigned user": a reference reads as what it names.
    static func label(_ name: String) -> String {
        let bare = name.hasSuffix("_id") && name.count > 3 ? String(name.dropLast(3)) : name
        let words = bare.replacingOccurrences(of: "_", with: " ").replacingOccurrences(of: "-", with: " ")
        return words.prefix(1).uppercased() + words.dropFirst()
    }
}
