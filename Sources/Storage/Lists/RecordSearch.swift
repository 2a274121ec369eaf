import Domain
import Foundation
import Records

/// What one search finds of each kind: the first matches of each (by name), with how many match in all.
public struct RecordSearchResults: Sendable {
    public let participants: ListPage<ParticipantListRow>
    public let venues: ListPage<VenueListItem>
    public let activities: ListPage<ActivityListRow>
    public let areas: ListPage<GeographicArea>
}

extension AppDatabase {
    /// The search of every kind: each kind's own list query with the same words, ordered by name, `page` of each, so a
    /// kind is found here exactly as its list finds it, and the list's privacy rule applies (`seen`).
    public func search(_ terms: SearchTerms, seen: ParticipantVisibility, page: PageRequest) throws -> RecordSearchResults {
        var participants = ParticipantQuery(text: terms.text, page: page)
        participants.searchOnlyWhatIsSeen(seen)
        let activities = ActivityQuery(text: terms.text, sort: .name, descending: false, page: page)
        // One snapshot, so that no kind is counted before a change and another after it.
        return try readingTogether {
            RecordSearchResults(participants: try participantRows(participants), venues: try venues(VenueQuery(text: terms.text, page: page)),
                                activities: try activityRows(activities), areas: try areaMatches(terms.text, page: page))
        }
    }

    /// The areas whose name holds `text` (accents and case folded), by name, from the kept tree: areas are few, and
    /// the tree is read for every list page anyway.
    public func areaMatches(_ text: String, page: PageRequest) throws -> ListPage<GeographicArea> {
        let folded = SearchText.fold(text.trimmingCharacters(in: .whitespaces))
        let matches = try areaTree().compactMap { entry -> (name: String, area: GeographicArea)? in
            let name = SearchText.fold(entry.area.name)
            return name.contains(folded) ? (name, entry.area) : nil
        }.sorted { ($0.name, $0.area.id.uuidString) < ($1.name, $1.area.id.uuidString) }.map(\.area)
        return ListPage(items: Array(matches.dropFirst(page.offset).prefix(page.perPage)), total: matches.count, request: page)
    }
}
