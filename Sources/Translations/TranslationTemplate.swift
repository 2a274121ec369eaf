/// A text to translate as a catalog knows it: its msgid, its plural and its context.
public struct ExtractedText: Hashable, Sendable {
    public let msgid: String
    public let plural: String?
    public let context: String?

    public init(msgid: String, plural: String? = nil, context: String? = nil) {
        self.msgid = msgid
        self.plural = plural
        self.context = context
    }
}

/// The `.pot` file `fieldbook translations extract` writes: every text found, once, with where it was found, in the
/// order first found. msgmerge brings each language's `.po` up to it.
public struct TranslationTemplate {
    private var texts: [ExtractedText] = []
    private var references: [ExtractedText: [String]] = [:]

    public init() {}

    /// A text found at `reference` (`templates/login.mustache`, `Sources/WebUI/Pages/HomePage.swift:12`).
    public mutating func add(_ text: ExtractedText, at reference: String) {
        if references[text] == nil { texts.append(text) }
        if references[text]?.contains(reference) != true { references[text, default: []].append(reference) }
    }

    public var count: Int { texts.count }

    public var contents: String {
        var output = """
            # Fieldbook's texts to translate. Made by `make translations`; do not edit: edit translations/<language>.po.
            # Placeholders in braces ({count}, {name}) are values: keep each one, in the order the language needs.
            msgid ""
            msgstr ""
            "Project-Id-Version: Fieldbook\\n"
            "MIME-Version: 1.0\\n"
            "Content-Type: text/plain; charset=UTF-8\\n"
            "Content-Transfer-Encoding: 8bit\\n"
            "Plural-Forms: nplurals=INTEGER; plural=EXPRESSION;\\n"


            """
        for text in texts {
            let places = references[text, default: []]
            output += "#: " + places.joined(separator: " ") + "\n"
            if let context = text.context { output += "msgctxt \(Self.quoted(context))\n" }
            output += "msgid \(Self.quoted(text.msgid))\n"
            if let plural = text.plural {
                output += "msgid_plural \(Self.quoted(plural))\nmsgstr[0] \"\"\nmsgstr[1] \"\"\n\n"
            } else {
                output += "msgstr \"\"\n\n"
            }
        }
        return output
    }

    /// A C string literal as .po files write them.
    static func quoted(_ text: String) -> String {
        var quoted = "\""
        for character in text.unicodeScalars {
            switch character {
            case "\\": quoted += "\\\\"
            case "\"": quoted += "\\\""
            case "\n": quoted += "\\n"
            case "\t": quoted += "\\t"
            default: quoted.unicodeScalars.append(character)
            }
        }
        return quoted + "\""
    }
}
