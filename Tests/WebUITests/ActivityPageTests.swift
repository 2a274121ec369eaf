import Domain
import Foundation
import HTTPServer
import Storage
import Testing

@Suite struct ActivityPageTests {
    struct Setup {
        let given: WebHarness
        let type: Domain.Category
        let role: Domain.Category
        let hall: Venue
        let ann: Participant
    }

    func setUp() async throws -> Setup {
        let given = try await WebHarness()
        try given.createUser("ed@example.org", .editor)
        let area = try given.database.createArea(AreaInput(name: "Nairobi", areaType: "CITY", parentId: ""), by: .system("test"))
        let hall = try given.database.createVenue(VenueInput(name: "Kibera Hall", address: "1 Main Road", areaId: area.id.uuidString), by: .system("test"))
        let ann = try given.database.createParticipant(ParticipantInput(name: "Ann Wanjiru", email: "ann@example.org"), by: .system("test"))
        given.signIn("ed@example.org")
        return Setup(given: given, type: try given.database.categories(.activityType)[0],
                     role: try given.database.categories(.participantRole)[0], hall: hall, ann: ann)
    }

    func create(_ setup: Setup, _ fields: [(String, String)]) -> Response {
        setup.given.post("/activities/new", [("activity_type_id", setup.type.id.uuidString.lowercased()), ("status", "ACTIVE")] + fields)
    }

    @Test func finiteAndOngoingAreToldApartInText() async throws {
        let setup = try await setUp()
        create(setup, [("name", "Choir"), ("start_date", "2025-01-12"), ("duration", "ongoing")])
        create(setup, [("name", "Course"), ("start_date", "2025-03-12"), ("duration", "finite"), ("end_date", "2025-06-30")])
        let list = setup.given.get("/activities").bodyText
        #expect(list.contains("tag--ongoing\">Ongoing</strong> since 12 Jan 2025, ongoing"))
        #expect(list.contains("tag--finite\">Finite</strong> 12 Mar 2025 – 30 Jun 2025"))
        #expect(setup.given.get("/activities?status=COMPLETED").bodyText.contains("No activity matches these filters"))
    }

    @Test func anEndDateBeforeTheStartIsExplainedAndValuesKept() async throws {
        let setup = try await setUp()
        let answer = create(setup, [("name", "Course"), ("start_date", "2025-03-12"), ("duration", "finite"), ("end_date", "2025-03-01")])
        #expect(answer.status == .unprocessableContent)
        #expect(answer.bodyText.contains("The end date must be after the start date (12 Mar 2025)"))
        #expect(answer.bodyText.contains("value=\"Course\"") && answer.bodyText.contains("value=\"2025-03-01\""))
        #expect(answer.bodyText.contains("id=\"duration-finite\" name=\"duration\" value=\"finite\" checked"))
    }

    @Test func venuePickerAddsVenuesWithoutLosingTheForm() async throws {
        let setup = try await setUp()
        let found = create(setup, [("name", "Choir"), ("start_date", "2025-01-12"), ("duration", "ongoing"), ("venue_search", "kibera"),
                                   ("find_venues", "1")])
        #expect(found.status == .ok)
        #expect(found.bodyText.contains("value=\"\(setup.hall.id.uuidString.lowercased())\"") && found.bodyText.contains("value=\"Choir\""))
        let saved = create(setup, [("name", "Choir"), ("start_date", "2025-01-12"), ("duration", "ongoing"),
                                   ("venue_ids", setup.hall.id.uuidString.lowercased())])
        let path = try #require(saved.header("Location"))
        #expect(setup.given.get(path).bodyText.contains(">Kibera Hall</a></td><td>12 Jan 2025</td><td>now</td>"))
    }

    // Issue 16: the picker stopped at 20 matches without saying so.
    @Test func thePickerSaysHowManyMatchedAndAsksToNarrowWhenItShowsOnlySome() async throws {
        let setup = try await setUp()
        for index in 0..<24 {
            try setup.given.database.createParticipant(ParticipantInput(name: "Wanjiku \(index)", email: "w\(index)@example.org"), by: .system("test"))
        }
        let path = try #require(create(setup, [("name", "Choir"), ("start_date", "2025-01-12"), ("duration", "ongoing")]).header("Location"))
        func search(_ text: String) -> String {
            setup.given.post(path + "/assignments", [("participant_search", text), ("find_participants", "1")], formPath: path + "/assignments/new").bodyText
        }
        #expect(search("wanji").contains("Showing the first 20 of 25 matches. Type more of the name to narrow the search."))
        #expect(search("Wanjiku 13").contains(">1 match.<"))
        #expect(search("nobody").contains("Nothing matches"))
    }

    // Issue 16: a class of 12 took 12 rounds. Several people at once in one role, everyone from another activity in
    // their roles there, and several removed at once after a confirmation.
    @Test func assignSeveralCopyFromAnotherActivityAndRemoveSeveral() async throws {
        let setup = try await setUp()
        let given = setup.given
        let people = try (0..<4).map { try given.database.createParticipant(ParticipantInput(name: "Pupil \($0)", email: "p\($0)@example.org"), by: .system("test")) }
        let choir = try #require(create(setup, [("name", "Choir"), ("start_date", "2025-01-12"), ("duration", "ongoing")]).header("Location"))
        let role = setup.role.id.uuidString.lowercased()
        let ticked = people.prefix(3).map { ("participant_id", $0.id.uuidString.lowercased()) }
        // Ticks survive a second search.
        let searched = given.post(choir + "/assignments", ticked + [("participant_search", "Pupil 3"), ("find_participants", "1")],
                                  formPath: choir + "/assignments/new").bodyText
        #expect(people.prefix(3).allSatisfy { searched.contains("value=\"\($0.id.uuidString.lowercased())\" checked") })
        let assigned = given.post(choir + "/assignments", ticked + [("role_id", role)], formPath: choir + "/assignments/new")
        #expect(assigned.header("Location") == choir)
        #expect(given.get(choir).bodyText.contains("Assigned 3 as \(setup.role.name): Pupil 0, Pupil 1, Pupil 2."))
        #expect(try given.database.assignments(ofActivity: UUID(uuidString: String(choir.split(separator: "/").last!))!).count == 3)

        let band = try #require(create(setup, [("name", "Band"), ("start_date", "2025-02-01"), ("duration", "ongoing")]).header("Location"))
        given.post(band + "/assignments", [("participant_id", people[3].id.uuidString.lowercased()), ("participant_id", people[0].id.uuidString.lowercased()),
                                           ("role_id", role)], formPath: band + "/assignments/new")
        let sources = given.get(band + "/assignments/new?from_search=choir").bodyText
        #expect(sources.contains("Choir (since 12 Jan 2025, ongoing): 3 participants"))
        let choirId = String(choir.split(separator: "/").last!)
        #expect(given.post(band + "/assignments/copy", [("from_activity_id", choirId)], formPath: band + "/assignments/new").header("Location") == band)
        #expect(given.get(band).bodyText.contains("Assigned 2, each in their role there: Pupil 1, Pupil 2. Already assigned, left as they were: Pupil 0."))

        let bandId = try #require(UUID(uuidString: String(band.split(separator: "/").last!)))
        let chosen = try given.database.assignments(ofActivity: bandId).prefix(2).map { ("assignment_id", $0.id.uuidString.lowercased()) }
        let confirm = given.post(band + "/assignments/remove", Array(chosen), formPath: band)
        #expect(confirm.status == .ok && confirm.bodyText.contains("Remove 2 from “Band”?"))
        #expect(try given.database.assignments(ofActivity: bandId).count == 4, "nothing removed before confirming")
        #expect(given.post(band + "/assignments/remove", Array(chosen) + [("confirmed", "yes")], formPath: band).header("Location") == band)
        #expect(try given.database.assignments(ofActivity: bandId).count == 2)
    }

    @Test func assignMarkCompleteAndRemove() async throws {
        let setup = try await setUp()
        let path = try #require(create(setup, [("name", "Choir"), ("start_date", "2025-01-12"), ("duration", "ongoing")]).header("Location"))
        let search = setup.given.post(path + "/assignments", [("participant_search", "WANJIRU"), ("find_participants", "1")],
                                      formPath: path + "/assignments/new")
        #expect(search.bodyText.contains("Ann Wanjiru (ann@example.org)"))
        let fields = [("participant_id", setup.ann.id.uuidString.lowercased()), ("role_id", setup.role.id.uuidString.lowercased())]
        #expect(setup.given.post(path + "/assignments", fields, formPath: path + "/assignments/new").header("Location") == path)
        // The participant's page lists the activity with its role, status and dates (issue 16).
        #expect(setup.given.get("/participants/\(setup.ann.id.uuidString.lowercased())").bodyText
            .contains("Choir</a></td><td>\(setup.role.name)</td><td>Active</td><td>since 12 Jan 2025, ongoing</td>"))
        let again = setup.given.post(path + "/assignments", fields, formPath: path + "/assignments/new")
        #expect(again.status == .unprocessableContent)
        #expect(again.bodyText.contains("already assigned to this activity as \(setup.role.name)"))
        #expect(setup.given.post(path + "/completion", [], formPath: path).header("Location") == path)
        #expect(setup.given.get(path).bodyText.contains("<dd class=\"summary-list__value\">Completed</dd>"))
        let activityId = try #require(UUID(uuidString: String(path.dropFirst("/activities/".count))))
        let assignment = try #require(try setup.given.database.assignments(ofActivity: activityId).first)
        let remove = "\(path)/assignments/\(assignment.id.uuidString.lowercased())/delete"
        #expect(setup.given.get(remove).bodyText.contains("Remove Ann Wanjiru from “Choir”?"))
        #expect(setup.given.post(remove, []).header("Location") == path)
        #expect(setup.given.get(path).bodyText.contains("Nobody is assigned yet."))
    }
}
