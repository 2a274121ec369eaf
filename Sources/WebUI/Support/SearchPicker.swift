import Domain
import Foundation
import Storage

/// A chooser for large lists (5,000 venues, 100,000 participants) that works without JavaScript: a search box and a
/// find button re-render the form, keeping every typed value, with matches as radio buttons or checkboxes.
struct SearchPicker {
    let field: String
    let legend: String
    let multiple: Bool
    /// The radio for choosing nothing (single choice only), e.g. "No home venue".
    let noneLabel: String?
    let searchField: String
    let searchLabel: String
    let findButton: String
    let buttonLabel: String

    /// The picker's view: chosen entries first (checked), then matches not already chosen.
    func view(search: String, chosen: [(id: UUID, label: String)], matches: [(id: UUID, label: String)], error: String?) -> [String: Any] {
        let chosenIds = Set(chosen.map(\.id))
        let options = chosen.map { option($0, checked: true) } + matches.filter { !chosenIds.contains($0.id) }.map { option($0, checked: false) }
        let searched = !search.trimmingCharacters(in: .whitespaces).isEmpty
        var view: [String: Any] = [
            "field": field, "legend": legend, "input_type": multiple ? "checkbox" : "radio", "options": options,
            "search": search, "search_field": searchField, "search_label": searchLabel, "find_button": findButton,
            "button_label": buttonLabel, "no_matches": searched && matches.isEmpty, "none_checked": chosen.isEmpty,
        ]
        if let noneLabel, !multiple { view["none_label"] = noneLabel }
        if let error { view["error"] = error }
        return view
    }

    private func option(_ entry: (id: UUID, label: String), checked: Bool) -> [String: Any] {
        ["id": "\(field)-\(entry.id.lowercasedString)", "value": entry.id.lowercasedString, "label": entry.label, "checked": checked]
    }
}

/// Venue entries for pickers.
enum VenueChoices {
    static func chosen(_ database: AppDatabase, _ ids: [UUID]) -> [(id: UUID, label: String)] {
        ids.compactMap { id in (try? database.venue(id: id)).map { (id, "\($0.name), \($0.address)") } }
    }

    static func matches(_ database: AppDatabase, _ text: String) throws -> [(id: UUID, label: String)] {
        guard !text.trimmingCharacters(in: .whitespaces).isEmpty else { return [] }
        return try database.venueMatches(text, limit: 20).map { ($0.venue.id, "\($0.venue.name), \($0.venue.address) (\($0.areaName))") }
    }
}
