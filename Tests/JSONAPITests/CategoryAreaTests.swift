import Domain
import Foundation
import HTTPServer
@testable import JSONAPI
import Storage
import Testing

@Suite struct CategoryAPITests {
    @Test func createReadChangeAndDeleteACustomRole() throws {
        let given = try APIHarness()
        let token = try given.token(.editor)
        let created = given.send(.post, "/api/v1/roles", ["name": "  Driver "], token: token)
        #expect(created.status == 201)
        #expect(created.string("name") == "Driver")
        #expect(created["is_predefined"] as? Bool == false)
        let id = created.string("id")
        #expect(id == id.lowercased())
        #expect(created.response.header("Location") == "/api/v1/roles/\(id)")
        #expect(given.send(.get, "/api/v1/roles/\(id)", token: token).string("name") == "Driver")

        let renamed = given.send(.patch, "/api/v1/roles/\(id)", ["name": "Chauffeur", "version": 1], token: token)
        #expect(renamed.status == 200)
        #expect(renamed["version"] as? Int == 2)
        let stale = given.send(.put, "/api/v1/roles/\(id)", ["name": "Rider", "version": 1], token: token)
        #expect(stale.status == 409)
        #expect(stale.errorCode == "stale_version")

        #expect(given.send(.delete, "/api/v1/roles/\(id)", token: token).status == 204)
        #expect(given.send(.get, "/api/v1/roles/\(id)", token: token).status == 404)
        #expect(given.send(.delete, "/api/v1/roles/\(id)", token: token).status == 404)
    }

    @Test func listsArePagedWithTotals() throws {
        let given = try APIHarness()
        let token = try given.token(.readOnly)
        let page = given.send(.get, "/api/v1/activity-types?page=2&per_page=3", token: token)
        #expect(page.status == 200)
        #expect(page.items.count == 3)
        #expect(page["page"] as? Int == 2)
        #expect(page["per_page"] as? Int == 3)
        #expect(page["total"] as? Int == CategoryKind.activityType.predefined.count)
        #expect(given.send(.get, "/api/v1/activity-types?per_page=0", token: token).errorCode == "invalid_parameter")
        #expect(given.send(.get, "/api/v1/activity-types?page=x", token: token).status == 400)
    }

    @Test func refusalsCarryTheirStatusAndFields() throws {
        let given = try APIHarness()
        let token = try given.token(.editor)
        let malformed = given.send(.post, "/api/v1/activity-types", token: token, raw: "name=Picnic")
        #expect(malformed.status == 400)
        #expect(malformed.errorCode == "malformed_json")
        #expect(malformed.errorMessage.contains("{\"name\": \"...\"}"))
        let blank = given.send(.post, "/api/v1/activity-types", ["name": "   "], token: token)
        #expect(blank.status == 422)
        #expect(blank.errorFields == ["name"])
        #expect(given.send(.post, "/api/v1/activity-types", ["name": 5], token: token).errorFields == ["name"])
        // What counts as blank is the document's pattern, which holds all that trimming removes (NEL included).
        #expect(given.send(.post, "/api/v1/activity-types", ["name": "\u{85}\u{FEFF}"], token: token).status == 422)
        #expect(given.send(.post, "/api/v1/activity-types", ["name": "\u{1F}"], token: token).status == 201)
        #expect(given.send(.post, "/api/v1/activity-types", [:], token: token).errorFields == ["name"])
        #expect(given.send(.post, "/api/v1/activity-types", ["name": String(repeating: "a", count: 51)], token: token).status == 422)
        let taken = given.send(.post, "/api/v1/activity-types", ["name": "workshop"], token: token)
        #expect(taken.status == 409)
        #expect(taken.errorFields == ["name"])
        let predefined = CategoryKind.activityType.predefined[0].id.uuidString.lowercased()
        #expect(given.send(.patch, "/api/v1/activity-types/\(predefined)", ["name": "Seminar"], token: token).status == 403)
        #expect(given.send(.get, "/api/v1/activity-types/not-an-id", token: token).status == 404)
    }

    @Test func aRoleInUseCannotBeDeleted() throws {
        let given = try APIHarness()
        let token = try given.token(.editor)
        let fixture = try APIFixture(given, token: token)
        let role = given.send(.post, "/api/v1/roles", ["name": "Driver"], token: token).string("id")
        #expect(given.send(.post, "/api/v1/activities/\(fixture.activity)/assignments",
                           ["participant_id": fixture.participant, "role_id": role], token: token).status == 201)
        let refused = given.send(.delete, "/api/v1/roles/\(role)", token: token)
        #expect(refused.status == 409)
        #expect(refused.errorCode == "still_referenced")
    }
}

@Suite struct AreaAPITests {
    @Test func hierarchyChildrenAncestorsVenuesAndStatistics() throws {
        let given = try APIHarness()
        let token = try given.token(.editor)
        let city = given.send(.post, "/api/v1/areas", ["name": "Nairobi", "area_type": "CITY"], token: token)
        #expect(city.status == 201)
        #expect(city["parent_id"] is NSNull)
        let cityId = city.string("id")
        let hood = given.send(.post, "/api/v1/areas", ["name": "Kibera", "area_type": "NEIGHBOURHOOD", "parent_id": cityId], token: token)
        let hoodId = hood.string("id")
        #expect(hood.string("parent_id") == cityId)
        #expect(given.send(.get, "/api/v1/areas/\(cityId)/children", token: token).items.map { $0["id"] as? String } == [hoodId])
        #expect(given.send(.get, "/api/v1/areas/\(hoodId)/ancestors", token: token).items.map { $0["id"] as? String } == [cityId])
        let venue = given.send(.post, "/api/v1/venues", ["name": "Hall", "address": "1 Road", "geographic_area_id": hoodId], token: token)
        #expect(venue.status == 201)
        #expect(given.send(.get, "/api/v1/areas/\(cityId)/venues", token: token)["total"] as? Int == 1)
        let statistics = given.send(.get, "/api/v1/areas/\(cityId)/statistics", token: token)
        #expect(statistics.json.keys.sorted() == ["active_activities", "ongoing_activities", "total_activities", "total_participants"])
        #expect(given.send(.get, "/api/v1/areas", token: token)["total"] as? Int == 2)

        let cycle = given.send(.patch, "/api/v1/areas/\(cityId)", ["parent_id": hoodId], token: token)
        #expect(cycle.status == 409)
        #expect(cycle.errorFields == ["parent_id"])
        #expect(given.send(.delete, "/api/v1/areas/\(cityId)", token: token).errorCode == "still_referenced")
        let moved = given.send(.patch, "/api/v1/areas/\(hoodId)", ["parent_id": NSNull()], token: token)
        #expect(moved["parent_id"] is NSNull)
        #expect(moved.string("name") == "Kibera")
        #expect(given.send(.delete, "/api/v1/areas/\(cityId)", token: token).status == 204)
    }

    @Test func textHoldingANULIsRefusedAsTheDocumentSaysAndAStoredNameSurvivesAPatch() throws {
        let given = try APIHarness()
        let token = try given.token(.editor)
        let refused = given.send(.post, "/api/v1/areas", ["name": "\u{0}x", "area_type": "CITY"], token: token)
        #expect(refused.status == 422)
        #expect(refused.errorFields == ["name"])
        #expect(given.send(.post, "/api/v1/participants", ["name": "Ada", "email": "ada@example.org", "notes": "a\u{0}b"], token: token).errorFields == ["notes"])

        let area = given.send(.post, "/api/v1/areas", ["name": "Kisumu", "area_type": "CITY"], token: token).string("id")
        let parent = given.send(.post, "/api/v1/areas", ["name": "Nyanza", "area_type": "PROVINCE"], token: token).string("id")
        let moved = given.send(.patch, "/api/v1/areas/\(area)", ["parent_id": parent], token: token)
        #expect(moved.status == 200)
        #expect(moved.string("name") == "Kisumu")

        let schemas = try #require((given.send(.get, "/api/v1/openapi.json").json["components"] as? [String: Any])?["schemas"] as? [String: Any])
        for (schema, field) in [("AreaWrite", "name"), ("ParticipantWrite", "notes"), ("ParticipantWrite", "email")] {
            let properties = (schemas[schema] as? [String: Any])?["properties"] as? [String: [String: Any]]
            let pattern = try #require(properties?[field]?["pattern"] as? String, "\(schema).\(field)")
            let regex = try NSRegularExpression(pattern: pattern)
            let matches = { (text: String) in regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil }
            #expect(matches("a@example.org") && !matches("a\u{0}@example.org"), "\(schema).\(field)")
        }
    }

    @Test func invalidAreaBodiesAre422AndUnknownParentsAre409() throws {
        let given = try APIHarness()
        let token = try given.token(.editor)
        let invalid = given.send(.post, "/api/v1/areas", ["name": "X", "area_type": "PLANET", "parent_id": "nope"], token: token)
        #expect(invalid.status == 422)
        #expect(Set(invalid.errorFields) == ["area_type", "parent_id"])
        let orphan = given.send(.post, "/api/v1/areas", ["name": "X", "area_type": "CITY", "parent_id": UUID().uuidString], token: token)
        #expect(orphan.status == 409)
        #expect(given.send(.get, "/api/v1/areas/\(UUID().uuidString)/statistics", token: token).status == 404)
    }
}

/// An area, a venue, a participant living there and an activity held there, made through the API.
struct APIFixture {
    let area: String
    let venue: String
    let participant: String
    let activity: String

    init(_ api: APIHarness, token: String) throws {
        area = api.send(.post, "/api/v1/areas", ["name": "Nairobi", "area_type": "CITY"], token: token).string("id")
        venue = api.send(.post, "/api/v1/venues", ["name": "Hall", "address": "1 Road", "geographic_area_id": area], token: token).string("id")
        participant = api.send(.post, "/api/v1/participants", ["name": "Ada", "email": "ada@example.org", "home_venue_id": venue],
                               token: token).string("id")
        activity = api.send(.post, "/api/v1/activities", [
            "name": "Study circle", "activity_type_id": CategoryKind.activityType.predefined[2].id.uuidString, "start_date": "2025-01-06",
            "status": "ACTIVE", "venue_ids": [venue],
        ], token: token).string("id")
        try #require(!activity.isEmpty && !participant.isEmpty)
    }
}
