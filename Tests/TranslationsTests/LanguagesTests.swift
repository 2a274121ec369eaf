import Translations
import XCTest

/// Choosing a reader's language: the account's setting, else Accept-Language by q value, else English.
final class LanguagesTests: XCTestCase {
    private let languages = Languages(catalogs: ["es", "fa", "pt-BR"].map {
        Catalog(language: $0, pluralRule: .english, entries: [])
    }, pseudoLocale: true)

    private func chosen(account: String? = nil, _ header: String?) -> String {
        languages.choose(account: account, acceptLanguage: header).language
    }

    func testAcceptLanguage() {
        XCTAssertEqual(chosen(nil), "en")
        XCTAssertEqual(chosen(""), "en")
        XCTAssertEqual(chosen("es"), "es")
        XCTAssertEqual(chosen("es-MX,es;q=0.9"), "es", "a region is served its language")
        XCTAssertEqual(chosen("de-DE,de;q=0.9,fa;q=0.8,en;q=0.7"), "fa", "the first spoken here by preference")
        XCTAssertEqual(chosen("en;q=0.5,fa;q=0.9"), "fa", "by q value, not order")
        XCTAssertEqual(chosen("es;q=0.8,fa;q=0.8"), "es", "first on a tie")
        XCTAssertEqual(chosen("fa;q=0,es;q=0.1"), "es", "q=0 is not acceptable")
        XCTAssertEqual(chosen("pt"), "pt-BR", "a language is served its only region")
        XCTAssertEqual(chosen("de, *"), "en")
        XCTAssertEqual(chosen("en-XA"), "en-XA", "the pseudo-locale when enabled")
        XCTAssertEqual(chosen("en"), "en")
        XCTAssertEqual(Languages(catalogs: []).choose(account: nil, acceptLanguage: "en-XA").language, "en",
                       "not offered unless enabled")
    }

    func testTheAccountWinsWhenSpokenHere() {
        XCTAssertEqual(chosen(account: "fa", "es"), "fa")
        XCTAssertEqual(chosen(account: "de", "es"), "es", "a language no longer here falls back to the browser's")
        XCTAssertEqual(chosen(account: "en", "fa"), "en")
    }

    func testOfferedWithTheirOwnNames() {
        XCTAssertEqual(languages.offered.map(\.tag), ["en", "en-XA", "es", "fa", "pt-BR"])
        XCTAssertEqual(languages.offered.first { $0.tag == "es" }?.name, "Español")
        XCTAssertEqual(languages.offered.first { $0.tag == "fa" }?.name, "فارسی")
    }

    func testDirection() {
        XCTAssertEqual(languages.translator(for: "fa")?.direction, .rightToLeft)
        XCTAssertEqual(languages.translator(for: "es")?.direction, .leftToRight)
        XCTAssertEqual(Translator.english.direction, .leftToRight)
    }

    func testPseudoLocaleWrapsLengthensAndKeepsPlaceholders() {
        let pseudo = languages.translator(for: "en-XA")!
        let text = pseudo.text("Signed in as {name}")
        XCTAssertTrue(text.hasPrefix("⟦") && text.hasSuffix("⟧"), text)
        XCTAssertTrue(text.contains("{name}"), text)
        XCTAssertGreaterThanOrEqual(text.count, Int(Double("Signed in as {name}".count) * 1.4), text)
        XCTAssertEqual(pseudo.text(Message("Hello {who}", ["who": "Ada"])).contains("Ada"), true)
    }

    func testFormatsPerLanguage() {
        XCTAssertEqual(languages.translator(for: "fa")!.formats.number(1234), "۱٬۲۳۴")
        XCTAssertEqual(languages.translator(for: "es")!.formats.number(1234567), "1.234.567")
        XCTAssertEqual(Translator.english.formats.number(1234), "1,234")
        XCTAssertEqual(languages.translator(for: "fa")!.formats.date(year: 2026, month: 11, day: 28), "۲۸ نوامبر ۲۰۲۶",
                       "Persian digits, Gregorian calendar")
    }
}
