import Foundation

/// One language's way of saying things: its catalog's texts (English where it has none), its plural rule, its writing
/// direction, and its formats. Templates are translated with one at start-up, Swift's `Message`s at rendering.
public struct Translator: Sendable {
    /// The BCP 47 tag `<html lang>` carries (`en`, `es`, `fa`, `en-XA`).
    public let language: String
    public let direction: TextDirection
    private let catalog: Catalog?
    private let pseudo: Bool
    public let formats: Formats

    /// English: msgids are English, so it needs no catalog.
    public static let english = Translator(language: "en", catalog: nil, pseudo: false)

    init(language: String, catalog: Catalog?, pseudo: Bool) {
        self.language = language
        self.catalog = catalog
        self.pseudo = pseudo
        direction = TextDirection(language: language)
        formats = Formats(language: pseudo ? "en" : language)
    }

    /// The pseudo-locale (PseudoLocale.swift).
    public static let pseudoLocale = Translator(language: PseudoLocale.tag, catalog: nil, pseudo: true)

    /// The text of a msgid without plural, placeholders unfilled.
    public func text(_ msgid: String, context: String? = nil) -> String {
        if pseudo { return PseudoLocale.wrap(msgid) }
        return catalog?.translation(of: msgid, context: context) ?? msgid
    }

    /// The plural forms of a msgid and the rule choosing among them: the catalog's, or English's when it has none.
    public func pluralTexts(_ msgid: String, plural: String, context: String? = nil) -> PluralTexts {
        if pseudo { return PluralTexts(forms: [PseudoLocale.wrap(msgid), PseudoLocale.wrap(plural)], rule: .english) }
        if let catalog, let forms = catalog.pluralForms(of: msgid, context: context) {
            return PluralTexts(forms: forms, rule: catalog.pluralRule)
        }
        return PluralTexts(forms: [msgid, plural], rule: .english)
    }

    /// A Swift-made message in this language, placeholders filled: numbers in the language's digits, messages given
    /// as values translated too; `{count}` is the count unless the arguments give it.
    public func text(_ message: Message) -> String {
        if message.isVerbatim { return message.msgid }
        let form: String
        if let count = message.count, let plural = message.plural {
            form = pluralTexts(message.msgid, plural: plural, context: message.context).form(for: count)
        } else {
            form = text(message.msgid, context: message.context)
        }
        // A Character, not a String: Foundation's `contains` of a String searches through CFString, slowly, and most
        // messages on a page hold no placeholder.
        guard form.contains("{" as Character) else { return form }
        var values = message.arguments.mapValues(text(_:))
        if let count = message.count, values["count"] == nil { values["count"] = formats.number(count) }
        return Placeholders.fill(form, with: values)
    }

    private func text(_ argument: MessageArgument) -> String {
        switch argument {
        case .text(let text): text
        case .number(let number): formats.number(number)
        case .digits(let number): formats.digits(number)
        case .message(let message): text(message)
        }
    }

    /// The language's name in itself ("español", "فارسی"), as the language setting offers it.
    public var name: String { LanguageOption(tag: language).name }

    /// How many entries this language's catalog translates (0 for English and the pseudo-locale).
    public var translatedCount: Int { catalog?.count ?? 0 }
}

/// A plural's forms in one language, and its rule.
public struct PluralTexts: Sendable {
    public let forms: [String]
    public let rule: PluralRule

    public func form(for number: Int) -> String { forms[min(rule.form(for: number), forms.count - 1)] }
}

public enum TextDirection: String, Sendable {
    case leftToRight = "ltr", rightToLeft = "rtl"

    /// Scripts written right to left, by the language subtag that normally uses them.
    private static let rightToLeftLanguages: Set<String> = ["ar", "fa", "he", "ur", "ps", "ckb", "dv", "sd", "ug", "yi"]

    init(language: String) {
        let primary = language.split(separator: "-").first.map { $0.lowercased() } ?? ""
        self = Self.rightToLeftLanguages.contains(primary) ? .rightToLeft : .leftToRight
    }
}
