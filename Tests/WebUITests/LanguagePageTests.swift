import Domain
import Foundation
import HTTPServer
import Testing
import Translations
@testable import WebUI

/// The reader's language: their account's setting, else their browser's Accept-Language, else English; `<html lang
/// dir>` follow it, and the person chooses it on their account's language page.
@Suite struct LanguagePageTests {
    private func page(_ given: WebHarness, _ path: String, acceptLanguage: String?) -> String {
        let headers = acceptLanguage.map { ["accept-language": $0] } ?? [:]
        return given.send(Request(method: .get, path: path, headers: headers, cookies: given.cookies)).bodyText
    }

    @Test func theBrowsersLanguageElseEnglishWithLangAndDir() async throws {
        let given = try await WebHarness(languages: try WebHarness.shippedLanguages())
        try given.createUser("ed@example.org", .editor)
        let persian = page(given, "/login", acceptLanguage: "fa-IR,fa;q=0.9,en;q=0.5")
        #expect(persian.contains("<html lang=\"fa\" dir=\"rtl\">"))
        #expect(persian.contains("<h1 class=\"page-title\">ورود</h1>"))
        #expect(persian.contains("<title>ورود – Fieldbook</title>"))
        let spanish = page(given, "/login", acceptLanguage: "de;q=0.9,es;q=0.8")
        #expect(spanish.contains("<html lang=\"es\" dir=\"ltr\">"))
        #expect(spanish.contains("<label class=\"label\" for=\"email\">Correo electrónico</label>") || spanish.contains("Iniciar sesión"))
        for header in [nil, "de", "en-US,en;q=0.9"] {
            let english = page(given, "/login", acceptLanguage: header)
            #expect(english.contains("<html lang=\"en\" dir=\"ltr\">"), "\(header ?? "no Accept-Language")")
            #expect(english.contains("<h1 class=\"page-title\">Sign in</h1>"))
        }
    }

    @Test func theAccountsLanguageWinsOverTheBrowsers() async throws {
        let given = try await WebHarness(languages: try WebHarness.shippedLanguages())
        try given.createUser("ed@example.org", .editor)
        given.signIn("ed@example.org")
        let form = page(given, "/account/language", acceptLanguage: "fa")
        #expect(form.contains("<html lang=\"fa\" dir=\"rtl\">"), "from the browser until chosen")
        #expect(form.contains("lang=\"es\">Español</label>"))
        let saved = given.post("/account/language", [("language", "es")])
        #expect(saved.status == .seeOther)
        let user = try given.database.users().first { $0.email == "ed@example.org" }
        #expect(user?.language == "es")
        let after = page(given, "/participants", acceptLanguage: "fa")
        #expect(after.contains("<html lang=\"es\" dir=\"ltr\">"))
        #expect(after.contains("<h1 class=\"page-title\">Participantes</h1>"))
        #expect(after.contains("Sus páginas están ahora en Español."), "the flash, in the language chosen")
        given.post("/account/language", [("language", "")])
        #expect(page(given, "/participants", acceptLanguage: "fa").contains("<html lang=\"fa\" dir=\"rtl\">"))
        let refused = given.post("/account/language", [("language", "xx")])
        #expect(refused.status == .unprocessableContent)
        #expect(refused.bodyText.contains("Choose one of the languages listed"))
    }

    /// Pages whose every text is marked: in the pseudo-locale each text of theirs is inside ⟦…⟧, so what is left outside
    /// is only what is never translated (people's names and emails, the product's name, numbers, punctuation).
    /// A page is added here once its texts are all marked; the later rounds extend it to every page.
    static let crawledPages = ["/login (signed out)", "/account/language"]

    @Test func thePseudoLocaleCrawlFindsNoUnwrappedText() async throws {
        let given = try await WebHarness(linked: false, languages: try WebHarness.shippedLanguages())
        try given.createUser("ed@example.org", .editor)
        var found: [String: [String]] = [:]
        found["/login (signed out)"] = Self.unwrapped(page(given, "/login", acceptLanguage: PseudoLocale.tag))
        given.signIn("ed@example.org")
        found["/account/language"] = Self.unwrapped(page(given, "/account/language", acceptLanguage: PseudoLocale.tag),
                                                     allowing: ["User ed@example.org", "English", "Español", "Français", "Português", "فارسی", "Pseudo-locale (en-XA)"])
        #expect(Set(found.keys) == Set(Self.crawledPages))
        for (path, texts) in found.sorted(by: { $0.key < $1.key }) {
            #expect(texts == [], "\(path) shows text outside the catalogs: \(texts)")
        }
    }

    /// The texts of a page's body (and its title) that are outside ⟦…⟧ and not in `allowing`.
    static func unwrapped(_ html: String, allowing allowed: Set<String> = []) -> [String] {
        var text = html
        for element in ["script", "style", "svg"] {
            text = text.replacingOccurrences(of: "<\(element)[^>]*>.*?</\(element)>", with: " ", options: [.regularExpression])
        }
        // Attributes a person reads (aria-label, placeholder, title) count as text too.
        text = text.replacingOccurrences(of: #"(?:aria-label|placeholder|title|alt)="([^"]*)""#, with: "> $1 <", options: .regularExpression)
        text = text.replacingOccurrences(of: "<[^>]*>", with: "\n", options: .regularExpression)
        // Innermost first: a message's value may be a message of its own (a page's title inside "{title} – Fieldbook").
        while let inner = text.range(of: "⟦[^⟦⟧]*⟧", options: .regularExpression) { text.replaceSubrange(inner, with: "\n") }
        let ignored = CharacterSet.whitespacesAndNewlines.union(.punctuationCharacters).union(.symbols).union(.decimalDigits)
        let allowed = Set(allowed.map { $0.trimmingCharacters(in: ignored) })
        return text.components(separatedBy: "\n").map { $0.trimmingCharacters(in: ignored) }
            .filter { !$0.isEmpty && $0 != "Fieldbook" && !$0.hasPrefix("DOCTYPE") && !allowed.contains($0) }
    }
}
