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

/// POST /api/v1/participants/{id}/merge: the page's merge for API clients.
@Suite struct ParticipantMergeAPITests {
    @Test func anotherRecordIsMergedInWithTheChosenDetails() throws {
        let given = try APIHarness()
        let kept = try given.database.createParticipant(ParticipantInput(name: "Émile Dubois", email: "emile@example.org"), by: .system("test"))
        let removed = try given.database.createParticipant(ParticipantInput(name: "Emile Dubois", email: "e@example.org", phone: "0712 345 678"),
                                                           by: .system("test"))
        let editor = try given.token(.editor)
        let path = "/api/v1/participants/\(kept.id.lowercaseText)/merge"
        let bad = given.send(.post, path, ["with": "nope", "from_removed": ["phone", "shoe_size"]], token: editor)
        #expect(bad.status == 422 && Set(bad.errorFields) == ["with", "from_removed"])
        #expect(given.send(.post, path, ["with": removed.id.lowercaseText], token: try given.token(.readOnly)).status == 403)
        // A record named in the body that is not there is a clash at `with`; the address's own record missing is 404.
        let missing = given.send(.post, path, ["with": UUID().uuidString.lowercased()], token: editor)
        #expect(missing.status == 409 && missing.errorFields == ["with"])
        #expect(given.send(.post, "/api/v1/participants/\(UUID().uuidString.lowercased())/merge", ["with": removed.id.lowercaseText],
                           token: editor).status == 404)
        let stale = given.send(.post, path, ["with": removed.id.lowercaseText, "kept_version": 5], token: editor)
        #expect(stale.status == 409)
        let merged = given.send(.post, path, ["with": removed.id.lowercaseText, "from_removed": ["phone"], "kept_version": 1, "removed_version": 1],
                                token: editor)
        #expect(merged.status == 200 && merged.string("phone") == "0712 345 678" && merged.string("email") == "emile@example.org")
        // Whichever record the address names, the one whose id comes first stays; the answer is it, and the other is gone.
        let survivor = ParticipantMergeInput.survivor(of: kept.id, removed.id)
        let gone = survivor == kept.id ? removed.id : kept.id
        #expect(merged.string("id") == survivor.lowercaseText)
        #expect(given.send(.get, "/api/v1/participants/\(gone.lowercaseText)", token: editor).status == 404)
    }
}
