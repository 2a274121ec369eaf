import Domain
import Foundation
import HTTPServer
@testable import JSONAPI
import Storage
import Testing

@Suite struct ParticipantDuplicateAPITests {
    /// The page form's duplicate check, for API clients (an import tool): editors only, emails being contacts.
    @Test func possibleDuplicatesAreListedByEmailThenName() throws {
        let given = try APIHarness()
        let emile = try given.database.createParticipant(ParticipantInput(name: "Émile Dubois", email: "emile@example.org"), by: .system("test"))
        let namesake = try given.database.createParticipant(ParticipantInput(name: "emile dubois", email: "ed@example.org"), by: .system("test"))
        let token = try given.token(.editor)
        let found = given.send(.get, "/api/v1/participants/possible-duplicates?name=EMILE%20DUBOIS&email=Emile@example.org", token: token)
        #expect(found.status == 200)
        #expect(found.items.map { $0["id"] as? String } == [emile.id.lowercaseText, namesake.id.lowercaseText])
        #expect(found.items.map { $0["reason"] as? String } == ["same_email", "same_name"])
        let excluded = given.send(.get, "/api/v1/participants/possible-duplicates?name=Emile%20Dubois&exclude_id=\(emile.id.lowercaseText)", token: token)
        #expect(excluded.items.map { $0["id"] as? String } == [namesake.id.lowercaseText])
        #expect(given.send(.get, "/api/v1/participants/possible-duplicates?name=x", token: try given.token(.readOnly)).status == 403)
        #expect(given.send(.get, "/api/v1/participants/possible-duplicates?exclude_id=nope", token: token).status == 400)
    }
}
