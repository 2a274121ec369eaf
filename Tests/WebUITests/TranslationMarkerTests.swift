import Foundation
import Testing
import Translations
@testable import WebUI

/// Texts marked in templates (`{{_}}…{{/_}}`): their msgids, and their translation while the template is parsed.
@Suite struct TranslationMarkerTests {
    private let spanish = Languages(catalogs: [Catalog(language: "es", pluralRule: .english, entries: [
        CatalogEntry(msgid: "Sign in", msgstr: "Iniciar sesión"),
        CatalogEntry(context: "navigation", msgid: "Map", msgstr: "Mapa"),
        CatalogEntry(msgid: "Map", msgstr: "Plano"),
        CatalogEntry(msgid: "Signed in as {user.name} ({role})", msgstr: "({role}) {user.name} ha iniciado sesión"),
        CatalogEntry(msgid: "Tom & Jerry's <show>", msgstr: "El show de Tom & Jerry <x>"),
        CatalogEntry(msgid: "{unread} unread notification", msgidPlural: "{unread} unread notifications",
                     msgstrPlural: ["{unread} notificación sin leer", "{unread} notificaciones sin leer"]),
        CatalogEntry(msgid: "Read <a href=\"{url}\">the guide</a>", msgstr: "Lea <a href=\"{url}\">la guía</a>"),
        CatalogEntry(msgid: "A long text on two lines", msgstr: "Un texto largo"),
    ])]).translator(for: "es")!

    private func render(_ source: String, _ view: TemplateView = [:], in translator: Translator = .english) throws -> String {
        try TemplateTests().render(source, view, in: translator)
    }

    @Test func markedTextsAreTranslatedWhenParsed() throws {
        #expect(try render("<button>{{_}}Sign in{{/_}}</button>") == "<button>Sign in</button>")
        #expect(try render("<button>{{_}}Sign in{{/_}}</button>", in: spanish) == "<button>Iniciar sesión</button>")
        #expect(try render("{{_}}Not in the catalog{{/_}}", in: spanish) == "Not in the catalog")
        let nodes = try TemplateParser.parse("<b>{{_}}Sign in{{/_}}</b>", name: "t", translator: spanish)
        #expect(nodes.count == 1, "a translated text is plain text, joined with the text around it")
    }

    @Test func contextTellsOneEnglishWordFromAnother() throws {
        #expect(try render("{{_ context=\"navigation\"}}Map{{/_}} {{_}}Map{{/_}}", in: spanish) == "Mapa Plano")
    }

    @Test func placeholdersAreTheTemplatesVariablesInTheTranslationsOrder() throws {
        let view: TemplateView = ["user": ["name": "Ada <b>"] as TemplateView, "role": "Editor"]
        #expect(try render("{{_}}Signed in as {{user.name}} ({{role}}){{/_}}", view)
            == "Signed in as Ada &lt;b&gt; (Editor)")
        #expect(try render("{{_}}Signed in as {{user.name}} ({{role}}){{/_}}", view, in: spanish)
            == "(Editor) Ada &lt;b&gt; ha iniciado sesión")
        let marked = try TemplateParser.markedTexts("{{_}}Signed in as {{user.name}} ({{role}}){{/_}}", name: "t")
        #expect(marked == [ExtractedText(msgid: "Signed in as {user.name} ({role})", plural: nil, context: nil)])
    }

    @Test func translatedTextIsEscapedUnlessMarkedHTML() throws {
        #expect(try render("{{_}}Tom &amp; Jerry&#39;s &lt;show&gt;{{/_}}") == "Tom &amp; Jerry's &lt;show&gt;")
        #expect(try render("{{_}}Tom &amp; Jerry&#39;s &lt;show&gt;{{/_}}", in: spanish) == "El show de Tom &amp; Jerry &lt;x&gt;")
        #expect(try render("{{_ html}}Read <a href=\"{{url}}\">the guide</a>{{/_}}", ["url": "/g?a=1&b=2"], in: spanish)
            == "Lea <a href=\"/g?a=1&amp;b=2\">la guía</a>")
        #expect(throws: TemplateSyntaxError.self) { try TemplateParser.parse("{{_}}Read <a href=\"x\">it</a>{{/_}}", name: "t") }
    }

    @Test func pluralsAreChosenByTheNumberWhenRendered() throws {
        let source = "{{_ count=unread}}{{unread}} unread notification{{_ plural}}{{unread}} unread notifications{{/_}}"
        #expect(try render(source, ["unread": 1]) == "1 unread notification")
        #expect(try render(source, ["unread": 4]) == "4 unread notifications")
        #expect(try render(source, ["unread": 1], in: spanish) == "1 notificación sin leer")
        #expect(try render(source, ["unread": 0], in: spanish) == "0 notificaciones sin leer")
        #expect(try TemplateParser.markedTexts(source, name: "t")
            == [ExtractedText(msgid: "{unread} unread notification", plural: "{unread} unread notifications", context: nil)])
    }

    @Test func lineEndsAreOneSpaceAndSurroundingSpacesStayOutside() throws {
        #expect(try render("<p>\n  {{_}}A long text\n  on two lines{{/_}}\n</p>", in: spanish) == "<p>\n  Un texto largo\n</p>")
        #expect(try render("<p>{{_}} A long text\n  on two lines {{/_}}</p>", in: spanish) == "<p> Un texto largo </p>")
    }

    @Test func pseudoLocaleWrapsEveryMarkedText() throws {
        let pseudo = Languages(catalogs: [], pseudoLocale: true).translator(for: PseudoLocale.tag)!
        let shown = try render("<a>{{_ html}}Read <a href=\"{{url}}\">the guide</a>{{/_}}</a>", ["url": "/g"], in: pseudo)
        #expect(shown.hasPrefix("<a>⟦Ŕ") || shown.hasPrefix("<a>⟦R"), "\(shown)")
        #expect(shown.contains("<a href=\"/g\">"), "markup is left as it is: \(shown)")
    }

    @Test func mistakesInMarkersAreFoundWhenTheTemplateIsRead() {
        for source in ["{{_}}never closed", "{{_}}{{#a}}x{{/a}}{{/_}}", "{{_}}{{/_}}", "{{_ plural}}", "{{_}}a{{_ plural}}b{{/_}}",
                       "{{_ count=n}}one{{/_}}", "{{_ colour=\"red\"}}x{{/_}}", "{{_}}{{.}}{{/_}}"] {
            #expect(throws: TemplateSyntaxError.self, "\(source)") { try TemplateParser.parse(source, name: "t") }
        }
    }
}
