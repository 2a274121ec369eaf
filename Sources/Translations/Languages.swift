import Foundation

/// The languages a server speaks: English, each catalog in the resources' `translations/` folder (read at start-up,
/// so a catalog dropped in is offered after a restart), and the pseudo-locale when enabled. Chooses a reader's
/// language: their account's setting, else their browser's `Accept-Language`, else English.
public struct Languages: Sendable {
    private let translators: [String: Translator]
    /// The languages offered in the account's setting, English first, the others by tag.
    public let offered: [LanguageOption]

    public init(catalogs: [Catalog], pseudoLocale: Bool = false) {
        var translators = ["en": Translator.english]
        for catalog in catalogs where catalog.language.lowercased() != "en" {
            translators[catalog.language.lowercased()] = Translator(language: catalog.language, catalog: catalog, pseudo: false)
        }
        if pseudoLocale { translators[PseudoLocale.tag.lowercased()] = .pseudoLocale }
        self.translators = translators
        offered = translators.values.map { LanguageOption(tag: $0.language) }
            .sorted { ($0.tag == "en" ? "" : $0.tag) < ($1.tag == "en" ? "" : $1.tag) }
    }

    /// English alone (tests, and a resources folder without catalogs).
    public static let englishOnly = Languages(catalogs: [])

    /// Reads `folder`'s catalogs; catalogs that cannot be read, and entries left out, are in `problems`.
    public static func load(folder: URL, pseudoLocale: Bool) throws(CatalogError) -> (languages: Languages, problems: [String]) {
        let (catalogs, problems) = try CatalogFile.readAll(in: folder)
        let entryProblems = catalogs.flatMap { catalog in catalog.problems.map { "\(catalog.language).po: \($0)" } }
        return (Languages(catalogs: catalogs, pseudoLocale: pseudoLocale), problems + entryProblems)
    }

    /// Every translator, English first (the templates are parsed once with each).
    public var all: [Translator] { offered.map { translators[$0.tag.lowercased()]! } }

    /// The translator of a tag this server speaks, or nil.
    public func translator(for tag: String) -> Translator? { translators[tag.lowercased()] }

    /// The reader's language: the account's choice when this server speaks it, else the browser's, else English.
    public func choose(account: String?, acceptLanguage: String?) -> Translator {
        if let account, let chosen = translator(for: account) { return chosen }
        return negotiate(acceptLanguage: acceptLanguage)
    }

    /// The language the browser prefers most among those spoken here: by q value (first on a tie), a tag matching
    /// exactly or by its language (`es-MX` is served `es`, `pt` is served `pt-BR` when that is all there is).
    public func negotiate(acceptLanguage: String?) -> Translator {
        guard let acceptLanguage else { return .english }
        var ranges: [(tag: String, quality: Double, order: Int)] = []
        for (order, part) in acceptLanguage.split(separator: ",").enumerated() {
            let pieces = part.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let tag = pieces.first?.lowercased(), !tag.isEmpty, tag != "*" else { continue }
            let quality = pieces.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            if quality > 0 { ranges.append((tag, quality, order)) }
        }
        ranges.sort { $0.quality != $1.quality ? $0.quality > $1.quality : $0.order < $1.order }
        for range in ranges {
            if let exact = translators[range.tag] { return exact }
            let primary = String(range.tag.split(separator: "-")[0])
            if let language = translators[primary] { return language }
            if let regional = offered.first(where: { $0.tag.lowercased().hasPrefix(primary + "-") }),
               regional.tag != PseudoLocale.tag {
                return translators[regional.tag.lowercased()]!
            }
        }
        return .english
    }
}

/// A language as the setting offers it: its tag and its name in itself ("español", "فارسی").
public struct LanguageOption: Sendable, Equatable {
    public let tag: String
    public let name: String

    init(tag: String) {
        self.tag = tag
        name = tag == PseudoLocale.tag ? "Pseudo-locale (en-XA)" : Self.ownName(of: tag)
    }

    /// Foundation's `localizedString(forIdentifier:)` crashed (signal 11) when several threads asked at once (test
    /// servers starting in parallel), so the names are asked one at a time and kept.
    private static let naming = NSLock()
    nonisolated(unsafe) private static var names: [String: String] = [:]

    private static func ownName(of tag: String) -> String {
        naming.lock()
        defer { naming.unlock() }
        if let name = names[tag] { return name }
        let name = Locale(identifier: tag).localizedString(forIdentifier: tag).map { $0.prefix(1).uppercased() + $0.dropFirst() } ?? tag
        names[tag] = name
        return name
    }
}
