import Foundation

/// The templates (Mustache, see `TemplateParser`), read and parsed once at start-up.
public struct PageRenderer: Sendable {
    /// Templates the pages use; start-up fails if any is missing or does not parse.
    static let requiredTemplates = [
        "layout", "_error_summary", "_field", "_csrf", "_role_radios", "_pagination", "error", "setup", "login", "home",
        "categories/list", "categories/detail", "categories/form", "categories/delete",
        "users/list", "users/detail", "users/new", "users/edit", "users/password", "account/password", "settings/privacy", "_select", "_area_tree",
        "areas/list", "areas/detail", "areas/form", "areas/delete", "venues/list", "venues/detail", "venues/form", "venues/delete",
        "_textarea", "_history", "_search_picker", "_default_submit", "_downloads", "_archive_download", "export", "participants/list", "participants/detail", "participants/form", "participants/delete", "participants/duplicates", "participants/merge", "imports/list", "imports/show", "imports/compare",
        "activities/list", "activities/detail", "activities/form", "activities/delete", "assignments/new", "assignments/delete", "assignments/remove",
        "sync/status", "sync/conflicts", "sync/discard", "settings/sync", "settings/unlink", "settings/linked_nodes",
        "analytics/engagement", "analytics/growth", "analytics/_filters", "analytics/_figure", "analytics/_preparing",
        "_photos", "_gallery", "photos/new", "photos/show", "photos/edit", "photos/delete", "export_job", "secure_address",
    ]

    /// Each template by its path below the directory without `.mustache` (`participants/list`, `_field`).
    private let templates: [String: [TemplateNode]]

    public static func load(directory: String) async throws -> PageRenderer {
        let root = URL(fileURLWithPath: directory, isDirectory: true).standardizedFileURL
        var templates: [String: [TemplateNode]] = [:]
        let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        for file in files where file.pathExtension == "mustache" {
            let relative = file.standardizedFileURL.path.dropFirst(root.path.count).drop { $0 == "/" }
            let name = String(relative.dropLast(".mustache".count))
            templates[name] = try TemplateParser.parse(String(contentsOf: file, encoding: .utf8), name: name)
        }
        let missing = requiredTemplates.filter { templates[$0] == nil }
        guard missing.isEmpty else { throw TemplateError.missing(missing, directory: directory) }
        let partials = Set(templates.values.flatMap(\.partialNames))
        let unknown = partials.subtracting(templates.keys)
        guard unknown.isEmpty else { throw TemplateError.missing(unknown.sorted(), directory: directory) }
        return PageRenderer(templates: templates)
    }

    /// The page as UTF-8 bytes; empty for an unknown template (load checked the ones the pages use).
    func renderBytes(_ template: String, _ view: TemplateView) -> [UInt8] {
        guard let nodes = templates[template] else { return [] }
        var rendering = TemplateRendering(templates: templates, capacity: 16_384)
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
