import Foundation
import Translations

/// The templates (Mustache, see `TemplateParser`), read and parsed once at start-up, once per language: a marked text
/// is already its translation in each language's tree, so a page costs the same to render in every language.
public struct PageRenderer: Sendable {
    /// Templates the pages use; start-up fails if any is missing or does not parse.
    static let requiredTemplates = [
        "layout", "_error_summary", "_field", "_csrf", "_role_radios", "_pagination", "error", "setup", "login", "home",
        "categories/list", "categories/detail", "categories/form", "categories/delete",
        "users/list", "users/detail", "users/new", "users/edit", "users/password", "account/password", "account/language", "settings/privacy", "_select", "_area_tree",
        "areas/list", "areas/detail", "areas/form", "areas/delete", "venues/list", "venues/detail", "venues/form", "venues/delete",
        "_textarea", "_history", "_search_picker", "_default_submit", "_downloads", "_archive_download", "export", "participants/list", "participants/detail", "participants/form", "participants/delete", "participants/duplicates", "participants/merge", "imports/list", "imports/show", "imports/compare",
        "activities/list", "activities/detail", "activities/form", "activities/delete", "assignments/new", "assignments/delete", "assignments/remove",
        "sync/status", "sync/conflicts", "sync/discard", "settings/sync", "settings/unlink", "settings/linked_nodes",
        "analytics/engagement", "analytics/growth", "analytics/_filters", "analytics/_figure", "analytics/_preparing",
        "_photos", "_gallery", "photos/new", "photos/show", "photos/edit", "photos/delete", "export_job", "secure_address",
    ]

    /// Each language's templates (by its tag in lower case), each by its path below the directory without
    /// `.mustache` (`participants/list`, `_field`).
    private let templates: [String: [String: [TemplateNode]]]
    /// The languages the templates were parsed in.
    public let languages: Languages

    public static func load(directory: String, languages: Languages = .englishOnly) async throws -> PageRenderer {
        let sources = try templateSources(directory: directory)
        var templates: [String: [String: [TemplateNode]]] = [:]
        for translator in languages.all {
            var parsed: [String: [TemplateNode]] = [:]
            for (name, source) in sources {
                parsed[name] = try TemplateParser.parse(source, name: name, translator: translator)
            }
            templates[translator.language.lowercased()] = parsed
        }
        let english = templates["en"] ?? [:]
        let missing = requiredTemplates.filter { english[$0] == nil }
        guard missing.isEmpty else { throw TemplateError.missing(missing, directory: directory) }
        let partials = Set(english.values.flatMap(\.partialNames))
        let unknown = partials.subtracting(english.keys)
        guard unknown.isEmpty else { throw TemplateError.missing(unknown.sorted(), directory: directory) }
        return PageRenderer(templates: templates, languages: languages)
    }

    /// Each template's marked texts, by the template's name (for `fieldbook translations extract`).
    public static func markedTexts(directory: String) throws -> [String: [ExtractedText]] {
        try templateSources(directory: directory).mapValues { source in try TemplateParser.markedTexts(source, name: "") }
            .filter { !$0.value.isEmpty }
    }

    /// Every template's text by its name.
    static func templateSources(directory: String) throws -> [String: String] {
        let root = URL(fileURLWithPath: directory, isDirectory: true).standardizedFileURL
        var sources: [String: String] = [:]
        let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        for file in files where file.pathExtension == "mustache" {
            let relative = file.standardizedFileURL.path.dropFirst(root.path.count).drop { $0 == "/" }
            sources[String(relative.dropLast(".mustache".count))] = try String(contentsOf: file, encoding: .utf8)
        }
        return sources
    }

    /// The page as UTF-8 bytes in `translator`'s language; empty for an unknown template (load checked the ones the
    /// pages use).
    func renderBytes(_ template: String, _ view: TemplateView, in translator: Translator = .english) -> [UInt8] {
        let language = templates[translator.language.lowercased()] ?? templates["en"] ?? [:]
        guard let nodes = language[template] else { return [] }
        var rendering = TemplateRendering(templates: language, translator: translator, capacity: 16_384)
        rendering.render(nodes, view)
        return rendering.output
    }
}

extension [TemplateNode] {
    /// The partials these nodes include, at any depth.
    var partialNames: [String] {
        flatMap { node -> [String] in
            switch node {
            case .partial(let name, _): [name]
            case .section(_, let inner, _): inner.partialNames
            case .plural(_, let forms, _): forms.flatMap(\.partialNames)
            case .text, .variable: []
            }
        }
    }
}

/// A template problem found at start-up.
public enum TemplateError: Error, CustomStringConvertible {
    case missing([String], directory: String)

    public var description: String {
        switch self {
        case .missing(let names, let directory): "missing templates in \(directory): \(names.joined(separator: ", "))"
        }
    }
}
