import Domain
import Foundation
import Storage
import Translations

/// A chooser for lists too long for a select (every venue, every participant) that works without JavaScript: a search
/// box and a find button re-render the form, keeping every typed value, with matches as radio buttons or checkboxes.
struct SearchPicker {
    let field: String
    let legend: Message
    let multiple: Bool
    /// The radio for choosing nothing (single choice only), e.g. "No home venue".
    let noneLabel: Message?
    let searchField: String
    let searchLabel: Message
    let findButton: String
    let buttonLabel: Message

    /// The picker's view: chosen entries first (checked), then matches not already chosen, and how many matched in all.
    func view(search: String, chosen: [(id: UUID, label: String)], matches: PickerMatches, error: Message?) -> TemplateView {
        var view = view(search: search, chosen: chosen, matches: matches.entries, error: error)
        if let summary = matches.summary { view["match_summary"] = summary }
        return view
    }

    /// `error`: a problem in English, looked up in the catalogs as it is.
    func view(search: String, chosen: [(id: UUID, label: String)], matches: PickerMatches, error: String?) -> TemplateView {
        view(search: search, chosen: chosen, matches: matches, error: error.map { Message(domainText: $0) })
    }

    private func view(search: String, chosen: [(id: UUID, label: String)], matches: [(id: UUID, label: String)], error: Message?) -> TemplateView {
        let chosenIds = Set(chosen.map(\.id))
        let options = chosen.map { option($0, checked: true) } + matches.filter { !chosenIds.contains($0.id) }.map { option($0, checked: false) }
        let searched = !search.trimmingCharacters(in: .whitespaces).isEmpty
        var view: TemplateView = [
            "field": field, "legend": legend, "input_type": multiple ? "checkbox" : "radio", "options": options,
            "search": search, "search_field": searchField, "search_label": searchLabel, "find_button": findButton,
            "button_label": buttonLabel, "no_matches": searched && matches.isEmpty, "none_checked": chosen.isEmpty,
        ]
        if let noneLabel, !multiple { view["none_label"] = noneLabel }
        if let error { view["error"] = error }
        return view
    }

    private func option(_ entry: (id: UUID, label: String), checked: Bool) -> TemplateView {
        ["id": "\(field)-\(entry.id.lowercasedString)", "value": entry.id.lowercasedString, "label": entry.label, "checked": checked]
    }
}

extension SearchPicker {
    /// A picker whose texts are not marked for translation yet: shown as they are in every language.
    init(field: String, legend: String, multiple: Bool, noneLabel: String?, searchField: String, searchLabel: String, findButton: String,
         buttonLabel: String) {
        self.init(field: field, legend: .verbatim(legend), multiple: multiple, noneLabel: noneLabel.map(Message.verbatim),
                  searchField: searchField, searchLabel: .verbatim(searchLabel), findButton: findButton, buttonLabel: .verbatim(buttonLabel))
    }
}

/// What a picker's search found: the entries shown and how many matched in all.
struct PickerMatches {
    static let none = PickerMatches(entries: [], total: 0)

    let entries: [(id: UUID, label: String)]
    let total: Int

    init(entries: [(id: UUID, label: String)], total: Int) {
        (self.entries, self.total) = (entries, total)
    }

    init<Item>(_ page: ListPage<Item>, label: (Item) -> (id: UUID, label: String)) {
        self.init(entries: page.items.map(label), total: page.total)
    }

    /// "3 matches." or, when only some are shown, how to find the rest; nil when nothing matched (the picker says so).
    var summary: Message? {
        guard total > 0 else { return nil }
        guard total > entries.count else { return Message("{count} match.", plural: "{count} matches.", count: total) }
        return Message("Showing the first {shown} of {count} match. Type more of the name to narrow the search.",
                       plural: "Showing the first {shown} of {count} matches. Type more of the name to narrow the search.", count: total,
                       ["shown": .number(entries.count)])
    }
}

/// Venue entries for pickers.
enum VenueChoices {
    static func chosen(_ database: AppDatabase, _ ids: [UUID]) -> [(id: UUID, label: String)] {
        ids.compactMap { id in (try? database.venue(id: id)).map { (id, "\($0.name), \($0.address)") } }
    }

    static func matches(_ database: AppDatabase, _ text: String) throws -> PickerMatches {
        guard !text.trimmingCharacters(in: .whitespaces).isEmpty else { return .none }
        return PickerMatches(try database.venueMatches(text, limit: 20)) { ($0.venue.id, "\($0.venue.name), \($0.venue.address) (\($0.areaName))") }
    }
}

/// Activity entries for pickers, labelled by name alone.
enum ActivityChoices {
    static func chosen(_ database: AppDatabase, _ ids: [UUID]) -> [(id: UUID, label: String)] {
        ids.compactMap { id in (try? database.activity(id: id)).map { (id, $0.name) } }
    }

    static func matches(_ database: AppDatabase, _ text: String) throws -> PickerMatches {
        guard !text.trimmingCharacters(in: .whitespaces).isEmpty else { return .none }
        return PickerMatches(try database.activityMatches(text, limit: 20)) { ($0.id, $0.name) }
    }
}
