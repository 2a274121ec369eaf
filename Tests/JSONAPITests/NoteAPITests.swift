import Domain
import Foundation
import HTTPServer
@testable import JSONAPI
import Storage
import Testing

/// Notes, a kind declared only in Records, served by the generic resource from its one route line.
@Suite struct NoteAPITests {
    @Test func listReadCreateChangeRefuseStaleAndDelete() throws {
        let given = try APIHarness()
        let token = try given.token(.editor)
        let fixture = try APIFixture(given, token: token)
        let missing = given.send(.post, "/api/v1/notes", ["noted_on": "2025-13-40"], token: token)
        #expect(missing.status == 422)
        #expect(Set(missing.errorFields) == ["noted_on", "text"])
        let created = given.send(.post, "/api/v1/notes", ["noted_on": "2025-03-12", "text": "Asked about the study circle",
                                                          "participant_id": fixture.participant], token: token)
        #expect(created.status == 201)
        let id = created.string("id")
        #expect(created.response.header("Location") == "/api/v1/notes/\(id)")
        #expect(created.string("participant_id") == fixture.participant && created["venue_id"] is NSNull && created["version"] as? Int == 1)
        #expect(given.send(.get, "/api/v1/notes", token: token).items.map { $0["id"] as? String } == [id])
        #expect(given.send(.get, "/api/v1/notes/\(id)", token: token).string("text") == "Asked about the study circle")
        let patched = given.send(.patch, "/api/v1/notes/\(id)", ["text": "Will come on Sunday", "version": 1], token: token)
        #expect(patched.status == 200 && patched.string("noted_on") == "2025-03-12" && patched.string("participant_id") == fixture.participant)
        #expect(patched["version"] as? Int == 2)
        let stale = given.send(.put, "/api/v1/notes/\(id)", ["noted_on": "2025-03-13", "text": "Old", "version": 1], token: token)
        #expect(stale.status == 409)
        let unknown = given.send(.patch, "/api/v1/notes/\(id)", ["venue_id": UUID().uuidString.lowercased()], token: token)
        #expect(unknown.status == 422 || unknown.status == 409)
        #expect(given.send(.delete, "/api/v1/notes/\(id)", token: token).status == 204)
        #expect(given.send(.get, "/api/v1/notes/\(id)", token: token).status == 404)
        #expect(given.send(.post, "/api/v1/notes", ["noted_on": "2025-03-12", "text": "x"], token: try given.token(.readOnly)).status == 403)
    }

    @Test func aReadOnlyCallerGetsTheTextNullUntilThePrivacySettingShowsNotes() throws {
        let given = try APIHarness()
        let token = try given.token(.editor)
        let reader = try given.token(.readOnly)
        let id = given.send(.post, "/api/v1/notes", ["noted_on": "2025-03-12", "text": "Private words"], token: token).string("id")
        #expect(given.send(.get, "/api/v1/notes/\(id)", token: reader)["text"] is NSNull)
        #expect(given.send(.get, "/api/v1/notes", token: reader).items.first?["text"] is NSNull)
        #expect(given.send(.get, "/api/v1/notes/\(id)", token: token).string("text") == "Private words")
        var settings = PrivacySettings()
        settings.readOnlySeesNotes = true
        try given.database.savePrivacySettings(settings)
        #expect(given.send(.get, "/api/v1/notes/\(id)", token: reader).string("text") == "Private words")
    }

    @Test func theDocumentDescribesNotes() throws {
        let given = try APIHarness()
        let document = given.send(.get, "/api/v1/openapi.json").json
        let schemas = (document["components"] as? [String: Any])?["schemas"] as? [String: Any] ?? [:]
        let note = try #require(schemas["Note"] as? [String: Any])
        #expect(((note["properties"] as? [String: Any]) ?? [:]).keys.sorted()
                == ["activity_id", "created_at", "id", "noted_on", "participant_id", "text", "updated_at", "venue_id", "version"])
        #expect(schemas["NoteWrite"] != nil)
        let paths = document["paths"] as? [String: Any] ?? [:]
        #expect(paths["/api/v1/notes"] != nil && paths["/api/v1/notes/{id}"] != nil)
    }
}
