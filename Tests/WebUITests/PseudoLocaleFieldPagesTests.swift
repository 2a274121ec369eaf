import Domain
import Foundation
import HTTPServer
import Storage
import Testing
import Translations
@testable import WebUI

/// The field pages in the pseudo-locale: visit lists and walking them, the map, photos and notifications, with a list
/// that has stops and logged visits, a photo of a visit and of a participant, and notifications. Every text a person
/// reads on them is inside ⟦…⟧; what is left outside is the community's own words (names, addresses, captions, notes).
@Suite struct PseudoLocaleFieldPagesTests {
    let web: WebHarness
    let editor: User
    let list: VisitList
    let emptyList: VisitList
    let stops: [StopLine]
    let photo: Photo
    let participant: Participant

    /// The community's own words, shown as they are in every language (the predefined activity types are the
    /// organization's to rename).
    static let records: Set<String> = Set([
        "User ed@example.org", "User admin@example.org", "Kibera", "North house", "South house", "Hill Road", "Low Road", "Person", "Saturday", "Sunday", "Invite", "Hello", "Tuesday circle", "Knocked twice", "The flyer left at the door", "At the garden",
    ] + CategoryKind.activityType.predefined.map { $0.name.replacingOccurrences(of: "'", with: "&#39;") })

    /// Texts other parts of issue 39 mark: pagination's nouns (the pagination branch), an area's type in the area
    /// options (the records' area labels), and notifications' own texts, which are kept as they were made.
    static let markedElsewhere: Set<String> = ["venues", "visit lists", "notifications", "Neighbourhood", "The visit list “Saturday” for {day} was assigned to you",
                                               "The visit list “Sunday” for 2099-01-01 was assigned to you"]

    /// What a page shows outside ⟦…⟧ besides records and dates (the dates' style per language is Formats' part), in
    /// pieces between the separators that join values (" · ", ", ", parentheses), numbers left out.
    private static func leftOver(_ html: String) -> [String] {
        let months = "(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)"
        let undated = html.replacingOccurrences(of: "\\b\\d{1,2} \(months) \\d{4}\\b", with: "0", options: .regularExpression)
            .replacingOccurrences(of: CalendarDate.today().description, with: "{day}")
        return LanguagePageTests.unwrapped(undated).flatMap { $0.components(separatedBy: CharacterSet(charactersIn: "·,()")) }
            .map { $0.trimmingCharacters(in: CharacterSet.whitespaces.union(.decimalDigits)) }
            .filter { !$0.isEmpty && $0.rangeOfCharacter(from: .letters) != nil && !records.contains($0) && !markedElsewhere.contains($0) }
    }

    init() async throws {
        web = try await WebHarness(linked: false, languages: try WebHarness.shippedLanguages())
        try web.createUser("admin@example.org", .administrator)
        editor = try web.createUser("ed@example.org", .editor)
        let system = Actor.system("test")
        let area = try web.database.createArea(AreaInput(name: "Kibera", areaType: "NEIGHBOURHOOD", parentId: ""), by: system)
        var people: [Participant] = []
        for (index, place) in [("North house", "3 Hill Road", "-1.2900"), ("South house", "1 Low Road", "-1.3000")].enumerated() {
            let venue = try web.database.createVenue(VenueInput(name: place.0, address: place.1, areaId: area.id.uuidString, latitude: place.2,
                                                                longitude: "36.8000", venueType: "PRIVATE_RESIDENCE"), by: system)
            people.append(try web.database.createParticipant(ParticipantInput(name: "Person \(index)", email: "p\(index)@example.org",
                                                                              homeVenueId: venue.id.uuidString), by: system))
        }
        participant = people[0]
        let organizer = editor.id.lowercaseText
        list = try web.database.createVisitList(VisitListInput(name: "Saturday", visitDate: CalendarDate.today().description, purpose: "Invite",
                                                               script: "Hello", assigneeId: organizer),
                                                stops: .filter(StopFilterInput(source: "participants", areaId: area.id.uuidString)), by: system)
        emptyList = try web.database.createVisitList(VisitListInput(name: "Sunday", visitDate: "2099-01-01", assigneeId: organizer),
                                                     stops: .picked([]), by: system)
        stops = try web.database.visitSheet(id: list.id, seen: .everything).stops
        let log = try web.database.logContact(ContactLogInput(result: "FOLLOW_UP", note: "Knocked twice", latitude: "-1.29", longitude: "36.8",
                                                              accuracy: "12"), atStop: stops[0].stop.id, onList: list.id, by: editor)
        photo = try web.addPhoto(to: .participant(participant.id), caption: "At the garden")
        _ = try web.addPhoto(to: .contactLog(log.id), caption: "The flyer left at the door")
        let type = CategoryKind.activityType.predefined[0].id.uuidString
        let activity = try web.database.createActivity(ActivityInput(name: "Tuesday circle", typeId: type, startDate: "2026-01-05", duration: "ongoing",
                                                                     status: "ACTIVE", venueIds: [stops[0].venueId?.uuidString ?? ""]), by: system)
        let admin = try #require(try web.database.users().first { $0.role == .administrator })
        try web.database.assign(participant: participant.id.uuidString, role: CategoryKind.participantRole.predefined[0].id.uuidString,
                                toActivity: activity.id, by: .user(admin.id))
        _ = try web.database.deliverNotifications()
        web.signIn("ed@example.org")
    }

    private func get(_ path: String) -> String {
        let parts = path.split(separator: "?", maxSplits: 1)
        let query = parts.count > 1 ? QueryString.decode(String(parts[1])) : Parameters()
        return web.send(Request(method: .get, path: String(parts[0]), query: query, headers: ["accept-language": PseudoLocale.tag],
                                cookies: web.cookies)).bodyText
    }

    /// A form sent in the pseudo-locale: the page it answers with, or the page it leads to (with its flash).
    private func post(_ path: String, _ fields: [(String, String)], formPath: String) -> String {
        var form = Parameters(fields.map { (name: $0.0, value: $0.1) })
        if let token = web.csrfToken(from: web.get(formPath)) { form.append("csrf_token", token) }
        let answer = web.send(Request(method: .post, path: path, headers: ["accept-language": PseudoLocale.tag], cookies: web.cookies, form: form))
        guard let location = answer.header("Location") else { return answer.bodyText }
        return get(location)
    }

    @Test func everyFieldPageShowsOnlyTranslatedTexts() throws {
        let listPath = "/visit-lists/\(list.id.lowercaseText)", stopPath = "\(listPath)/stops/\(stops[0].stop.id.lowercaseText)"
        let photoPath = "/photos/\(photo.id.lowercaseText)"
        var pages: [String: String] = [
            "/visit-lists": get("/visit-lists"), "/visit-lists/new": get("/visit-lists/new"), listPath: get(listPath),
            "\(listPath)/edit": get("\(listPath)/edit"), "\(listPath)/delete (refused)": get("\(listPath)/delete"),
            "/visit-lists/{empty}/delete": get("/visit-lists/\(emptyList.id.lowercaseText)/delete"),
            "/visit-lists/{empty}": get("/visit-lists/\(emptyList.id.lowercaseText)"),
            "\(listPath)/print": get("\(listPath)/print"), "\(listPath)/walk": get("\(listPath)/walk"),
            "\(listPath)/walk?sort=distance (refused)": get("\(listPath)/walk?sort=distance"),
            "\(listPath)/walk?lat=…": get("\(listPath)/walk?lat=-1.29&lon=36.8"), stopPath: get(stopPath), "/my-visits": get("/my-visits"),
            "/map": get("/map"), "/map?homes=on": get("/map?homes=on"), "/map?visit_list_id=…": get("/map?visit_list_id=\(list.id.lowercaseText)"),
            "/map?symbols=status": get("/map?symbols=status"),
            "/photos/new": get("/photos/new?participant_id=\(participant.id.lowercaseText)"), photoPath: get(photoPath),
            "\(photoPath)/edit": get("\(photoPath)/edit"), "\(photoPath)/delete": get("\(photoPath)/delete"),
            "/notifications": get("/notifications"), "/notifications?show=unread": get("/notifications?kind=visit_list_assigned&show=unread"),
            "/notifications/preferences": get("/notifications/preferences"),
        ]
        let organizer = editor.id.lowercaseText
        pages["/visit-lists/new (shown stops)"] = post("/visit-lists/new", [("name", "Monday"), ("visit_date", "2099-02-01"),
                                                                             ("assigned_user_id", organizer), ("source", "venues"), ("preview", "1")],
                                                       formPath: "/visit-lists/new")
        pages["/visit-lists/new (refused)"] = post("/visit-lists/new", [("name", ""), ("visit_date", ""), ("source", "venues")], formPath: "/visit-lists/new")
        pages["\(listPath)/delete (refused when sent)"] = post("\(listPath)/delete", [], formPath: "\(listPath)/delete")
        pages["\(listPath) (stop stays: walk started)"] = post("\(listPath)/stops/\(stops[stops.count - 1].stop.id.lowercaseText)/remove", [],
                                                               formPath: listPath)
        pages["\(listPath) (no venue ticked)"] = post("\(listPath)/stops", [], formPath: listPath)
        pages["\(stopPath) (follow-up refused)"] = post("\(stopPath)/follow-up", [("later_list_id", "")], formPath: stopPath)
        pages["\(stopPath) (logged)"] = post("\(stopPath)/logs", [("result", "MET"), ("log_id", UUID().lowercaseText)], formPath: stopPath)
        pages["/photos/new (refused)"] = post("/photos", [("participant_id", participant.id.lowercaseText), ("caption", "")],
                                              formPath: "/photos/new?participant_id=\(participant.id.lowercaseText)")
        pages["/notifications (all read)"] = post("/notifications/read-all", [("return_to", "/notifications")], formPath: "/notifications")
        pages["/notifications/preferences (saved)"] = post("/notifications/preferences", [("received_kinds", "visit_list_assigned")],
                                                           formPath: "/notifications/preferences")
        web.signIn("admin@example.org")
        pages["/map (administrator)"] = get("/map")
        for (path, html) in pages.sorted(by: { $0.key < $1.key }) {
            #expect(html.contains("⟦"), "\(path) is not a page in the pseudo-locale")
            #expect(Self.leftOver(html) == [], "\(path) shows text outside the catalogs")
        }
    }

    /// The map's script gets its texts from the page: plain ones, each plural with every form and the form each number
    /// takes, placeholders left for the script.
    @Test func theMapsScriptGetsItsTextsInThePagesLanguage() throws {
        let page = get("/map")
        let html = page[try #require(page.range(of: "id=\"map\"")).lowerBound...]
        let attribute = try #require(html.range(of: #"data-texts="([^"]*)""#, options: .regularExpression).map { String(html[$0]) })
        let json = attribute.dropFirst("data-texts=\"".count).dropLast().replacingOccurrences(of: "&quot;", with: "\"")
            .replacingOccurrences(of: "&#39;", with: "'").replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
        let texts = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect((texts["finding"] as? String)?.hasPrefix("⟦") == true)
        let inView = try #require(texts["in_view"] as? [String: Any])
        let forms = try #require(inView["forms"] as? [String])
        #expect(forms.count == 2 && forms.allSatisfy { $0.hasPrefix("⟦") && $0.contains("{count}") && $0.contains("{total}") })
        let plural = try #require(inView["plural"] as? String)
        #expect(plural.count == 200 && plural.hasPrefix("101") && Set(plural.dropFirst(2)) == ["1"], "English: one form for 1, another for the rest")
    }
}
