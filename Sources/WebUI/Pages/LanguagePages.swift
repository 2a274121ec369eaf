import Domain
import HTTPServer
import Translations

/// The signed-in person's language: one of the languages this server has catalogs for, or their browser's.
enum LanguagePages {
    static func form(_ context: inout PageContext) throws -> Response {
        let user = try context.signedInUser
        return page(&context, chosen: user.language ?? "", error: nil)
    }

    static func save(_ context: inout PageContext) throws -> Response {
        let user = try context.signedInUser
        let chosen = context.request.field("language")
        let languages = context.web.renderer.languages
        guard chosen.isEmpty || languages.translator(for: chosen) != nil else {
            return page(&context, chosen: chosen, error: Message("Choose one of the languages listed"), status: .unprocessableContent)
        }
        let saved = try context.database.setLanguage(of: user.id, to: chosen.isEmpty ? nil : chosen, by: context.actor)
        // Said in the language just chosen: the next page is in it.
        let shown = languages.choose(account: saved.language, acceptLanguage: context.request.header("accept-language"))
        let done = Message("Your pages are now in {language}.", ["language": .text(shown.name)])
        return context.redirect(to: Paths.accountLanguage(), flash: shown.text(done))
    }

    private static func page(_ context: inout PageContext, chosen: String, error: Message?,
                             status: HTTPStatus = .ok) -> Response {
        let languages = context.web.renderer.languages
        let browsers = languages.negotiate(acceptLanguage: context.request.header("accept-language"))
        var options: [TemplateView] = [[
            "id": "language-browser", "value": "", "checked": chosen.isEmpty,
            "label": Message("From the browser (now {language})", ["language": .text(browsers.name)]),
        ]]
        options += languages.offered.map { option in
            ["id": "language-\(option.tag)", "value": option.tag, "label": option.name, "lang": option.tag,
             "checked": option.tag.lowercased() == chosen.lowercased()]
        }
        var view: TemplateView = ["options": options]
        if let error {
            view["error"] = error
            view["has_errors"] = true
            view["errors"] = [["anchor": "language", "message": error] as TemplateView]
        }
        return context.page("account/language", title: Message("Language"), section: nil, view: view, status: status,
                            hasErrors: error != nil)
    }
}
