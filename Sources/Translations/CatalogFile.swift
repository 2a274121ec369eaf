import CGettextPO
import Foundation

/// Reads `.po` catalogs with libgettextpo, gettext's own parser (the one msgfmt and msgmerge use), so a catalog is
/// read exactly as the tools translators use write it: escapes, continued lines, `#, fuzzy`, `#~` obsolete entries.
/// It is opened for the reading at start-up and closed after (CGettextPO.h); the entries are kept in Swift.
public enum CatalogFile {
    /// Every `<language>.po` in `folder`, read as one batch with the library open once. A file that cannot be read is
    /// left out, with its problem in the second result.
    public static func readAll(in folder: URL) throws(CatalogError) -> (catalogs: [Catalog], problems: [String]) {
        let files = ((try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? [])
            .filter { $0.pathExtension == "po" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        guard !files.isEmpty else { return ([], []) }
        try start()
        defer { fieldbook_po_finish() }
        var catalogs: [Catalog] = []
        var problems: [String] = []
        for file in files {
            do {
                catalogs.append(try readOpen(file))
            } catch {
                problems.append(error.description)
            }
        }
        return (catalogs, problems)
    }

    /// One catalog; its language is the file's name without `.po`.
    public static func read(_ file: URL) throws(CatalogError) -> Catalog {
        try start()
        defer { fieldbook_po_finish() }
        return try readOpen(file)
    }

    private static func start() throws(CatalogError) {
        var failure = [CChar](repeating: 0, count: 512)
        guard fieldbook_po_start(&failure, failure.count) == 0 else {
            throw CatalogError(file: "", problem: String(decoding: failure.prefix { $0 != 0 }.map(UInt8.init(bitPattern:)), as: UTF8.self))
        }
    }

    /// A catalog's or a `.pot`'s entries as written, the header's included (whose msgid is empty).
    public static func entries(of file: URL) throws(CatalogError) -> [CatalogEntry] {
        try start()
        defer { fieldbook_po_finish() }
        return try readEntries(file).entries
    }

    private static func readOpen(_ file: URL) throws(CatalogError) -> Catalog {
        let (entries, pluralHeader) = try readEntries(file)
        let pluralRule: PluralRule
        do { pluralRule = try pluralHeader.map(PluralRule.init(header:)) ?? .english } catch {
            throw CatalogError(file: file.path, problem: error.description)
        }
        let language = file.deletingPathExtension().lastPathComponent
        return Catalog(language: language, pluralRule: pluralRule, entries: entries)
    }

    private static func readEntries(_ file: URL) throws(CatalogError) -> (entries: [CatalogEntry], pluralHeader: String?) {
        var failure = [CChar](repeating: 0, count: 1024)
        guard let opened = fieldbook_po_open(file.path, &failure, failure.count) else {
            throw CatalogError(file: file.path, problem: text(failure))
        }
        defer { fieldbook_po_close(opened) }
        var header = [CChar](repeating: 0, count: 1024)
        let pluralHeader = fieldbook_po_header_field(opened, "Plural-Forms", &header, header.count) == 0 ? text(header) : nil
        var entries: [CatalogEntry] = []
        var entry = FieldbookPOEntry()
        while fieldbook_po_next(opened, &entry) == 0 {
            let forms = withUnsafeBytes(of: entry.msgstr_plural) { raw in
                raw.bindMemory(to: UnsafePointer<CChar>?.self).prefix(Int(entry.plural_count)).map { String(cString: $0!) }
            }
            entries.append(CatalogEntry(
                context: entry.context.map { String(cString: $0) }, msgid: String(cString: entry.msgid),
                msgidPlural: entry.msgid_plural.map { String(cString: $0) }, msgstr: entry.msgstr.map { String(cString: $0) } ?? "",
                msgstrPlural: forms, isFuzzy: entry.fuzzy != 0, isObsolete: entry.obsolete != 0))
        }
        return (entries, pluralHeader)
    }

    private static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map(UInt8.init(bitPattern:)), as: UTF8.self)
    }
}

public struct CatalogError: Error, CustomStringConvertible {
    public let file: String
    public let problem: String
    public var description: String { file.isEmpty || problem.hasPrefix(file) ? problem : "\(file): \(problem)" }
}
