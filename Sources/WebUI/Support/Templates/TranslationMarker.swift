import Foundation
import Translations

/// A marked text in a template, read from its tag's attributes and the tokens up to `{{/_}}`:
///
///     {{_}}Sign in{{/_}}                                   msgid "Sign in"
///     {{_ context="navigation"}}Map{{/_}}                  the same English word with another meaning
///     {{_}}Signed in as {{name}}{{/_}}                     msgid "Signed in as {name}" (the translator may move it)
///     {{_ count=unread}}{{unread}} unread{{_ plural}}{{unread}} unread{{/_}}   a plural, chosen by `unread`
///     {{_ html}}Read <a href="{{url}}">the guide</a>{{/_}} a translation that may hold markup
///
/// The text between the tags is HTML as everywhere in a template; without `html` it may hold no tags, its entities
/// (`&amp;`) are written as their characters in the msgid, and the translation is escaped. Line ends and runs of
/// spaces are one space in the msgid, and spaces around the text stay outside it.
struct TranslationMarker {
    enum Part {
        case text(Substring)
        case variable(TemplateName, escaped: Bool)
        case plural
    }

    let text: ExtractedText
    private let isHTML: Bool
    private let count: TemplateName?
    private let placeholders: [String: (name: TemplateName, escaped: Bool)]
    private let leading: String
    private let trailing: String

    static func read(_ attributes: Substring, tokens parts: [Part], template: String) throws -> TranslationMarker {
        func failure(_ message: String) -> TemplateSyntaxError { TemplateSyntaxError(template: template, message: message) }
        var context: String?
        var count: TemplateName?
        var isHTML = false
        var rest = attributes.trimmingSpaces
        while !rest.isEmpty {
            if rest.hasPrefix("html") {
                isHTML = true
                rest = rest.dropFirst(4).trimmingSpaces
            } else if rest.hasPrefix("context=\""), let close = rest.dropFirst(9).firstIndex(of: "\"") {
                context = String(rest[rest.index(rest.startIndex, offsetBy: 9)..<close])
                rest = rest[rest.index(after: close)...].trimmingSpaces
            } else if rest.hasPrefix("count=") {
                let name = rest.dropFirst(6).prefix { !$0.isWhitespace }
                count = TemplateName(name)
                rest = rest.dropFirst(6 + name.count).trimmingSpaces
            } else {
                throw failure("{{_ \(attributes)}}: a marked text takes html, context=\"…\" and count=name")
            }
        }
        var forms: [String] = [""]
        var placeholders: [String: (name: TemplateName, escaped: Bool)] = [:]
        for part in parts {
            switch part {
            case .text(let text):
                if !isHTML, text.contains("<") {
                    throw failure("{{_}}…{{/_}} holding markup (\(text.trimmingSpaces)) is written {{_ html}}…{{/_}}")
                }
                forms[forms.count - 1] += isHTML ? String(text) : decodingEntities(text)
            case .variable(let name, let escaped):
                guard !name.isCurrent else { throw failure("{{.}} cannot be a placeholder: name the value") }
                forms[forms.count - 1] += "{\(name.written)}"
                placeholders[name.written] = (name, escaped)
            case .plural:
                guard count != nil else { throw failure("{{_ plural}} belongs in a {{_ count=name}}…{{/_}}") }
                guard forms.count == 1 else { throw failure("a marked text has one {{_ plural}}") }
                forms.append("")
            }
        }
        if count != nil, forms.count != 2 { throw failure("{{_ count=…}} needs its plural after {{_ plural}}") }
        let leading = String(forms[0].prefix { $0.isWhitespace })
        let trailing = String(forms[forms.count - 1].reversed().prefix { $0.isWhitespace }.reversed())
        let msgids = forms.map(collapsingSpaces)
        guard !msgids[0].isEmpty else { throw failure("{{_}}{{/_}} marks no text") }
        return TranslationMarker(text: ExtractedText(msgid: msgids[0], plural: msgids.count > 1 ? msgids[1] : nil, context: context),
                                 isHTML: isHTML, count: count, placeholders: placeholders,
                                 leading: leading.isEmpty ? "" : " ", trailing: trailing.isEmpty ? "" : " ")
    }

    /// The marked text's nodes in `translator`'s language.
    func nodes(in translator: Translator) -> [TemplateNode] {
        var nodes: [TemplateNode] = leading.isEmpty ? [] : [.text(Array(leading.utf8))]
        if let count, let plural = text.plural {
            let texts = translator.pluralTexts(text.msgid, plural: plural, context: text.context)
            nodes.append(.plural(count, forms: texts.forms.map(nodes(of:)), rule: texts.rule))
        } else {
            nodes += self.nodes(of: translator.text(text.msgid, context: text.context))
        }
        if !trailing.isEmpty { nodes.append(.text(Array(trailing.utf8))) }
        return nodes
    }

    private func nodes(of translation: String) -> [TemplateNode] {
        Placeholders.pieces(of: translation).map { piece in
            switch piece {
            case .placeholder(let name):
                if let placeholder = placeholders[name] { return .variable(placeholder.name, escaped: placeholder.escaped) }
                return .text(html("{\(name)}"))
            case .text(let text): return .text(html(text))
            }
        }
    }

    private func html(_ text: String) -> [UInt8] {
        if isHTML { return Array(text.utf8) }
        var bytes: [UInt8] = []
        TemplateRendering.appendEscaped(text, keepingApostrophes: true, to: &bytes)
        return bytes
    }

    private static let entities: [(String, String)] = [
        ("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&nbsp;", "\u{A0}"), ("&amp;", "&"),
    ]

    private static func decodingEntities(_ text: Substring) -> String {
        guard text.contains("&") else { return String(text) }
        return entities.reduce(String(text)) { $0.replacingOccurrences(of: $1.0, with: $1.1) }
    }

    private static func collapsingSpaces(_ text: String) -> String {
        text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }).joined(separator: " ")
    }
}
