import Foundation
import Translations

/// The texts a page's script shows, in the reader's language: JSON for the `data-texts` attribute of the element the
/// script works on, read with `fieldbookTexts` (app.js; docs/TRANSLATING.md, "Texts in scripts"). Placeholders stay
/// `{name}` for the script to fill. A plural Message (its count unused) gives `{forms, plural}`: every form, and which
/// form each number takes, so scripts need no plural rules of their own. Each plural carries its own table because an
/// untranslated one keeps English's forms and rule while a translated one takes the catalog's.
struct ScriptTexts {
    let texts: [String: Message]

    init(_ texts: [String: Message]) { self.texts = texts }

    func adding(_ more: ScriptTexts) -> ScriptTexts {
        ScriptTexts(texts.merging(more.texts) { first, _ in first })
    }

    func json(_ translator: Translator) -> String {
        var shown: [String: JSONText] = [:]
        for (name, message) in texts {
            if let plural = message.plural {
                let forms = translator.pluralTexts(message.msgid, plural: plural, context: message.context)
                shown[name] = .plural(forms: forms.forms, table: Self.formTable(forms.rule))
            } else {
                shown[name] = .text(translator.text(message))
            }
        }
        let data = (try? JSONEncoder.sortingKeys.encode(shown)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    /// The form of each number up to 199, one digit each. A larger number takes the form of 100 + its last two digits:
    /// gettext's rules look at n, n % 10 and n % 100 only.
    static func formTable(_ rule: PluralRule) -> String {
        (0..<200).map { String(rule.form(for: $0)) }.joined()
    }
}

private enum JSONText: Encodable {
    case text(String)
    case plural(forms: [String], table: String)

    private enum PluralKeys: String, CodingKey { case forms, plural }

    func encode(to encoder: Encoder) throws {
        switch self {
        case .text(let text):
            var container = encoder.singleValueContainer()
            try container.encode(text)
        case .plural(let forms, let table):
            var container = encoder.container(keyedBy: PluralKeys.self)
            try container.encode(forms, forKey: .forms)
            try container.encode(table, forKey: .plural)
        }
    }
}
