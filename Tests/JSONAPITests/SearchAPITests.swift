import Domain
import Foundation
@testable import JSONAPI
import Storage
import Testing

/// `GET /api/v1/search`: the pages' search of every kind, for programs.
@Suite struct SearchAPITests {
    let given: APIHarness
    let system = Actor.system("test")

    init() throws {
        given = try APIHarness()
        let area = try given.database.createArea(AreaInput(name: "Riverside Ward", areaType: "NEIGHBOURHOOD", parentId: ""), by: system)
        for number in 1...7 {
            try given.database.createVenue(VenueInput(name: "Riverside Hall \(number)", address: "\(number) Quay Road", areaId: area.id.uuidString), by: system)
        }
        try given.database.createParticipant(ParticipantInput(name: "Ann Wanjiru", email: "ann@riverside.example"), by: system)
    }

    func group(_ answer: APIHarness.Answer, _ kind: String) -> (total: Int?, names: [String]) {
        let group = answer[kind] as? [String: Any]
        return (group?["total"] as? Int, (group?["items"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String })
    }

    @Test func eachKindAnswersItsFirstMatchesAndItsTotal() throws {
        let found = given.send(.get, "/api/v1/search?q=%20Riverside%20", token: try given.token(.editor))
        #expect(found.status == 200 && found.string("q") == "Riverside")
        #expect(group(found, "venues").total == 7 && group(found, "venues").names == (1...5).map { "Riverside Hall \($0)" })
        #expect(group(found, "participants").total == 1 && group(found, "participants").names == ["Ann Wanjiru"])
        #expect(group(found, "areas").names == ["Riverside Ward"] && group(found, "activities").total == 0)
    }

    @Test func aCallerWhoseRoleHidesEmailsIsNotAnsweredByThem() throws {
        let found = given.send(.get, "/api/v1/search?q=ann%40riverside", token: try given.token(.readOnly))
        #expect(found.status == 200 && group(found, "participants").total == 0)
        #expect(group(given.send(.get, "/api/v1/search?q=ann%40riverside", token: try given.token(.editor)), "participants").total == 1)
    }

    @Test func wordsThatCannotBeSearchedAre400WithWhatToType() throws {
        let token = try given.token(.editor)
        for (query, message) in [("", "Type a name"), ("?q=a", "at least two"), ("?q=" + String(repeating: "x", count: 201), "at most 200")] {
            let refused = given.send(.get, "/api/v1/search" + query, token: token)
            #expect(refused.status == 400 && refused.errorMessage.contains(message), "\(query)")
        }
        #expect(given.send(.get, "/api/v1/search?q=river").status == 401)
    }

    /// The document's minLength and maxLength for q are SearchTerms' limits: words of either length are searched.
    @Test func wordsAtTheDocumentsLimitsAreSearched() throws {
        let token = try given.token(.editor)
        for length in [SearchTerms.shortest, SearchTerms.longest] {
            let found = given.send(.get, "/api/v1/search?q=" + String(repeating: "x", count: length), token: token)
            #expect(found.status == 200, "\(length)")
        }
    }
}
