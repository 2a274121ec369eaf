/// One language's translations, as a `.po` catalog gives them: each msgid (with its context) to its text, or to its
/// plural forms. Entries marked fuzzy, obsolete or left empty are not translations yet; an entry whose placeholders
/// differ from its msgid's is left out (and listed in `problems`), since showing it would lose or invent a value.
public struct Catalog: Sendable {
    /// The language tag the file is named by (`es`, `fa`, `pt-BR`).
    public let language: String
    public let pluralRule: PluralRule
    private let singles: [String: String]
    private let plurals: [String: [String]]
    /// What was left out and why, one line each (logged at start-up; a test requires none in the shipped catalogs).
    public let problems: [String]

    public init(language: String, pluralRule: PluralRule, entries: [CatalogEntry]) {
        self.language = language
        self.pluralRule = pluralRule
        var singles: [String: String] = [:]
        var plurals: [String: [String]] = [:]
        var problems: [String] = []
        for entry in entries where !entry.msgid.isEmpty && !entry.isFuzzy && !entry.isObsolete {
            let key = Self.key(entry.msgid, context: entry.context)
            if let msgidPlural = entry.msgidPlural {
                let forms = entry.msgstrPlural
                guard !forms.contains(where: \.isEmpty), !forms.isEmpty else { continue }
                guard forms.count == pluralRule.count else {
                    problems.append("\(entry.described): \(forms.count) plural forms where Plural-Forms says \(pluralRule.count)")
                    continue
                }
                let allowed = Placeholders.names(in: entry.msgid).union(Placeholders.names(in: msgidPlural))
                if let form = forms.first(where: { !Placeholders.names(in: $0).isSubset(of: allowed) }) {
                    problems.append("\(entry.described): \"\(form)\" uses a placeholder the msgid has not")
                    continue
                }
                plurals[key] = forms
            } else {
                guard !entry.msgstr.isEmpty else { continue }
                let expected = Placeholders.names(in: entry.msgid), found = Placeholders.names(in: entry.msgstr)
                guard expected == found else {
                    problems.append("\(entry.described): placeholders \(found.sorted()) where the msgid has \(expected.sorted())")
                    continue
                }
                singles[key] = entry.msgstr
            }
        }
        self.singles = singles
        self.plurals = plurals
        self.problems = problems
    }

    /// The translation of a msgid without plural, or nil when the catalog has none.
    public func translation(of msgid: String, context: String?) -> String? {
        singles[Self.key(msgid, context: context)]
    }

    /// The plural forms of a msgid, as many as `pluralRule.count`, or nil when the catalog has none.
    public func pluralForms(of msgid: String, context: String?) -> [String]? {
        plurals[Self.key(msgid, context: context)]
    }

    /// How many entries are translated.
    public var count: Int { singles.count + plurals.count }

    /// gettext's own key: the context and the msgid joined by EOT.
    private static func key(_ msgid: String, context: String?) -> String {
        context.map { $0 + "\u{4}" + msgid } ?? msgid
    }
}

/// One entry as a `.po` file holds it.
public struct CatalogEntry: Sendable {
    public var context: String?
    public var msgid: String
    public var msgidPlural: String?
    public var msgstr: String
    public var msgstrPlural: [String]
    public var isFuzzy: Bool
    public var isObsolete: Bool

    public init(context: String? = nil, msgid: String, msgidPlural: String? = nil, msgstr: String = "",
                msgstrPlural: [String] = [], isFuzzy: Bool = false, isObsolete: Bool = false) {
        self.context = context
        self.msgid = msgid
        self.msgidPlural = msgidPlural
        self.msgstr = msgstr
        self.msgstrPlural = msgstrPlural
        self.isFuzzy = isFuzzy
        self.isObsolete = isObsolete
    }

    var described: String { "msgid \"\(msgid)\"" + (context.map { " (context \"\($0)\")" } ?? "") }
}
