import HTTPServer

/// A form submission that could not be saved (the disk is full), shown back so nothing typed is lost: every value in a
/// form that sends it again to the same address. Works for any form, including ones added later, since it needs only
/// the request. Passwords are not written into the page; the person types them again.
enum TypedValues {
    static func view(of request: Request, csrfToken: String) -> [String: Any] {
        let kept = request.form.pairs.filter { $0.name != "csrf_token" }
        let fields: [[String: Any]] = kept.enumerated().map { index, pair in
            let secret = pair.name.lowercased().contains("password")
            return ["id": "typed-\(index)", "name": pair.name, "label": label(pair.name), "value": secret ? "" : pair.value,
                    "secret": secret, "multiline": pair.value.contains("\n")]
        }
        return ["typed_values": ["action": request.pathWithQuery, "csrf_token": csrfToken, "fields": fields,
                                 "has_fields": !fields.isEmpty]]
    }

    /// "given_name" → "Given name".
    private static func label(_ name: String) -> String {
        let words = name.replacingOccurrences(of: "_", with: " ").replacingOccurrences(of: "-", with: " ")
        return words.prefix(1).uppercased() + words.dropFirst()
    }
}
