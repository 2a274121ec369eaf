import Translations

/// Fieldbook's templates are Mustache: variables (`{{name}}` escaped for HTML, `{{{name}}}` and `{{&name}}` not),
/// dotted names, `{{.}}`, sections, inverted sections, partials and comments, with the specification's standalone-line
/// rule (a line holding only a section, partial or comment tag, and spaces, leaves nothing in the output). Each
/// template is parsed once at start-up into this tree, so rendering walks nodes instead of re-reading text (issue 15:
/// rendering was more than half of a list page's time). Not `indirect`: a section's nodes are already in an array, and
/// boxing every node cost a retain and a release for each node rendered.
/// Texts marked for translation (`{{_}}…{{/_}}`, TranslationMarker.swift) are translated while parsing, so a marked
/// text is plain nodes in each language's tree; only a plural keeps its forms, chosen by a number at rendering.
enum TemplateNode: Sendable {
    case text([UInt8])
    case variable(TemplateName, escaped: Bool)
    case section(TemplateName, [TemplateNode], inverted: Bool)
    case partial(String, indentation: [UInt8])
    case plural(TemplateName, forms: [[TemplateNode]], rule: PluralRule)
}

/// A name as written in a tag: `.` (the current value), `name`, or `a.b.c` (looked up from `a`).
struct TemplateName: Sendable, Equatable {
    /// The first part, looked up from the innermost value outwards; nil for `.`.
    let first: String?
    /// The parts after the first, each looked up inside the one before (most names have none).
    let rest: [String]
    var isCurrent: Bool { first == nil }
    /// The name as written (`notifications.unread`), as a msgid's placeholder shows it.
    var written: String { ([first ?? "."] + rest).joined(separator: ".") }

    init(_ text: Substring) {
        let parts = text == "." ? [] : text.split(separator: ".").map(String.init)
        first = parts.first
        rest = Array(parts.dropFirst())
    }
}

struct TemplateSyntaxError: Error, CustomStringConvertible {
    let template: String
    let message: String
    var description: String { "template \(template): \(message)" }
}

enum TemplateParser {
    /// One tag or run of text, before sections are nested. Text never spans a line end: a line end ends its run.
    private enum Token {
        case text(Substring)
        case variable(Substring, escaped: Bool)
        case open(Substring, inverted: Bool)
        case close(Substring)
        case partial(Substring)
        case comment
        /// `{{_ …}}`, `{{_ plural}}` and `{{/_}}`: a text marked for translation (TranslationMarker.swift).
        case translationOpen(Substring)
        case translationPlural

        /// Tags that leave nothing when alone on their line.
        var canStandAlone: Bool {
            switch self {
            case .open, .close, .partial, .comment: true
            case .text, .variable, .translationOpen, .translationPlural: false
            }
        }

        var isBlank: Bool {
            if case .text(let text) = self { text.allSatisfy { $0 == " " || $0 == "\t" } } else { false }
        }
    }

    /// The template's tree in one language: its marked texts are `translator`'s.
    static func parse(_ source: String, name: String, translator: Translator = .english) throws -> [TemplateNode] {
        let tokens = try standalonesRemoved(tokenize(source, name: name))
        var index = 0
        let nodes = try nest(tokens, &index, closing: nil, name: name, translator: translator)
        return nodes
    }

    /// The texts a template marks for translation, for `fieldbook translations extract`.
    static func markedTexts(_ source: String, name: String) throws -> [ExtractedText] {
        var found: [ExtractedText] = []
        let tokens = try standalonesRemoved(tokenize(source, name: name))
        var index = 0
        while index < tokens.count {
            if case .translationOpen(let attributes) = tokens[index].0 {
                index += 1
                found.append(try TranslationMarker.read(attributes, tokens: tokenRun(tokens, &index, name: name), template: name).text)
            } else {
                index += 1
            }
        }
        return found
    }

    private static func tokenize(_ source: String, name: String) throws -> [Token] {
        var tokens: [Token] = []
        var rest = source[...]
        while !rest.isEmpty {
            guard let open = rest.range(of: "{{") else {
                appendText(rest, to: &tokens)
                break
            }
            appendText(rest[..<open.lowerBound], to: &tokens)
            let afterOpen = rest[open.upperBound...]
            let triple = afterOpen.hasPrefix("{")
            guard let close = afterOpen.range(of: triple ? "}}}" : "}}") else {
                throw TemplateSyntaxError(template: name, message: "a tag opened with {{ is never closed")
            }
            var inside = afterOpen[..<close.lowerBound]
            if triple { inside = inside.dropFirst() }
            rest = afterOpen[close.upperBound...]
            let sigil = inside.first
            let body = inside.dropFirst().trimmingSpaces
            if !triple, let marker = translationToken(inside.trimmingSpaces) {
                tokens.append(marker)
                continue
            }
            switch triple ? "{" : sigil {
            case "{", "&": tokens.append(.variable(triple ? inside.trimmingSpaces : body, escaped: false))
            case "#": tokens.append(.open(body, inverted: false))
            case "^": tokens.append(.open(body, inverted: true))
            case "/": tokens.append(.close(body))
            case ">": tokens.append(.partial(body))
            case "!": tokens.append(.comment)
            case "=", "<", "$", "%":
                throw TemplateSyntaxError(template: name, message: "{{\(inside)}} is Mustache that Fieldbook's templates do not use")
            default: tokens.append(.variable(inside.trimmingSpaces, escaped: true))
            }
        }
        return tokens
    }

    /// `{{_}}` or `{{_ attributes}}` opens a marked text, `{{_ plural}}` starts its plural form (`{{/_}}`, closing it,
    /// is read as any section's close).
    private static func translationToken(_ inside: Substring) -> Token? {
        guard inside == "_" || inside.hasPrefix("_ ") else { return nil }
        let attributes = inside.dropFirst().trimmingSpaces
        return attributes == "plural" ? .translationPlural : .translationOpen(attributes)
    }

    /// Text split after each line end, so that each line's tokens can be judged alone.
    private static func appendText(_ text: Substring, to tokens: inout [Token]) {
        var rest = text
        while let newline = rest.firstIndex(of: "\n") {
            tokens.append(.text(rest[...newline]))
            rest = rest[rest.index(after: newline)...]
        }
        if !rest.isEmpty { tokens.append(.text(rest)) }
    }

    /// Applies the standalone rule line by line; a standalone partial keeps its line's leading spaces as indentation.
    private static func standalonesRemoved(_ tokens: [Token]) -> [(Token, indentation: Substring)] {
        var result: [(Token, indentation: Substring)] = []
        var line: [Token] = []
        func endLine() {
            defer { line.removeAll() }
            var content = line
            let lineEnd: Token? = if case .text(let text) = content.last, text.hasSuffix("\n") { content.removeLast() } else { nil }
            let endIsBlank: Bool = if case .text(let text)? = lineEnd { text.dropLast().allSatisfy { $0 == " " || $0 == "\t" || $0 == "\r" } } else { true }
            let tags = content.filter { !$0.isBlank }
            if tags.count == 1, tags[0].canStandAlone, endIsBlank {
                var indentation: Substring = ""
                if case .text(let leading) = content.first, content.first!.isBlank { indentation = leading }
                result.append((tags[0], indentation))
                return
            }
            result += line.map { ($0, "") }
        }
        for token in tokens {
            line.append(token)
            if case .text(let text) = token, text.hasSuffix("\n") { endLine() }
        }
        endLine()
        return result
    }

    /// The tokens between a marked text's `{{_ …}}` (just read) and its `{{/_}}`.
    private static func tokenRun(_ tokens: [(Token, indentation: Substring)], _ index: inout Int,
                                 name: String) throws -> [TranslationMarker.Part] {
        var parts: [TranslationMarker.Part] = []
        while index < tokens.count {
            let token = tokens[index].0
            index += 1
            switch token {
            case .text(let text): parts.append(.text(text))
            case .variable(let variable, let escaped): parts.append(.variable(TemplateName(variable), escaped: escaped))
            case .translationPlural: parts.append(.plural)
            case .close("_"): return parts
            default:
                throw TemplateSyntaxError(template: name, message: "{{_}}…{{/_}} may hold only text and {{name}} tags (and one {{_ plural}})")
            }
        }
        throw TemplateSyntaxError(template: name, message: "{{_}} is never closed with {{/_}}")
    }

    private static func nest(_ tokens: [(Token, indentation: Substring)], _ index: inout Int, closing: Substring?,
                             name: String, translator: Translator) throws -> [TemplateNode] {
        var nodes: [TemplateNode] = []
        while index < tokens.count {
            let (token, indentation) = tokens[index]
            index += 1
            switch token {
            case .text(let text):
                if case .text(let previous)? = nodes.last {
                    nodes[nodes.count - 1] = .text(previous + Array(text.utf8))
                } else {
                    nodes.append(.text(Array(text.utf8)))
                }
            case .variable(let variable, let escaped): nodes.append(.variable(TemplateName(variable), escaped: escaped))
            case .open(let section, let inverted):
                let inner = try nest(tokens, &index, closing: section, name: name, translator: translator)
                nodes.append(.section(TemplateName(section), inner, inverted: inverted))
            case .close(let section):
                guard section == closing else {
                    throw TemplateSyntaxError(template: name, message: "{{/\(section)}} closes \(closing.map { "{{#\($0)}}" } ?? "no section")")
                }
                return nodes
            case .partial(let partial): nodes.append(.partial(String(partial), indentation: Array(indentation.utf8)))
            case .comment: break
            case .translationOpen(let attributes):
                let marker = try TranslationMarker.read(attributes, tokens: tokenRun(tokens, &index, name: name), template: name)
                for node in marker.nodes(in: translator) {
                    if case .text(let text) = node, case .text(let previous)? = nodes.last {
                        nodes[nodes.count - 1] = .text(previous + text)
                    } else {
                        nodes.append(node)
                    }
                }
            case .translationPlural:
                throw TemplateSyntaxError(template: name, message: "{{_ plural}} is outside a {{_ count=name}}…{{/_}}")
            }
        }
        if let closing { throw TemplateSyntaxError(template: name, message: "{{#\(closing)}} is never closed") }
        return nodes
    }
}

extension Substring {
    var trimmingSpaces: Substring {
        var text = self
        while text.first?.isWhitespace == true { text = text.dropFirst() }
        while text.last?.isWhitespace == true { text = text.dropLast() }
        return text
    }
}
