import Foundation
import Synchronization

/// The last view of each list a person opened (its query string: filters, sort, page), so the navigation, breadcrumbs
/// and Back links return to it (Requirement 13.3, Property 20), on any of their browsers. In memory: a restart
/// forgets where people were, which costs a click, and nothing is written for every list viewed.
final class ListViewMemory: Sendable {
    /// The sections whose list pages are remembered.
    static let sections: [Section] = [.activities, .participants, .venues, .visitLists, .map]
    private static let maxPeople = 2_000

    private let views = Mutex<[UUID: [Section: String]]>([:])

    /// Notes the query `request` opened a remembered section's list with (an empty one forgets it: the person cleared it).
    func remember(_ query: String, of section: Section, for user: UUID) {
        guard Self.sections.contains(section) else { return }
        views.withLock { views in
            if views[user] == nil, views.count >= Self.maxPeople { views.removeAll() }
            views[user, default: [:]][section] = query.isEmpty ? nil : query
        }
    }

    /// The section's address with the person's last query, or the plain one.
    func address(of section: Section, for user: UUID?) -> String {
        guard let user, let query = views.withLock({ $0[user]?[section] }) else { return section.path }
        return section.path + "?" + query
    }
}
