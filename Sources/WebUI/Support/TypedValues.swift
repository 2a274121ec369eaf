import HTTPServer

/// A form submission that could not be saved (the disk is full), shown back so nothing typed is lost: every value in a
/// form that sends it again to the same address. Works for any form, including ones added later, since it needs only
/// the request. Passwords are not written into the page; the person types them again.
enum TypedValues {
    static func view(of request: Request, csrfToken: String) -> [String: Any] {
        view(action: request.pathWithQuery, pairs: request.form.pairs, csrfToken: csrfToken)
    }

    /// The same for values kept elsewhere (`FormStash`), sent to `action`.
    static func view(action: String, pairs: [(name: String, value: String)], csrfToken: String) -> [String: Any] {
        let kept = pairs.filter { $0.name != "csrf_token" }
        let fields: [[String: Any]] = kept.enumerated().map { index, pair in
            let secret = isSecret(pair.name)
            return ["id": "typed-\(index)", "name": pair.name, "label": label(pair.name), "value": secret ? "" : pair.value,
                    "secret": secret, "multiline": pair.value.contains("\n")]
        }
        return ["typed_values": ["action": action, "csrf_token": csrfToken, "fields": fields, "has_fields": !fields.isEmpty]]
    }

    /// A field whose value is never written into a page nor kept: a password.
    static func isSecret(_ name: String) -> Bool { name.lowercased().contains("password") }

    /// "given_name" → "Given name".
    private static func label(_ name: String) -> String {
        let words = name.replacingOccurrences(of: "_", with: " ").replacingOccurrences(of: "-", with: " ")
        return words.prefix(1).uppercased() + words.dropFirst()
    }
}
