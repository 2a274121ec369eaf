/// A user-facing text made in Swift (a page title, a flash, a validation message, a chart's sentence), carried as
/// its English msgid and its values until the page is rendered, and translated there in the reader's language.
/// `fieldbook translations extract` finds every `Message("…")` whose msgid, plural and context are string literals.
public struct Message: Sendable, Hashable {
    public let msgid: String
    public let plural: String?
    public let context: String?
    /// The number choosing a plural form; also the value of `{count}` unless the arguments give one.
    public let count: Int?
    public let arguments: [String: MessageArgument]
    /// Text shown as it is (a record's name, a person's own words), never looked up in a catalog.
    public let isVerbatim: Bool

    public init(_ msgid: String, context: String? = nil, _ arguments: [String: MessageArgument] = [:]) {
        self.init(msgid: msgid, plural: nil, context: context, count: nil, arguments: arguments, isVerbatim: false)
    }

    public init(_ msgid: String, plural: String, count: Int, context: String? = nil, _ arguments: [String: MessageArgument] = [:]) {
        self.init(msgid: msgid, plural: plural, context: context, count: count, arguments: arguments, isVerbatim: false)
    }

    /// An English text Domain words (a validation message), looked up in the catalogs as it is. Domain does not know
    /// languages; its texts are msgids like any other, and one the catalog does not hold shows in English.
    public init(domainText: String) {
        self.init(msgid: domainText, plural: nil, context: nil, count: nil, arguments: [:], isVerbatim: false)
    }

    public static func verbatim(_ text: String) -> Message {
        Message(msgid: text, plural: nil, context: nil, count: nil, arguments: [:], isVerbatim: true)
    }

    private init(msgid: String, plural: String?, context: String?, count: Int?, arguments: [String: MessageArgument],
                 isVerbatim: Bool) {
        self.msgid = msgid
        self.plural = plural
        self.context = context
        self.count = count
        self.arguments = arguments
        self.isVerbatim = isVerbatim
    }

    /// The English text, placeholders filled (logs, the JSON API, CSV, and tests that read English).
    public var english: String { Translator.english.text(self) }
}

/// A placeholder's value: text shown as it is, a number (written in the reader's digits), or a message of its own
/// (a field's label inside a validation message), translated with the message around it.
public enum MessageArgument: Sendable, Hashable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    case text(String)
    case number(Int)
    /// A number written in the reader's digits without grouping: a limit the JSON API has always stated as "4000".
    case digits(Int)
    indirect case message(Message)

    public init(stringLiteral value: String) { self = .text(value) }
    public init(integerLiteral value: Int) { self = .number(value) }
}
