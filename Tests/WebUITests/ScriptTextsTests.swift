import Foundation
import Testing
import Translations
@testable import WebUI

/// The texts a page gives its scripts: each plural with its own forms and the rule that chooses among them.
@Suite struct ScriptTextsTests {
    private let french = Languages(catalogs: [Catalog(language: "fr", pluralRule: try! PluralRule(header: "nplurals=2; plural=(n > 1);"), entries: [
        CatalogEntry(msgid: "{count} venue in view", msgidPlural: "{count} venues in view",
                     msgstrPlural: ["{count} lieu visible", "{count} lieux visibles"]),
    ])]).translator(for: "fr")!

    private struct Plural: Decodable, Equatable {
        let forms: [String]
        let plural: String
    }

    @Test func eachPluralCarriesItsOwnRule() throws {
        let texts = ScriptTexts([
            "venues": Message("{count} venue in view", plural: "{count} venues in view", count: 0),
            "unread": Message("{count} unread notification", plural: "{count} unread notifications", count: 0),
        ])
        let shown = try JSONDecoder().decode([String: Plural].self, from: Data(texts.json(french).utf8))
        let venues = try #require(shown["venues"])
        let unread = try #require(shown["unread"])
        #expect(venues.forms == ["{count} lieu visible", "{count} lieux visibles"])
        #expect(venues.plural.first == "0", "French says 0 in the singular")
        #expect(unread.forms == ["{count} unread notification", "{count} unread notifications"])
        #expect(unread.plural.first == "1", "English, for a text French lacks, says 0 in the plural")
        #expect(venues.plural == ScriptTexts.formTable(try PluralRule(header: "nplurals=2; plural=(n > 1);")))
        #expect(unread.plural == ScriptTexts.formTable(.english))
    }

    @Test func singleTextsAreStrings() throws {
        let shown = try JSONDecoder().decode([String: String].self,
                                             from: Data(ScriptTexts(["finding": Message("Finding your location…")]).json(.english).utf8))
        #expect(shown == ["finding": "Finding your location…"])
    }
}
