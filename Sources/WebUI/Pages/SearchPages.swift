import Domain
import Foundation
import HTTPServer
import Records
import Storage
import Surface
import Translations

/// The search of every kind (the header's box): participants, venues, activities and areas whose name (or email or
/// address, as each kind's list searches) holds the words, a heading per kind, each with its count and a link to that
/// kind's own list with the same words when it holds more than are shown.
enum SearchPages {
    /// The matches shown of each kind.
    static let perKind = 5

    static func show(_ context: inout PageContext) throws -> Response {
        let typed = context.request.query(.text) ?? ""
        switch SearchTerms.check(typed) {
        case .failure(let problem):
            // An empty box is a search not yet made, not an error.
            let view: TemplateView = ["problem": Message(domainText: problem.message), "query": typed]
            return context.page("search", title: Message("Search"), section: nil, view: view,
                                status: problem == .empty ? .ok : .badRequest, hasErrors: problem != .empty)
        case .success(let terms):
            let seen = try context.participantVisibility
            let found = try context.database.search(terms, seen: seen, page: PageRequest(perPage: perKind, mayEstimateTotal: true))
            let groups = [participants(found.participants, seen: seen, terms), venues(found.venues, terms),
                          activities(found.activities, terms, context.translator), areas(found.areas)]
            let view: TemplateView = ["query": terms.text, "groups": groups.compactMap { $0 }, "searched": true,
                                      "found_nothing": groups.allSatisfy { $0 == nil }]
            return context.page("search", title: Message("Search results for “{words}”", ["words": .text(terms.text)]), section: nil, view: view)
        }
    }

    /// One kind's heading, count, matches and link to its own list; nil when nothing of the kind matched.
    private static func group<Item>(_ page: ListPage<Item>, key: String, title: Message, count: Message, list: String?,
                                    item: (Item) -> TemplateView) -> TemplateView? {
        guard page.total > 0 else { return nil }
        var view: TemplateView = ["key": key, "title": title, "count_text": count, "items": page.items.map(item)]
        if page.total > page.items.count {
            if let list { view["more_path"] = list } else { view["narrow"] = true }
        }
        return view
    }

    private static func participants(_ page: ListPage<ParticipantListRow>, seen: ParticipantVisibility, _ terms: SearchTerms) -> TemplateView? {
        let count = page.totalIsEstimate ? Message("About {count} participants", ["count": .number(page.total)])
            : Message("{count} participant", plural: "{count} participants", count: page.total)
        return group(page, key: "participants", title: Message("Participants"), count: count,
                     list: Paths.participants.list.filtered(by: .text, terms.text)) { row in
            // What the list hides from this viewer stays hidden here.
            ["name": row.name, "path": Paths.participants.record(row.id), "detail": seen.contacts ? row.email : ""]
        }
    }

    private static func venues(_ page: ListPage<VenueListItem>, _ terms: SearchTerms) -> TemplateView? {
        let count = page.totalIsEstimate ? Message("About {count} venues", ["count": .number(page.total)])
            : Message("{count} venue", plural: "{count} venues", count: page.total)
        return group(page, key: "venues", title: Message("Venues"), count: count, list: Paths.venues.list.filtered(by: .text, terms.text)) { item in
            ["name": item.venue.name, "path": Paths.venues.record(item.venue.id), "detail": "\(item.venue.address), \(item.areaName)"]
        }
    }

    private static func activities(_ page: ListPage<ActivityListRow>, _ terms: SearchTerms, _ translator: Translator) -> TemplateView? {
        let count = page.totalIsEstimate ? Message("About {count} activities", ["count": .number(page.total)])
            : Message("{count} activity", plural: "{count} activities", count: page.total)
        return group(page, key: "activities", title: Message("Activities"), count: count,
                     list: Paths.activities.list.filtered(by: .text, terms.text)) { row in
            ["name": row.name, "path": Paths.activities.record(row.id),
             "detail": Message("{type}, {days}", context: "an activity found: its type and days",
                                ["type": .text(row.typeName), "days": .message(translator.activityDays(start: row.startDate, end: row.endDate))])]
        }
    }

    /// The area list is the whole tree, with no search of its own to link to: more words narrow the matches.
    private static func areas(_ page: ListPage<GeographicArea>) -> TemplateView? {
        group(page, key: "areas", title: Message("Areas"), count: Message("{count} area", plural: "{count} areas", count: page.total),
              list: nil) { area in
            ["name": area.name, "path": Paths.areas.record(area.id), "detail": area.areaType.message]
        }
    }
}
