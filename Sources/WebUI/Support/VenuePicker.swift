import Domain
import Foundation
import Storage

/// A venue chooser that works without JavaScript: a search box and a "Find venues" button re-render the form
/// (keeping every typed value) with matching venues as radio buttons or checkboxes; chosen venues stay listed.
struct VenuePicker {
    /// Name of the submit button that searches instead of saving.
    static let findButton = "find_venues"
    let field: String
    let legend: String
    let multiple: Bool

    /// The picker's view: chosen venues first (checked), then matches for `search`.
    func view(database: AppDatabase, search: String, chosen: [UUID], error: String?) throws -> [String: Any] {
        var options: [[String: Any]] = []
        var listed = Set<UUID>()
        for id in chosen where !listed.contains(id) {
            guard let venue = try? database.venue(id: id) else { continue }
            options.append(option(id: id, label: "\(venue.name), \(venue.address)", checked: true))
            listed.insert(id)
        }
        let text = search.trimmingCharacters(in: .whitespaces)
        let matches = text.isEmpty ? [] : try database.venueMatches(text, limit: 20).filter { !listed.contains($0.venue.id) }
        for item in matches {
            options.append(option(id: item.venue.id, label: "\(item.venue.name), \(item.venue.address) (\(item.areaName))", checked: false))
        }
        var view: [String: Any] = [
            "field": field, "legend": legend, "multiple": multiple, "input_type": multiple ? "checkbox" : "radio",
            "options": options, "search": search, "none_checked": chosen.isEmpty, "searched": !text.isEmpty,
            "no_matches": !text.isEmpty && matches.isEmpty, "find_button": Self.findButton,
            "first_id": options.first.flatMap { $0["id"] as? String } ?? "\(field)-none",
        ]
        if let error { view["error"] = error }
        return view
    }

    private func option(id: UUID, label: String, checked: Bool) -> [String: Any] {
        ["id": "\(field)-\(id.lowercasedString)", "value": id.lowercasedString, "label": label, "checked": checked]
    }
}
