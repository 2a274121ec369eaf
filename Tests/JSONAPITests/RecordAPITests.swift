import Domain
import Foundation
import HTTPServer
@testable import JSONAPI
import Storage
import Testing

@Suite struct VenueAPITests {
    @Test func coordinatesComeAsAPairAndPatchKeepsWhatIsNotSent() throws {
        let given = try APIHarness()
        let token = try given.token(.editor)
        let fixture = try APIFixture(given, token: token)
        let half = given.send(.post, "/api/v1/venues", ["name": "Hall", "address": "1 Road", "geographic_area_id": fixture.area,
                                                         "coordinates": ["latitude": 1.5]], token: token)
        #expect(half.status == 422)
        #expect(half.errorFields == ["coordinates.longitude"])
        let out = given.send(.post, "/api/v1/venues", ["name": "Hall", "address": "1 Road", "geographic_area_id": fixture.area,
                                                        "coordinates": ["latitude": 91, "longitude": 0]], token: token)
        #expect(out.errorFields == ["coordinates.latitude"])
        let patched = given.send(.patch, "/api/v1/venues/\(fixture.venue)",
                                 ["coordinates": ["latitude": -1.3, "longitude": 36.8], "venue_type": "PUBLIC_BUILDING"], token: token)
        #expect(patched.status == 200)
        #expect(patched.string("name") == "Hall")
        #expect((patched["coordinates"] as? [String: Any])?["latitude"] as? Double == -1.3)
        let replaced = given.send(.put, "/api/v1/venues/\(fixture.venue)", ["name": "Hall", "address": "2 Road",
                                                                            "geographic_area_id": fixture.area], token: token)
        #expect(replaced["coordinates"] is NSNull)
        #expect(replaced["venue_type"] is NSNull)
    }

    @Test func listFiltersAndOccupancy() throws {
        let given = try APIHarness()
        let token = try given.token(.editor)
        let fixture = try APIFixture(given, token: token)
        given.send(.post, "/api/v1/venues", ["name": "Café Rose", "address": "2 Road", "geographic_area_id": fixture.area,
                                             "venue_type": "PRIVATE_RESIDENCE"], token: token)
        #expect(given.send(.get, "/api/v1/venues?q=cafe", token: token).items.map { $0["name"] as? String } == ["Café Rose"])
        #expect(given.send(.get, "/api/v1/venues?venue_type=PRIVATE_RESIDENCE", token: token)["total"] as? Int == 1)
        #expect(given.send(.get, "/api/v1/venues?area_id=\(fixture.area)&sort=created", token: token)["total"] as? Int == 2)
        #expect(given.send(.get, "/api/v1/venues?sort=price", token: token).status == 400)
        #expect(given.send(.get, "/api/v1/venues/\(fixture.venue)/activities", token: token).items.map { $0["id"] as? String } == [fixture.activity])
        #expect(given.send(.get, "/api/v1/venues/\(fixture.venue)/participants", token: token).items.map { $0["id"] as? String } == [fixture.participant])
        #expect(given.send(.delete, "/api/v1/venues/\(fixture.venue)", token: token).errorCode == "still_referenced")
    }
}

@Suite struct ParticipantAPITests {
    @Test func createUpdateHistoryAndDelete() throws {
        let given = try APIHarness()
        let token = try given.token(.editor)
        let fixture = try APIFixture(given, token: token)
        let history = given.send(.get, "/api/v1/participants/\(fixture.participant)/address-history", token: token)
        #expect(history.items.map { $0["venue_id"] as? String } == [fixture.venue])
        #expect(history.items.first?["effective_to"] is NSNull)
        let moved = given.send(.patch, "/api/v1/participants/\(fixture.participant)",
                               ["home_venue_id": NSNull(), "phone": "+254 712 345 678", "moved_on": "2025-05-01"], token: token)
        #expect(moved.status == 200)
        #expect(moved["home_venue_id"] is NSNull)
        #expect(moved.string("email") == "ada@example.org")
        // The home was removed as of a day before the period (opened today) began: that period never applied.
        #expect(given.send(.get, "/api/v1/participants/\(fixture.participant)/address-history", token: token).items.isEmpty)
        #expect(given.send(.get, "/api/v1/participants?home=without&q=ADA", token: token)["total"] as? Int == 1)
        #expect(given.send(.delete, "/api/v1/participants/\(fixture.participant)", token: token).status == 204)
        #expect(given.send(.get, "/api/v1/participants/\(fixture.participant)/address-history", token: token).status == 404)
    }

    @Test func invalidFieldsAre422AndUnknownVenuesAre409() throws {
        let given = try APIHarness()
        let token = try given.token(.editor)
        let invalid = given.send(.post, "/api/v1/participants", ["name": "Ada", "email": "ada-at-example", "phone": "12"], token: token)
        #expect(invalid.status == 422)
        #expect(Set(invalid.errorFields) == ["email", "phone"])
        let badDomain = given.send(.post, "/api/v1/participants", ["name": "Ada", "email": "ada@example"], token: token)
        #expect(badDomain.errorFields == ["email"])
        let unknown = given.send(.post, "/api/v1/participants", ["name": "Ada", "email": "ada@example.org",
                                                                 "home_venue_id": UUID().uuidString], token: token)
        #expect(unknown.status == 409)
        #expect(unknown.errorFields == ["home_venue_id"])
    }
}

@Suite struct ActivityAPITests {
    @Test func createCompleteAndKeepVenues() throws {
        let given = try APIHarness()
        let token = try given.token(.editor)
        let fixture = try APIFixture(given, token: token)
        let activity = given.send(.get, "/api/v1/activities/\(fixture.activity)", token: token)
        #expect(activity["end_date"] is NSNull)
        #expect(activity["venue_ids"] as? [String] == [fixture.venue])
        let renamed = given.send(.patch, "/api/v1/activities/\(fixture.activity)", ["name": "Book club"], token: token)
        #expect(renamed["venue_ids"] as? [String] == [fixture.venue])
        let completed = given.send(.post, "/api/v1/activities/\(fixture.activity)/completion", token: token)
        #expect(completed.status == 200)
        #expect(completed.string("status") == "COMPLETED")
        #expect(completed["end_date"] is String)
        #expect(given.send(.get, "/api/v1/activities?status=COMPLETED", token: token)["total"] as? Int == 1)
        #expect(given.send(.get, "/api/v1/activities?status=DONE", token: token).status == 400)
    }

    @Test func endBeforeStartIs422AndUnknownTypesAre409() throws {
        let given = try APIHarness()
        let token = try given.token(.editor)
        let type = CategoryKind.activityType.predefined[0].id.uuidString
        let backwards = given.send(.post, "/api/v1/activities", ["name": "X", "activity_type_id": type, "start_date": "2025-02-01",
                                                                 "end_date": "2025-01-01", "status": "PLANNED"], token: token)
        #expect(backwards.status == 422)
        #expect(backwards.errorFields == ["end_date"])
        #expect(given.send(.post, "/api/v1/activities", ["name": "X", "activity_type_id": type, "start_date": "2025-02-30",
                                                         "status": "PLANNED"], token: token).errorFields == ["start_date"])
        let unknown = given.send(.post, "/api/v1/activities", ["name": "X", "activity_type_id": UUID().uuidString,
                                                               "start_date": "2025-02-01", "status": "PLANNED"], token: token)
        #expect(unknown.status == 409)
        #expect(unknown.errorFields == ["activity_type_id"])
        let future = given.send(.post, "/api/v1/activities", ["name": "Later", "activity_type_id": type, "start_date": "2999-01-01",
                                                              "status": "PLANNED"], token: token)
        #expect(given.send(.post, "/api/v1/activities/\(future.string("id"))/completion", token: token).status == 403)
    }

    @Test func assignmentsAreListedRefusedTwiceAndRemoved() throws {
        let given = try APIHarness()
        let token = try given.token(.editor)
        let fixture = try APIFixture(given, token: token)
        let role = CategoryKind.participantRole.predefined[1].id.uuidString.lowercased()
        let path = "/api/v1/activities/\(fixture.activity)/assignments"
        let created = given.send(.post, path, ["participant_id": fixture.participant, "role_id": role], token: token)
        #expect(created.status == 201)
        #expect(created.string("role_name") == "Organizer")
        #expect(created.response.header("Location") == "\(path)/\(created.string("id"))")
        #expect(given.send(.post, path, ["participant_id": fixture.participant, "role_id": role], token: token).status == 409)
        #expect(given.send(.post, path, ["participant_id": fixture.participant], token: token).errorFields == ["role_id"])
        #expect(given.send(.get, path, token: token).items.count == 1)
        let other = given.send(.post, "/api/v1/activities", ["name": "Other", "activity_type_id": CategoryKind.activityType.predefined[0].id.uuidString,
                                                             "start_date": "2025-01-01", "status": "ACTIVE"], token: token).string("id")
        #expect(given.send(.delete, "/api/v1/activities/\(other)/assignments/\(created.string("id"))", token: token).status == 404)
        #expect(given.send(.delete, "\(path)/\(created.string("id"))", token: token).status == 204)
        #expect(given.send(.get, "\(path)/\(created.string("id"))", token: token).status == 404)
        #expect(given.send(.get, "/api/v1/activities/\(UUID().uuidString)/assignments", token: token).status == 404)
    }
}

@Suite struct UserAPITests {
    @Test func administratorsCreateChangeAndResetUsers() throws {
        let given = try APIHarness()
        let token = try given.token(.administrator)
        let body: [String: Any] = ["name": "Eve", "email": "Eve@Example.org", "role": "editor", "password": "long enough password"]
        let created = given.send(.post, "/api/v1/users", body, token: token)
        #expect(created.status == 201)
        #expect(created.string("email") == "eve@example.org")
        #expect(created["password"] == nil && created["password_hash"] == nil)
        #expect(given.send(.post, "/api/v1/users", body, token: token).status == 409)
        var short = body
        short["password"] = "short"
        #expect(given.send(.post, "/api/v1/users", short, token: token).errorFields == ["password"])
        let id = created.string("id")
        let eve = given.login("eve@example.org", password: "long enough password").string("access_token")
        let demoted = given.send(.patch, "/api/v1/users/\(id)", ["role": "read-only", "version": 1], token: token)
        #expect(demoted.string("role") == "read-only")
        #expect(given.send(.post, "/api/v1/roles", ["name": "Driver"], token: eve).status == 403)
        #expect(given.send(.post, "/api/v1/users/\(id)/password", ["password": "a new long password"], token: token).status == 204)
        #expect(given.send(.get, "/api/v1/venues", token: eve).status == 401)
        #expect(given.send(.delete, "/api/v1/users/\(id)", token: token).status == 405)
    }

    @Test func theLastAdministratorCannotBeDemoted() throws {
        let given = try APIHarness()
        let token = try given.token(.administrator)
        let me = given.send(.get, "/api/v1/users", token: token).items[0]["id"] as? String ?? ""
        let refused = given.send(.patch, "/api/v1/users/\(me)", ["role": "editor"], token: token)
        #expect(refused.status == 403)
        #expect(refused.errorCode == "protected")
    }
}

/// Issue 16: the API hides from read-only callers what the privacy setting hides on the pages.
@Suite struct ParticipantPrivacyAPITests {
    @Test func readOnlyCallersGetNullContactsAndNoHomesUntilAllowed() throws {
        let given = try APIHarness()
        let reader = try given.token(.readOnly)
        let fixture = try APIFixture(given, token: try given.token(.editor))
        let seen = given.send(.get, "/api/v1/participants/\(fixture.participant)", token: reader)
        #expect(seen.status == 200 && seen["email"] is NSNull && seen["home_venue_id"] is NSNull)
        #expect(given.send(.get, "/api/v1/participants/\(fixture.participant)/address-history", token: reader).status == 403)
        #expect(given.send(.get, "/api/v1/participants?area_id=\(UUID().uuidString.lowercased())", token: reader).status == 403)
        var settings = PrivacySettings()
        (settings.readOnlySeesContacts, settings.readOnlySeesHomes) = (true, true)
        try given.database.savePrivacySettings(settings)
        let allowed = given.send(.get, "/api/v1/participants/\(fixture.participant)", token: reader)
        #expect(allowed.string("email") == "ada@example.org" && allowed.string("home_venue_id") == fixture.venue)
        #expect(given.send(.get, "/api/v1/participants/\(fixture.participant)/address-history", token: reader).status == 200)
    }
}

/// The privacy setting also covers visit stops at participants' homes, for read-only callers.
@Suite struct VisitStopPrivacyAPITests {
    @Test func aStopAtSomeonesHomeNamesNoOneToAReadOnlyCaller() throws {
        let given = try APIHarness()
        let editor = try given.createUser("ed@example.org", .editor)
        let reader = try given.token(.readOnly)
        let area = try given.database.createArea(AreaInput(name: "City", areaType: "CITY", parentId: ""), by: .system("test"))
        let hall = try given.database.createVenue(VenueInput(name: "Hall", address: "1 Road", areaId: area.id.uuidString), by: .system("test"))
        let ann = try given.database.createParticipant(ParticipantInput(name: "Ann Wanjiru", email: "ann@example.org", homeVenueId: hall.id.uuidString),
                                                       by: .system("test"))
        let list = try given.database.createVisitList(
            VisitListInput(name: "Round", visitDate: "2025-06-01", assigneeId: editor.id.uuidString, status: "PLANNED"),
            stops: .picked([StopTarget(venueId: hall.id, participantId: ann.id).token]), by: .system("test"))
        let hidden = given.send(.get, "/api/v1/visit-lists/\(list.id.uuidString.lowercased())/stops", token: reader)
        #expect(hidden.status == 200)
        #expect(hidden.items.first?["participant_id"] is NSNull && !(hidden.items.first?["name"] as? String ?? "").contains("Ann"))
        var settings = PrivacySettings()
        settings.readOnlySeesHomes = true
        try given.database.savePrivacySettings(settings)
        let shown = given.send(.get, "/api/v1/visit-lists/\(list.id.uuidString.lowercased())/stops", token: reader)
        #expect(shown.items.first?["participant_id"] as? String == ann.id.uuidString.lowercased())
    }
}
