import Domain
import Foundation
import HTTPServer
import Storage
import Surface

/// The search of every kind, as the pages' search box finds them: the first matches of each kind by name, with how
/// many match in all. Names and ids only: a record's own address gives the rest, with its privacy rules.
enum SearchResource {
    /// The matches answered of each kind.
    static let perKind = 5

    static let doc = APIOperation(
        id: "search",
        summary: "Participants, venues, activities and areas whose name (participants: or email, as the privacy setting lets the "
            + "caller see it; venues: or address) contains the words, accents and case ignored: the first \(perKind) of each kind by name, "
            + "with how many match in all. 400 when q is missing, shorter than \(SearchTerms.shortest) or longer than \(SearchTerms.longest) characters",
        query: [.text(ListParameter.text.name, max: SearchTerms.longest, min: SearchTerms.shortest, required: true,
                      "The words to find; white space around them does not count towards the least length")],
        success: .json("SearchResults"))

    static let components: [String: [Field]] = [
        "SearchMatch": [.of("id", .uuid, required: true), .of("name", .text, required: true)],
        "SearchGroup": [
            .of("total", .integer, required: true, "How many of the kind match; its list with the same q lists them all"),
            .of("items", .list("SearchMatch"), required: true),
        ],
        "SearchResults": [.of("q", .text, required: true, "The words searched, trimmed")] + ["participants", "venues", "activities", "areas"].map {
            .of($0, .reference("SearchGroup"), required: true)
        },
    ]

    struct Match: Encodable, Sendable {
        let id: String
        let name: String
    }

    struct Group: Encodable, Sendable {
        let total: Int
        let items: [Match]

        init<Item>(_ page: ListPage<Item>, _ match: (Item) -> (id: UUID, name: String)) {
            total = page.total
            items = page.items.map { let found = match($0); return Match(id: found.id.text, name: found.name) }
        }
    }

    struct Results: Encodable, Sendable {
        let q: String
        let participants: Group
        let venues: Group
        let activities: Group
        let areas: Group
    }

    @Sendable static func search(_ context: APIContext) throws -> Response {
        let terms: SearchTerms
        switch SearchTerms.check(context.text(.text)) {
        case .success(let checked): terms = checked
        case .failure(let problem): throw HTTPError(.badRequest, problem.message)
        }
        let found = try context.database.search(terms, seen: try ParticipantResource.visibility(context), page: PageRequest(perPage: perKind))
        return APIResponse.ok(Results(q: terms.text, participants: Group(found.participants) { ($0.id, $0.name) },
                                      venues: Group(found.venues) { ($0.venue.id, $0.venue.name) },
                                      activities: Group(found.activities) { ($0.id, $0.name) },
                                      areas: Group(found.areas) { ($0.id, $0.name) }))
    }
}
