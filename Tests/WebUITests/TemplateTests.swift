import Foundation
import Testing
import Translations
@testable import WebUI

/// The template parser and renderer: the parts of Mustache Fieldbook's templates use, as the specification states them.
@Suite struct TemplateTests {
    func render(_ source: String, _ view: TemplateView, partials: [String: String] = [:],
                in translator: Translator = .english) throws -> String {
        var templates = try partials.mapValues { try TemplateParser.parse($0, name: "partial", translator: translator) }
        templates["main"] = try TemplateParser.parse(source, name: "main", translator: translator)
        var rendering = TemplateRendering(templates: templates, translator: translator, capacity: 64)
        rendering.render(templates["main"]!, view)
        return String(decoding: rendering.output, as: UTF8.self)
    }

    @Test func variablesAreEscapedUnlessTripled() throws {
        let view: TemplateView = ["text": "<a href=\"x\">Tom & Jerry's</a>", "count": 3]
        #expect(try render("{{text}}|{{{text}}}|{{& text}}|{{count}}|{{missing}}", view)
            == "&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;|<a href=\"x\">Tom & Jerry's</a>|<a href=\"x\">Tom & Jerry's</a>|3|")
        #expect(try render("é {{name}} ✓", ["name": "Zoë <b>"]) == "é Zoë &lt;b&gt; ✓")
    }

    @Test func sectionsFollowTheirValue() throws {
        let view: TemplateView = [
            "yes": true, "no": false, "rows": [["n": "a"], ["n": "b"]], "empty": [TemplateView](), "words": ["x", "y"],
            "user": ["name": "Ada"], "label": "L", "outer": "O",
        ]
        #expect(try render("{{#yes}}Y{{/yes}}{{#no}}N{{/no}}{{^no}}!N{{/no}}{{^yes}}!Y{{/yes}}", view) == "Y!N")
        #expect(try render("{{#rows}}[{{n}}{{outer}}]{{/rows}}{{^empty}}none{{/empty}}{{#empty}}x{{/empty}}", view) == "[aO][bO]none")
        #expect(try render("{{#words}}<{{.}}>{{/words}}", view) == "<x><y>")
        #expect(try render("{{#user}}{{name}}/{{label}}{{/user}} {{user.name}} {{user.missing}}", view) == "Ada/L Ada ")
        #expect(try render("{{#label}}[{{.}}]{{/label}}{{#missing}}M{{/missing}}{{^missing}}-{{/missing}}", view) == "[L]-")
    }

    /// Rows that answer names themselves render as rows of dictionaries do: a name a row has not is found around it.
    @Test func rowsOfFieldsAreRowsToo() throws {
        let phone: String? = nil
        func row(_ name: String, _ phone: String?) -> TemplateFields {
            TemplateFields { field in
                switch field {
                case "n": .text(name)
                case "phone": phone.map(TemplateValue.text)
                case "flag": .flag(name == "b")
                default: nil
                }
            }
        }
        let view: TemplateView = ["rows": [row("a", "1"), row("b", phone)], "none": [TemplateFields](), "outer": "O", "one": row("c", "3")]
        #expect(try render("{{#rows}}[{{n}}{{outer}}{{#phone}}({{.}}){{/phone}}{{^phone}}-{{/phone}}{{#flag}}!{{/flag}}]{{/rows}}", view)
            == "[aO(1)][bO-!]")
        #expect(try render("{{^none}}no rows{{/none}}{{#none}}x{{/none}}|{{#one}}{{n}}{{outer}}{{/one}}|{{one.n}}", view) == "no rows|cO|c")
    }

    @Test func anOptionalHoldingNothingIsNothing() throws {
        let nothing: String? = nil
        let something: String? = "here"
        let view: TemplateView = ["nothing": nothing, "something": something, "inner": ["nothing": nothing] as TemplateView,
                                  "outer": "O"]
        #expect(try render("{{nothing}}|{{#nothing}}x{{/nothing}}|{{^nothing}}empty{{/nothing}}|{{something}}", view) == "||empty|here")
        // Found in the inner view, it hides a value of the same name further out.
        #expect(try render("{{#inner}}[{{nothing}}]{{^nothing}}-{{/nothing}}{{/inner}}", ["inner": view.value("inner"), "nothing": "N"])
            == "[]-")
    }

    /// Numbers and flags are written as text; a view or a list has no text of its own.
    @Test func valuesWriteTheirText() throws {
        let view: TemplateView = ["count": 12, "ratio": 1.5, "yes": true, "no": false, "user": ["name": "Ada"], "words": ["x"]]
        #expect(try render("{{count}}|{{ratio}}|{{yes}}|{{no}}|{{user}}|{{words}}|{{#count}}<{{.}}>{{/count}}", view) == "12|1.5|true|false|||<12>")
    }

    @Test func standaloneTagLinesLeaveNothingAndPartialsAreIndented() throws {
        let source = "<ul>\n  {{#rows}}\n  <li>{{n}}</li>\n  {{/rows}}\n</ul>\n  {{> item}}\nend {{#yes}}inline{{/yes}}\n"
        let view: TemplateView = ["rows": [["n": "1"], ["n": "2"]], "yes": true]
        #expect(try render(source, view, partials: ["item": "a\nb\n"]) == "<ul>\n  <li>1</li>\n  <li>2</li>\n</ul>\n  a\n  b\nend inline\n")
    }

    @Test func mistakesAreFoundWhenTheTemplateIsRead() {
        #expect(throws: TemplateSyntaxError.self) { try TemplateParser.parse("{{#a}}x", name: "t") }
        #expect(throws: TemplateSyntaxError.self) { try TemplateParser.parse("{{#a}}x{{/b}}", name: "t") }
        #expect(throws: TemplateSyntaxError.self) { try TemplateParser.parse("{{name", name: "t") }
        #expect(throws: TemplateSyntaxError.self) { try TemplateParser.parse("{{=<% %>=}}", name: "t") }
    }
}
