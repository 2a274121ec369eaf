import Domain
import Foundation
import HTTPServer
import Storage
import Testing

/// Visit lists, stops and contact logs through the JSON API (issue 12).
@Suite struct VisitAPITests {
    @Test func anEditorMakesAListFromAFilterAndItsOrganizerLogsVisitsThatAreNeverChanged() throws {
        let given = try APIHarness()
        let system = Actor.system("test")
        let area = try given.database.createArea(AreaInput(name: "Kibera", areaType: "NEIGHBOURHOOD", parentId: ""), by: system)
        for index in 0..<3 {
            let venue = try given.database.createVenue(VenueInput(name: "Home \(index)", address: "\(index) Road", areaId: area.id.uuidString,
                                                                  venueType: "PRIVATE_RESIDENCE"), by: system)
            try given.database.createParticipant(ParticipantInput(name: "P\(index)", email: "p\(index)@example.org",
                                                                  homeVenueId: venue.id.uuidString), by: system)
        }
        let editor = try given.createUser("organizer@example.org", .editor)
        let editorToken = given.login("organizer@example.org").string("access_token")
        let readerToken = try given.token(.readOnly)

        let created = given.send(.post, "/api/v1/visit-lists", ["name": "Doors", "visit_date": "2030-05-01", "purpose": "", "script": "",
                                                                "assigned_user_id": editor.id.uuidString.lowercased(), "status": "PLANNED"],
                                 token: editorToken)
        #expect(created.status == 201)
        let list = created.string("id")
        let added = given.send(.post, "/api/v1/visit-lists/\(list)/stops/from-filter", ["source": "participants", "area_id": area.id.uuidString.lowercased()],
                               token: editorToken)
        #expect(added.status == 200 && added.json["added"] as? Int == 3 && added.json["stops_total"] as? Int == 3)
        let again = given.send(.post, "/api/v1/visit-lists/\(list)/stops/from-filter", ["source": "participants"], token: editorToken)
        #expect(again.json["added"] as? Int == 0, "a filter never adds a stop the list holds")

        let stops = given.send(.get, "/api/v1/visit-lists/\(list)/stops", token: readerToken)
        #expect(stops.status == 200 && stops.items.count == 3)
        let stop = try #require(stops.items.first?["id"] as? String)
        let spare = try #require(stops.items.dropFirst().first?["id"] as? String)
        #expect(given.send(.delete, "/api/v1/visit-lists/\(list)/stops/\(spare)", token: editorToken).status == 204, "a planned list loses a stop")
        let refused = given.send(.post, "/api/v1/visit-lists/\(list)/stops/\(stop)/logs", ["result": "MET"], token: readerToken)
        #expect(refused.status == 403)
        let logged = given.send(.post, "/api/v1/visit-lists/\(list)/stops/\(stop)/logs",
                                ["result": "FOLLOW_UP", "note": "Come back on Sunday",
                                 "coordinates": ["latitude": -1.3, "longitude": 36.8, "accuracy_m": 12]], token: editorToken)
        #expect(logged.status == 201)
        let log = logged.string("id")
        #expect(given.send(.get, "/api/v1/visit-lists/\(list)/stops/\(stop)/logs/\(log)", token: readerToken).string("note") == "Come back on Sunday")
        for method in [HTTPMethod.put, .patch, .delete] {
            #expect(given.send(method, "/api/v1/visit-lists/\(list)/stops/\(stop)/logs/\(log)", ["result": "MET"], token: editorToken).status >= 404,
                    "\(method): a log is never changed")
        }
        let other = given.send(.post, "/api/v1/visit-lists/\(list)/stops/\(stop)/logs", ["result": "OTHER", "note": " "], token: editorToken)
        #expect(other.status == 422 && other.errorFields == ["note"])
        let read = given.send(.get, "/api/v1/visit-lists/\(list)", token: readerToken)
        #expect(read.json["stops_visited"] as? Int == 1 && read.json["status"] as? String == "IN_PROGRESS")
        // Once the walk has started a stop stays, since the organizer's phone may hold visits for it not sent yet.
        let stays = given.send(.delete, "/api/v1/visit-lists/\(list)/stops/\(try #require(stops.items.last?["id"] as? String))", token: editorToken)
        #expect(stays.status == 409 && stays.errorMessage.contains("the list's walk has started"))

        // A client that cannot know whether its log arrived sends it again with the id it made: one log.
        let clientId = UUID().uuidString.lowercased()
        let path = "/api/v1/visit-lists/\(list)/stops/\(stop)/logs"
        let first = given.send(.post, path, ["id": clientId, "result": "MET", "note": "typed away"], token: editorToken)
        let resent = given.send(.post, path, ["id": clientId, "result": "MET", "note": "sent again"], token: editorToken)
        #expect(first.status == 201 && first.string("id") == clientId)
        #expect(resent.status == 201 && resent.string("id") == clientId && resent.string("note") == "typed away", "the stored log")
        #expect(given.send(.get, path, token: readerToken).items.count == 2)
        let otherStop = try #require(stops.items.last?["id"] as? String)
        let elsewhere = given.send(.post, "/api/v1/visit-lists/\(list)/stops/\(otherStop)/logs", ["id": clientId, "result": "MET"], token: editorToken)
        #expect(elsewhere.status == 409 && elsewhere.errorFields == ["id"])
        #expect(given.send(.post, path, ["id": "not-an-id", "result": "MET"], token: editorToken).errorFields == ["id"])

        // A visit kept on a device away from the network carries the time it was logged there.
        let keptAt = "2020-01-01T00:00:00Z"
        let hoursAgo = Date().addingTimeInterval(-5 * 3600)
        let kept = given.send(.post, path, ["result": "NOT_HOME", "logged_at": hoursAgo.ISO8601Format()], token: editorToken)
        #expect(kept.status == 201 && kept.string("logged_at") == hoursAgo.ISO8601Format())
        for unbelievable in [Date().addingTimeInterval(3600).ISO8601Format(), keptAt] {
            let received = given.send(.post, path, ["result": "MET", "logged_at": unbelievable], token: editorToken)
            let loggedAt = try #require(InstantRule.parse(received.string("logged_at")), "\(unbelievable)")
            #expect(received.status == 201 && abs(loggedAt.timeIntervalSinceNow) < 60, "set aside: logged when received")
        }
        #expect(given.send(.post, path, ["result": "MET", "logged_at": "yesterday"], token: editorToken).errorFields == ["logged_at"])
        #expect(given.send(.delete, "/api/v1/visit-lists/\(list)", token: editorToken).status == 409, "logs are kept")
    }

    /// A list taken onto a phone (its walk started, nothing logged yet) is not deleted: its stops would go with it and the
    /// phone's kept visits would find nothing. Nor does it go back to Planned, which would open stop removal again.
    @Test func aStartedListStaysAndIsNotPlannedAgain() throws {
        let given = try APIHarness()
        let editor = try given.createUser("organizer@example.org", .editor)
        let editorToken = given.login("organizer@example.org").string("access_token")
        let created = given.send(.post, "/api/v1/visit-lists", ["name": "Doors", "visit_date": "2030-05-01",
                                                                "assigned_user_id": editor.id.uuidString.lowercased(), "status": "PLANNED"],
                                 token: editorToken)
        let list = created.string("id")
        #expect(given.send(.patch, "/api/v1/visit-lists/\(list)", ["status": "IN_PROGRESS"], token: editorToken).status == 200)
        let kept = given.send(.delete, "/api/v1/visit-lists/\(list)", token: editorToken)
        #expect(kept.status == 409 && kept.errorMessage.contains("its walk has started"))
        let replanned = given.send(.patch, "/api/v1/visit-lists/\(list)", ["status": "PLANNED"], token: editorToken)
        #expect(replanned.status == 422 && replanned.errorFields == ["status"])
    }
}
