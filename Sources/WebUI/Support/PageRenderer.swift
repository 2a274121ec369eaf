import Foundation
import Mustache

/// Mustache templates, loaded and checked once at start-up.
public struct PageRenderer: Sendable {
    /// Templates the pages use; start-up fails if any is missing or does not parse.
    static let requiredTemplates = [
        "layout", "_error_summary", "_field", "_csrf", "_role_radios", "_pagination", "error", "setup", "login", "home",
        "categories/list", "categories/detail", "categories/form", "categories/delete",
        "users/list", "users/detail", "users/new", "users/edit", "users/password", "account/password", "settings/privacy", "_select", "_area_tree",
        "areas/list", "areas/detail", "areas/form", "areas/delete", "venues/list", "venues/detail", "venues/form", "venues/delete",
        "_textarea", "_history", "_search_picker", "_default_submit", "participants/list", "participants/detail", "participants/form", "participants/delete",
        "activities/list", "activities/detail", "activities/form", "activities/delete", "assignments/new", "assignments/delete", "assignments/remove",
        "sync/status", "sync/conflicts", "sync/discard", "settings/sync", "settings/unlink",
        "analytics/engagement", "analytics/growth", "analytics/_filters", "analytics/_figure",
    ]

    private let library: MustacheLibrary

    public static func load(directory: String) async throws -> PageRenderer {
        let library = try await MustacheLibrary(directory: directory)
        let missing = requiredTemplates.filter { library.getTemplate(named: $0) == nil }
        guard missing.isEmpty else { throw TemplateError.missing(missing, directory: directory) }
        return PageRenderer(library: library)
    }

    func render(_ template: String, _ context: [String: Any]) -> String {
        library.render(context, withTemplate: template) ?? ""
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
