import Domain
import Foundation
import HTTPServer
import Records
import Storage
import Testing
@testable import WebUI

/// Field visit pages (issue 12), through the real handlers and templates.
@Suite struct VisitPageTests {
    struct Given {
        let web: WebHarness
        let editor: User
        let list: VisitList
        let stops: [StopLine]
    }

    /// An editor with a list of three participants at their homes (two with coordinates), made from a filter.
    func listOfThree() async throws -> Given {
        let web = try await WebHarness()
        let editor = try web.createUser("ed@example.org", .editor)
        let system = Actor.system("test")
        let area = try web.database.createArea(AreaInput(name: "Kibera", areaType: "NEIGHBOURHOOD", parentId: ""), by: system)
        let places = [("North house", "3 Hill Road", "-1.2900", "36.8000"), ("South house", "1 Low Road", "-1.3000", "36.8000"),
                      ("Unmapped house", "2 Mid Road", "", "")]
        for (index, place) in places.enumerated() {
            let venue = try web.database.createVenue(VenueInput(name: place.0, address: place.1, areaId: area.id.uuidString, latitude: place.2,
                                                                longitude: place.3, venueType: "PRIVATE_RESIDENCE"), by: system)
            try web.database.createParticipant(ParticipantInput(name: "Person \(index)", email: "p\(index)@example.org",
                                                                homeVenueId: venue.id.uuidString), by: system)
        }
        web.signIn("ed@example.org")
        let made = web.post("/visit-lists/new", [("name", "Saturday"), ("visit_date", CalendarDate.today().description), ("purpose", "Invite"),
                                                  ("script", "Hello"), ("assigned_user_id", editor.id.uuidString.lowercased()),
                                                  ("status", "PLANNED"), ("source", "participants"), ("area_id", area.id.uuidString.lowercased())])
        #expect(made.status == .seeOther)
        let list = try #require(try web.database.visitLists().items.first).list
        return Given(web: web, editor: editor, list: list, stops: try web.database.visitSheet(id: list.id, seen: .everything).stops)
    }

    /// The filter's activity is chosen by a search: the form lists no activity, every activity the select offered (by
    /// name, on the demo community) is found by its name under the same label, and Find keeps what was typed.
    @Test func theActivityChoiceIsASearchFindingEveryActivityTheSelectOffered() async throws {
        let web = try await WebHarness()
        _ = try web.createUser("ed@example.org", .editor)
        _ = try web.database.importDemoCommunity(size: DemoCommunity.Size(venues: 150, participants: 2_000, activities: 400), seed: 1)
        web.signIn("ed@example.org")
        var everyActivity = ActivityQuery.unfiltered
        everyActivity.page = PageRequest(page: 1, perPage: 500)
        let offered = try web.database.activityRows(everyActivity).items.map { ($0.id, $0.name) }
        #expect(offered.count == 400)
        for (id, name) in offered {
            let found = try ActivityChoices.matches(web.database, name).entries
            #expect(found.contains { $0.id == id && $0.label == name }, "\(name)")
        }
        let form = web.get("/visit-lists/new")
        #expect(form.status == .ok && !form.bodyText.contains(offered[0].0.uuidString.lowercased()))
        let (id, name) = offered[7]
        let fields = [("name", "Club visits"), ("visit_date", "2030-01-01"), ("status", "PLANNED"), ("source", "participants")]
        let found = web.post("/visit-lists/new", fields + [("activity_search", name), ("find_activities", "1")])
        #expect(found.status == .ok && found.bodyText.contains("value=\"Club visits\""))
        #expect(found.bodyText.contains("name=\"activity_id\" value=\"\(id.uuidString.lowercased())\""))
        let chosen = web.post("/visit-lists/new", fields + [("activity_id", id.uuidString.lowercased()), ("preview", "1")])
        #expect(chosen.bodyText.contains("name=\"activity_id\" value=\"\(id.uuidString.lowercased())\" checked"))
        #expect(try web.database.visitLists().items.isEmpty, "nothing saved")
    }

    /// A refused edit shows the form from the version it was made from, so a change saved meanwhile is not overwritten.
    @Test func aRefusedEditKeepsTheVersionItWasMadeFrom() async throws {
        let given = try await listOfThree()
        let list = given.list, editor = given.editor.id.uuidString.lowercased()
        try given.web.database.updateVisitList(id: list.id, VisitListInput(name: "Saturday morning", visitDate: list.visitDate.description,
                                                                           assigneeId: editor, status: "PLANNED"), expectedVersion: nil, by: .system("test"))
        let path = "/visit-lists/\(list.id.uuidString.lowercased())/edit"
        let refused = given.web.post(path, [("name", ""), ("visit_date", list.visitDate.description), ("assigned_user_id", editor),
                                            ("status", "PLANNED"), ("version", "\(list.version)")])
        #expect(refused.status == .unprocessableContent && refused.bodyText.contains("name=\"version\" value=\"\(list.version)\""))
        let stale = given.web.post(path, [("name", "Sunday"), ("visit_date", list.visitDate.description), ("assigned_user_id", editor),
                                          ("status", "PLANNED"), ("version", "\(list.version)")])
        #expect(stale.status == .conflict)
        #expect(try given.web.database.visitList(id: list.id).name == "Saturday morning")
    }

    @Test func aListMadeFromAFilterShowsItsStopsAndProgressOnEveryPage() async throws {
        let given = try await listOfThree()
        #expect(given.stops.count == 3)
        let detail = given.web.get("/visit-lists/\(given.list.id.uuidString.lowercased())").bodyText
        #expect(detail.contains("0 of 3 visited") && detail.contains("Person 2"))
        #expect(given.web.get("/my-visits").bodyText.contains("Saturday"))
        #expect(given.web.get("/visit-lists").bodyText.contains("Organizer ed@example.org") == false)
        let print = given.web.get("/visit-lists/\(given.list.id.uuidString.lowercased())/print")
        #expect(print.status == .ok && print.bodyText.contains("Result and note"))
    }

    @Test func previewingAFilterLetsTheEditorUntickStops() async throws {
        let given = try await listOfThree()
        let fields = [("name", "Picked"), ("visit_date", "2030-01-01"), ("assigned_user_id", given.editor.id.uuidString.lowercased()),
                      ("status", "PLANNED"), ("source", "participants")]
        let preview = given.web.post("/visit-lists/new", fields + [("preview", "1")])
        #expect(preview.bodyText.contains("3 matching stops"))
        let keep = given.stops[0].stop.target.token
        let made = given.web.post("/visit-lists/new", fields + [("picking", "1"), ("stop", keep)], formPath: "/visit-lists/new")
        #expect(made.status == .seeOther)
        let picked = try #require(try given.web.database.visitLists().items.first { $0.list.name == "Picked" })
        #expect(try given.web.database.visitSheet(id: picked.list.id, seen: .everything).stops.map(\.stop.target.token) == [keep])
    }

    /// A new list's form sent after the session ended comes back with its stops to pick from, the unticked ones still
    /// unticked, so making the list again does not bring them back.
    @Test func aRestoredNewListFormKeepsTheStopsTheEditorUnticked() async throws {
        let given = try await listOfThree()
        let fields = [("name", "Picked"), ("visit_date", "2030-01-01"), ("assigned_user_id", given.editor.id.uuidString.lowercased()),
                      ("status", "PLANNED"), ("source", "participants")]
        let token = try #require(given.web.csrfToken(from: given.web.get("/visit-lists/new")))
        try given.web.database.endSession(token: try #require(given.web.cookies["fieldbook_session"]))
        let (keep, unticked) = (given.stops[0].stop.target.token, given.stops[1].stop.target.token)
        let signIn = given.web.post("/visit-lists/new", fields + [("picking", "1"), ("stop", keep)], csrf: token).bodyText
        let resume = try #require(signIn.range(of: "name=\"resume\" value=\"").map { String(signIn[$0.upperBound...].prefix { $0 != "\"" }) })
        let login = given.web.post("/login", [("email", "ed@example.org"), ("password", WebHarness.password), ("resume", resume)],
                                   formPath: "/login")
        #expect(login.header("Location") == "/visit-lists/new")
        let restored = given.web.get("/visit-lists/new").bodyText
        #expect(restored.contains("<input type=\"hidden\" name=\"picking\" value=\"1\">"))
        #expect(restored.contains("3 matching stops"))
        #expect(restored.contains("value=\"\(keep)\" checked>"))
        #expect(restored.contains("value=\"\(unticked)\">"), "an unticked stop stays unticked")
        #expect(try given.web.database.visitLists().items.count == 1, "nothing saved")
    }

    @Test func walkingOrderFromAStartingVenueAndLoggingInOneTapGoesToTheNextStop() async throws {
        let given = try await listOfThree()
        let listPath = "/visit-lists/\(given.list.id.uuidString.lowercased())"
        let south = try #require(given.stops.first { $0.venueName == "South house" })
        let walk = given.web.get("\(listPath)/walk?sort=distance&from=\(south.stop.venueId.uuidString.lowercased())").bodyText
        let order = ["South house", "North house", "Unmapped house"].map { walk.range(of: "(\($0))")?.lowerBound }
        #expect(order.allSatisfy { $0 != nil } && order[0]! < order[1]! && order[1]! < order[2]!, "nearest first, unmapped last")
        #expect(walk.contains("1.1 km"))
        // The browser's location (sent by the page's script in a secure context) orders the stops the same way.
        let located = given.web.get("\(listPath)/walk?sort=distance&lat=-1.2895&lon=36.8001").bodyText
        #expect(located.contains("Distances from your location"))
        let fromHere = ["North house", "South house", "Unmapped house"].map { located.range(of: "(\($0))")?.lowerBound }
        #expect(fromHere.allSatisfy { $0 != nil } && fromHere[0]! < fromHere[1]! && fromHere[1]! < fromHere[2]!)
        #expect(located.contains("value=\"-1.2895\""), "the location is kept when the order form is sent again")

        let stopPath = "\(listPath)/stops/\(south.stop.id.uuidString.lowercased())"
        let page = given.web.get(stopPath + "?sort=distance&from=\(south.stop.venueId.uuidString.lowercased())")
        #expect(page.bodyText.contains("value=\"NOT_HOME\""))
        var form = Parameters([(name: "result", value: "NOT_HOME"), (name: "csrf_token", value: given.web.csrfToken(from: page) ?? "")])
        form.append("latitude", "")
        let logged = given.web.send(Request(method: .post, path: "\(stopPath)/logs",
                                            query: QueryString.decode("sort=distance&from=\(south.stop.venueId.uuidString.lowercased())"),
                                            cookies: given.web.cookies, form: form))
        #expect(logged.status == .seeOther)
        let north = try #require(given.stops.first { $0.venueName == "North house" })
        #expect(logged.header("Location")?.hasPrefix("\(listPath)/stops/\(north.stop.id.uuidString.lowercased())?") == true)
        let sheet = try given.web.database.visitSheet(id: given.list.id, seen: .everything)
        #expect(sheet.progress.visited == 1 && sheet.list.status == .inProgress)
        // The list's page breaks the progress down by latest result (it never showed: our Mustache library does not
        // read `{{#breakdown.0}}`).
        #expect(given.web.get(listPath).bodyText.contains("<caption class=\"table__caption\">Stops by their latest result</caption>"))

        let csv = given.web.get("\(listPath)/results.csv")
        #expect(csv.header("Content-Type") == "text/csv; charset=utf-8")
        #expect(csv.bodyText.split(separator: "\r\n").count == 4 && csv.bodyText.contains("NOT_HOME"))
    }

    @Test func readOnlyUsersViewButNeitherMakeNorLogAndOtherEditorsDoNotLog() async throws {
        let given = try await listOfThree()
        try given.web.createUser("reader@example.org", .readOnly)
        try given.web.createUser("other@example.org", .editor)
        let listPath = "/visit-lists/\(given.list.id.uuidString.lowercased())"
        let stopPath = "\(listPath)/stops/\(given.stops[0].stop.id.uuidString.lowercased())"
        given.web.signIn("reader@example.org")
        #expect(given.web.get(listPath).status == .ok)
        #expect(given.web.get(stopPath).bodyText.contains("Only the organizer"))
        #expect(given.web.get("/visit-lists/new").status == .forbidden)
        let csrf = given.web.csrfToken(from: given.web.get(listPath))
        #expect(given.web.post("\(stopPath)/logs", [("result", "MET")], csrf: csrf).status == .forbidden)
        given.web.signIn("other@example.org")
        #expect(given.web.post("\(stopPath)/logs", [("result", "MET")], formPath: listPath).status == .forbidden)
        #expect(try given.web.database.visitSheet(id: given.list.id, seen: .everything).progress.logs == 0)
    }

    /// "Show on map" for the list: the reader's map leaves out the stops at people's homes, as the list does (issue 36).
    @Test func theMapOfAListLeavesOutTheHomesHiddenFromTheReader() async throws {
        let given = try await listOfThree()
        let mapPath = "/map?visit_list_id=\(given.list.id.uuidString.lowercased())"
        let organizers = given.web.get(mapPath).bodyText
        #expect(organizers.contains("North house") && organizers.contains("South house"))
        try given.web.createUser("reader@example.org", .readOnly)
        given.web.signIn("reader@example.org")
        let page = given.web.get(mapPath)
        #expect(page.status == .ok)
        #expect(!page.bodyText.contains("North house") && !page.bodyText.contains("South house"))
    }

    /// A list's stops change on its page after it is made: a venue left out is found by the picker and added, and a stop
    /// nothing was logged at is removed while the list is planned (issue 41). Once its walk has started no stop is
    /// offered for removal: a stop with logs says so, the others say the walk has started, the page says why, and a
    /// removal sent all the same is refused with 409 saying why (issue 38).
    @Test func stopsAreAddedAndRemovedOnAPlannedListsPageAndStayOnceItsWalkStarted() async throws {
        let given = try await listOfThree()
        let web = given.web, list = given.list.id.uuidString.lowercased()
        let listPath = "/visit-lists/\(list)"
        let area = try #require(try web.database.areaTree().first).area
        let forgotten = try web.database.createVenue(VenueInput(name: "Forgotten house", address: "9 Far Road", areaId: area.id.uuidString,
                                                                latitude: "", longitude: "", venueType: "PRIVATE_RESIDENCE"), by: .system("test"))
        let north = try #require(given.stops.first { $0.venueName == "North house" })
        let south = try #require(given.stops.first { $0.venueName == "South house" })
        let unmapped = try #require(given.stops.first { $0.venueName == "Unmapped house" })
        let removal = { (stop: StopLine) in "\(listPath)/stops/\(stop.stop.id.uuidString.lowercased())/remove" }

        let found = web.post("\(listPath)/stops", [("venue_search", "Forgotten"), ("find_venues", "1")], formPath: listPath)
        #expect(found.status == .ok && found.bodyText.contains("name=\"venue_id\" value=\"\(forgotten.id.uuidString.lowercased())\""))
        let none = web.post("\(listPath)/stops", [("venue_search", "Forgotten")], formPath: listPath)
        #expect(none.status == .unprocessableContent && none.bodyText.contains("href=\"#venue_id\""))
        let added = web.post("\(listPath)/stops", [("venue_id", forgotten.id.uuidString.lowercased())], formPath: listPath)
        #expect(added.status == .seeOther)
        var stops = try web.database.visitSheet(id: given.list.id, seen: .everything).stops
        #expect(stops.contains { $0.venueId == forgotten.id && $0.participantId == nil })
        #expect(web.get(listPath).bodyText.contains("action=\"\(removal(south))\""), "a planned list offers removal")
        #expect(web.post(removal(south), [], formPath: listPath).status == .seeOther)

        _ = try web.database.logContact(ContactLogInput(result: "MET"), atStop: north.stop.id, onList: given.list.id, by: given.editor)
        let page = web.get(listPath).bodyText
        #expect(page.contains("Stays: visits were logged here") && page.contains("Stays: the walk has started")
                    && page.contains("Stops stay on this list now that its walk has started"))
        #expect(!page.contains("/remove\""), "no stop is offered for removal once the walk has started")
        let kept = web.post(removal(unmapped), [], formPath: listPath)
        #expect(kept.status == .conflict && kept.bodyText.contains("There is a problem")
                    && kept.bodyText.contains("walk has started (a visit was logged, or the organizer took the list onto their phone)"))
        stops = try web.database.visitSheet(id: given.list.id, seen: .everything).stops
        #expect(!stops.contains { $0.stop.id == south.stop.id } && stops.contains { $0.stop.id == north.stop.id }
                    && stops.contains { $0.stop.id == unmapped.stop.id })
    }

    /// A planned list taken onto the organizer's phone can no longer lose a stop: visits logged there away from the
    /// network are invisible to the server until sent, so the take starts the walk (issue 38), and the list is neither
    /// deleted (its stops would go with it) nor edited back to Planned. Someone who may not log on the list taking it
    /// changes nothing.
    @Test func takingAPlannedListOntoTheOrganizersPhoneStartsItsWalkSoItsStopsStay() async throws {
        let given = try await listOfThree()
        let web = given.web, listPath = "/visit-lists/\(given.list.id.uuidString.lowercased())"
        let stop = given.stops[0].stop
        _ = try web.createUser("other@example.org", .editor)
        web.signIn("other@example.org")
        #expect(web.get(listPath + "/offline.json").status == .ok)
        #expect(try web.database.visitList(id: given.list.id).status == .planned, "an editor who may not log on it starts nothing")

        web.signIn("ed@example.org")
        #expect(web.get(listPath + "/offline.json").status == .ok)
        #expect(try web.database.visitList(id: given.list.id).status == .inProgress)
        #expect(web.get(listPath).bodyText.contains("Stays: the walk has started"))
        let removal = web.post("\(listPath)/stops/\(stop.id.uuidString.lowercased())/remove", [], formPath: listPath)
        #expect(removal.status == .conflict)
        let deletion = web.get(listPath + "/delete").bodyText
        #expect(deletion.contains("This list cannot be deleted: its walk has started") && deletion.contains("Edit the list to mark it Done")
                    && !deletion.contains("action=\"\(listPath)/delete\""), "the list's stops would go with it")
        #expect(web.post(listPath + "/delete", [], formPath: listPath + "/delete").status == .conflict)
        let started = try web.database.visitList(id: given.list.id)
        let replanned = web.post(listPath + "/edit", [("name", started.name), ("visit_date", started.visitDate.description),
                                                      ("assigned_user_id", started.assigneeId.uuidString.lowercased()),
                                                      ("status", "PLANNED"), ("version", "\(started.version)")])
        #expect(replanned.status == .unprocessableContent && replanned.bodyText.contains("cannot go back to Planned"))
        #expect(try web.database.visitList(id: given.list.id).status == .inProgress)
        let sent = web.post("\(listPath)/stops/\(stop.id.uuidString.lowercased())/logs",
                            [("result", "MET"), ("logged_at", Date().addingTimeInterval(-600).ISO8601Format())],
                            formPath: "\(listPath)/stops/\(stop.id.uuidString.lowercased())")
        #expect(sent.status == .seeOther, "the visit kept on the phone lands at its stop")
        #expect(try web.database.visitSheet(id: given.list.id, seen: .everything).progress.logs == 1)
    }

    /// Ticked venues are added all or none: a venue gone since it was ticked adds none of them and is named in the
    /// error summary on the picker, with every venue still ticked (issue 41, review finding 9).
    @Test func tickedVenuesAreAddedAllOrNoneAndAVenueGoneIsAnErrorOnThePicker() async throws {
        let given = try await listOfThree()
        let web = given.web, listPath = "/visit-lists/\(given.list.id.uuidString.lowercased())"
        let area = try #require(try web.database.areaTree().first).area
        let forgotten = try web.database.createVenue(VenueInput(name: "Forgotten house", address: "9 Far Road", areaId: area.id.uuidString,
                                                                latitude: "", longitude: "", venueType: "PRIVATE_RESIDENCE"), by: .system("test"))
        let gone = UUID().uuidString.lowercased()
        let refused = web.post("\(listPath)/stops", [("venue_id", forgotten.id.uuidString.lowercased()), ("venue_id", gone)], formPath: listPath)
        #expect(refused.status == .conflict)
        #expect(refused.bodyText.contains("href=\"#venue_id\"") && refused.bodyText.contains(Venue.missing.english))
        #expect(refused.bodyText.contains("value=\"\(forgotten.id.uuidString.lowercased())\" checked"))
        let stops = try web.database.visitSheet(id: given.list.id, seen: .everything).stops
        #expect(stops.count == given.stops.count && !stops.contains { $0.venueId == forgotten.id })
    }

    /// Enter in the "Add stops" search box searches: the form's first submit button, which a browser presses for Enter
    /// in a text field, is Find, not "Add the ticked venues" (issue 41, review finding 10).
    @Test func enterInTheAddStopsSearchBoxSearches() async throws {
        let given = try await listOfThree()
        let listPath = "/visit-lists/\(given.list.id.uuidString.lowercased())"
        let page = given.web.get(listPath).bodyText
        let form = try #require(page.range(of: "action=\"\(listPath)/stops\"")).upperBound
        let firstSubmit = try #require(page.range(of: "type=\"submit\"", range: form..<page.endIndex))
        #expect(page[firstSubmit.upperBound...].hasPrefix(" name=\"\(VisitListPages.stopPicker.findButton)\""))
    }

    /// With homes hidden from read-only users (the default), a stop at someone's home names no one and nowhere on every
    /// view of the list the reader is offered: page, print view, results CSV and stop page (issue 36).
    @Test func aHiddenPersonsStopNamesNoOneAndNowhereOnEveryViewOfTheList() async throws {
        let given = try await listOfThree()
        let north = try #require(given.stops.first { $0.venueName == "North house" })
        _ = try given.web.database.logContact(ContactLogInput(result: "MET", latitude: "-1.29004", longitude: "36.80004"),
                                              atStop: north.stop.id, onList: given.list.id, by: given.editor)
        try given.web.createUser("reader@example.org", .readOnly)
        given.web.signIn("reader@example.org")
        let listPath = "/visit-lists/\(given.list.id.uuidString.lowercased())"
        let views = [listPath, "\(listPath)/print", "\(listPath)/results.csv",
                     "\(listPath)/stops/\(north.stop.id.uuidString.lowercased())"].map { given.web.get($0) }
        #expect(views.allSatisfy { $0.status == .ok })
        let hidden = ["Person 0", "Person 1", "Person 2", "North house", "3 Hill Road", "South house", "1 Low Road", "2 Mid Road",
                      "-1.29004", north.stop.venueId.uuidString.lowercased(), try #require(north.stop.participantId).uuidString.lowercased()]
        for (view, text) in zip(["page", "print", "csv", "stop"], views.map(\.bodyText)) {
            #expect(!hidden.contains { text.contains($0) }, "\(view) shows \(hidden.filter { text.contains($0) })")
            #expect(text.contains(StopLine.hiddenPerson), "\(view) says a participant is hidden")
        }
        given.web.signIn("ed@example.org")
        let csv = given.web.get("\(listPath)/results.csv").bodyText
        #expect(csv.contains("North house") && csv.contains("3 Hill Road") && csv.contains("-1.29004"), "the editor sees everything")
    }

    @Test func aBadLogKeepsTheNoteAndSaysWhatToDo() async throws {
        let given = try await listOfThree()
        let stopPath = "/visit-lists/\(given.list.id.uuidString.lowercased())/stops/\(given.stops[0].stop.id.uuidString.lowercased())"
        let refused = given.web.post("\(stopPath)/logs", [("result", "OTHER"), ("note", "  ")], formPath: stopPath)
        #expect(refused.status == .unprocessableContent)
        #expect(refused.bodyText.contains("Say in the note what happened"))
    }
    /// Opened with nothing chosen, the walk page lists the stops by address without an error box; asking for
    /// distances without a starting point is what says what is missing.
    @Test func theWalkPageOpensWithoutAnErrorBeforeAnythingIsChosen() async throws {
        let given = try await listOfThree()
        let walkPath = "/visit-lists/\(given.list.id.uuidString.lowercased())/walk"
        let opened = given.web.get(walkPath)
        #expect(opened.status == .ok && !opened.bodyText.contains("error-summary"))
        #expect(opened.bodyText.contains("<option value=\"address\" selected>"))
        let asked = given.web.get(walkPath + "?sort=distance").bodyText
        #expect(asked.contains("error-summary") && asked.contains("Choose a starting venue (or use your location)"))
    }

    /// The phone sends a visit again when it cannot know whether the first try arrived: the same id is one log.
    @Test func aVisitSentTwiceWithItsIdIsLoggedOnce() async throws {
        let given = try await listOfThree()
        let stopPath = "/visit-lists/\(given.list.id.uuidString.lowercased())/stops/\(given.stops[0].stop.id.uuidString.lowercased())"
        let page = given.web.get(stopPath).bodyText
        let formId = try #require(page.range(of: "name=\"log_id\" value=\"").map { String(page[$0.upperBound...].prefix { $0 != "\"" }) })
        #expect(UUID.strict(formId) != nil, "each form carries an id for its visit")
        let phoneId = UUID().uuidString.lowercased()
        let pending = try given.web.database.pendingOperationCount()
        for note in ["typed away", "sent again"] {
            let sent = given.web.post("\(stopPath)/logs", [("result", "MET"), ("note", note), ("log_id", phoneId)], formPath: stopPath)
            #expect(sent.status == .seeOther)
        }
        let logs = try given.web.database.visitSheet(id: given.list.id, seen: .everything).stops.flatMap(\.logs)
        #expect(logs.map(\.id) == [try #require(UUID(uuidString: phoneId))] && logs.map(\.note) == ["typed away"], "the first, untouched")
        #expect(try given.web.database.pendingOperationCount() == pending + 2, "one log for the hub (and the list started)")
        let damaged = given.web.post("\(stopPath)/logs", [("result", "MET"), ("log_id", "not-an-id")], formPath: stopPath)
        #expect(damaged.status == .unprocessableContent && damaged.bodyText.contains("reload the page and log the visit again"))
    }

    /// A phone sending a kept visit forgets it only on an answer that the log with its id is stored; a session that
    /// ended before the send (or a token from another session) is 401, never the sign-in page (which would read as a
    /// success) nor 403 (which the script reads as "not allowed"), and nothing is logged.
    @Test func aScriptedVisitIsAnsweredWithItsLogIdOr401WhenTheSessionEnded() async throws {
        let given = try await listOfThree()
        let stopPath = "/visit-lists/\(given.list.id.uuidString.lowercased())/stops/\(given.stops[0].stop.id.uuidString.lowercased())"
        let scripted = { (id: String, token: String) in
            given.web.send(Request(method: .post, path: "\(stopPath)/logs", headers: [ScriptedForm.header.lowercased(): "1"],
                                   cookies: given.web.cookies,
                                   form: Parameters([(name: "result", value: "MET"), (name: "log_id", value: id), (name: "csrf_token", value: token)])))
        }
        let token = try #require(given.web.csrfToken(from: given.web.get(stopPath)))
        let phoneId = UUID().uuidString.lowercased()
        for _ in 0..<2 {
            let logged = scripted(phoneId, token)
            #expect(logged.status == .created && logged.header(ScriptedForm.logIdHeader) == phoneId)
        }
        let otherToken = scripted(UUID().uuidString.lowercased(), String(token.reversed()))
        #expect(otherToken.status == .unauthorized, "a token from another session: sign in, not 403 (which is \"not allowed\")")
        try given.web.database.endSession(token: try #require(given.web.cookies["fieldbook_session"]))
        let ended = scripted(UUID().uuidString.lowercased(), token)
        #expect(ended.status == .unauthorized && ended.header(ScriptedForm.logIdHeader) == nil)
        #expect(!ended.bodyText.contains("name=\"resume\""), "nothing is kept on the server for a sign-in the script cannot show")
        let logs = try given.web.database.visitSheet(id: given.list.id, seen: .everything).stops.flatMap(\.logs)
        #expect(logs.map(\.id) == [try #require(UUID(uuidString: phoneId))])
    }

    /// A phone sends what it kept away from the network with the time it was logged there: the log has that time; a
    /// time the server's clock cannot believe is set aside and the visit is logged at receipt, which the answer says.
    @Test func aVisitKeptOnAPhoneIsLoggedAtTheTimeItWasKept() async throws {
        let given = try await listOfThree()
        let stopPath = "/visit-lists/\(given.list.id.uuidString.lowercased())/stops/\(given.stops[0].stop.id.uuidString.lowercased())"
        let keptAt = Date().addingTimeInterval(-4 * 3600)
        let sent = given.web.post("\(stopPath)/logs", [("result", "MET"), ("logged_at", keptAt.ISO8601Format())], formPath: stopPath)
        #expect(sent.status == .seeOther)
        let logs = try given.web.database.visitSheet(id: given.list.id, seen: .everything).stops.flatMap(\.logs)
        #expect(logs.map { $0.loggedAt.timeIntervalSince1970.rounded() } == [keptAt.timeIntervalSince1970.rounded(.down)])
        let token = try #require(given.web.csrfToken(from: given.web.get(stopPath)))
        let inAnHour = Date().addingTimeInterval(3600).ISO8601Format()
        let future = given.web.send(Request(method: .post, path: "\(stopPath)/logs", headers: [ScriptedForm.header.lowercased(): "1"],
                                            cookies: given.web.cookies,
                                            form: Parameters([(name: "result", value: "MET"), (name: "logged_at", value: inAnHour),
                                                              (name: "csrf_token", value: token)])))
        let receivedAt = try #require(future.header(ScriptedForm.loggedAtHeader).flatMap(InstantRule.parse))
        #expect(future.status == .created && abs(receivedAt.timeIntervalSinceNow) < 60, "logged when received")
        #expect(try given.web.database.visitSheet(id: given.list.id, seen: .everything).progress.logs == 2)
    }

    @Test func aVisitSentWithTheIdOfALogAtAnotherStopIsRefusedAsAClash() async throws {
        let given = try await listOfThree()
        let path = { (stop: Int) in "/visit-lists/\(given.list.id.uuidString.lowercased())/stops/\(given.stops[stop].stop.id.uuidString.lowercased())" }
        let phoneId = UUID().uuidString.lowercased()
        #expect(given.web.post("\(path(0))/logs", [("result", "MET"), ("log_id", phoneId)], formPath: path(0)).status == .seeOther)
        let elsewhere = given.web.post("\(path(1))/logs", [("result", "NOT_HOME"), ("note", "kept"), ("log_id", phoneId)], formPath: path(1))
        #expect(elsewhere.status == .conflict && elsewhere.bodyText.contains("belongs to a visit at another stop"))
        let logs = try given.web.database.visitSheet(id: given.list.id, seen: .everything).stops.flatMap(\.logs)
        #expect(logs.map(\.stopId) == [given.stops[0].stop.id] && logs.map(\.result) == [.met], "the stored log stays where it was")
    }
    /// What a phone keeps of a list (issue 38): its stops in the walk page's order, the pages to log them and the result
    /// choices. The worker script names this build's cache, so a new build is a new worker that replaces the old cache.
    @Test func aListTakenAlongHoldsItsStopsPagesAndResults() async throws {
        let given = try await listOfThree()
        let listPath = "/visit-lists/\(given.list.id.uuidString.lowercased())"
        let answer = given.web.get(listPath + "/offline.json")
        #expect(answer.status == .ok && answer.header("Content-Type") == "application/json")
        let kept = try #require(try JSONSerialization.jsonObject(with: Data(answer.bodyText.utf8)) as? [String: Any])
        let stops = try #require(kept["stops"] as? [[String: Any]])
        #expect(stops.compactMap { $0["name"] as? String } == ["Person 1", "Person 2", "Person 0"], "by address, as the walk page opens")
        let pages = try #require(kept["pages"] as? [String])
        #expect(pages.contains(listPath + "/walk") && stops.allSatisfy { pages.contains($0["path"] as? String ?? "") })
        #expect((kept["results"] as? [[String: Any]])?.count == ContactResult.allCases.count)
        let worker = given.web.get("/offline-worker.js")
        #expect(worker.status == .ok && worker.header("Content-Type") == "text/javascript; charset=utf-8")
        #expect(worker.bodyText.hasPrefix("const CACHE_NAME = \"\(kept["cache"] as? String ?? "?")\";"))
        #expect(worker.bodyText.contains("var FieldbookStore") && worker.bodyText.contains("addEventListener(\"fetch\""))
        given.web.cookies = [:]
        #expect(given.web.get(listPath + "/offline.json").status == .seeOther, "signed out: sent to sign in")
    }

    /// The tiles kept with a list: those the files hold over the stops' area, from the world down.
    @Test func theTilesKeptWithAListAreTheFilesTilesOverItsStops() throws {
        let imports = FileManager.default.temporaryDirectory.appendingPathComponent("fieldbook-tiles-\(UUID().uuidString)")
        let library = TileLibrary(bundledDirectory: WebHarness.repositoryRoot.appendingPathComponent("tiles").path, importDirectory: imports.path)
        let paths = OfflinePages.tilePaths(around: [Coordinate(latitude: -1.29, longitude: 36.80), Coordinate(latitude: -1.30, longitude: 36.81)],
                                           in: library)
        #expect(paths.count == 7 && paths.first == "/tiles/0/0/0.png" && paths.last == "/tiles/6/38/32.png", "\(paths)")
        #expect(OfflinePages.tilePaths(around: [], in: library).isEmpty)
    }
}
