import Domain
import Foundation
import HTTPServer
import Storage
import Surface
import Testing
import TestSupport
@testable import WebUI

/// Lists downloaded whole from their pages (issue 14): the links keep the list's filters, the file holds every page,
/// and a reader downloads only what they may see.
@Suite struct ExportPageTests {
    /// Everything a streamed response sends until it ends, as text, and whether it ended as failed.
    func drained(_ response: Response) throws -> (text: String, failed: Bool) {
        let stream = try #require(response.stream)
        let read = try #require(stream.readToEnd(), "the download did not end")
        return (String(decoding: read.bytes, as: UTF8.self), read.failed)
    }

    func community(_ given: WebHarness, _ count: Int) throws {
        for index in 0..<count {
            try given.database.createParticipant(ParticipantInput(name: (index % 2 == 0 ? "Ann " : "Bo ") + "\(index)",
                                                                  email: "p\(index)@example.org", notes: "note \(index)"), by: .system("test"))
        }
    }

    @Test func aListsDownloadLinksKeepItsFiltersAndTheFileHoldsEveryPage() async throws {
        let given = try await WebHarness()
        try given.createUser("ed@example.org", .editor)
        given.signIn("ed@example.org")
        try community(given, 130)
        let page = given.get("/participants?q=ann&sort=email&page=2").bodyText
        #expect(page.contains("Download all 65 participants in this list:"))
        #expect(page.contains("href=\"/participants/export.csv?q=ann&amp;sort=email\">CSV (for spreadsheets)</a>"))
        #expect(page.contains("href=\"/participants/export.json?q=ann&amp;sort=email\">JSON (for programs)</a>"))

        let csv = given.get("/participants/export.csv?q=ann&sort=email")
        #expect(csv.status == .ok)
        #expect(csv.header("Content-Type") == "text/csv; charset=utf-8")
        #expect(csv.header("Content-Disposition") == "attachment; filename=\"participants-\(CalendarDate.today()).csv\"")
        let (text, failed) = try drained(csv)
        #expect(!failed)
        let lines = text.split(separator: "\r\n")
        #expect(lines.count == 66 && lines[0] == "\u{FEFF}id,name,email,phone,notes,home_venue_id,created_at,updated_at")
        #expect(lines.dropFirst().allSatisfy { $0.contains(",Ann ") })
        let emails = lines.dropFirst().map { $0.split(separator: ",")[2] }
        #expect(emails == emails.sorted { $0.lowercased() < $1.lowercased() })

        let json = try drained(given.get("/activities/export.json"))
        let parsed = try JSONSerialization.jsonObject(with: Data(json.text.utf8)) as? [Any]
        #expect(json.text.hasPrefix("[") && parsed != nil)
    }

    @Test func aReadOnlyReaderDownloadsOnlyWhatTheyMaySee() async throws {
        let given = try await WebHarness()
        try given.createUser("ro@example.org", .readOnly)
        given.signIn("ro@example.org")
        try community(given, 10)
        let (text, _) = try drained(given.get("/participants/export.csv?sort=email&area_id=\(UUID().uuidString)"))
        #expect(text.hasPrefix("\u{FEFF}id,name,created_at,updated_at\r\n"))
        #expect(!text.contains("example.org") && !text.contains("note "))
        // The hidden area filter cannot narrow the download either (it would tell where people live).
        #expect(text.split(separator: "\r\n").count == 11)
    }

    @Test func signedOutVisitorsAreSentToSignIn() async throws {
        let given = try await WebHarness()
        try given.createUser("ed@example.org", .editor)
        for path in ["/participants/export.csv", "/venues/export.json", "/activities/export.csv"] {
            let answer = given.get(path)
            #expect(answer.status == .seeOther && answer.stream == nil, "\(path)")
        }
    }

    @Test func anEmptyListOffersNoDownload() async throws {
        let given = try await WebHarness()
        try given.createUser("ed@example.org", .editor)
        given.signIn("ed@example.org")
        #expect(!given.get("/participants").bodyText.contains("export.csv"))
        #expect(!given.get("/venues").bodyText.contains("export.csv"))
    }

    @Test func everythingIsOneZipOfJSONFilesForEditors() async throws {
        let given = try await WebHarness()
        try given.createUser("ed@example.org", .editor)
        try given.createUser("ro@example.org", .readOnly)
        try community(given, 12)
        given.signIn("ed@example.org")
        let page = given.get("/export").bodyText
        #expect(page.contains("href=\"/export/everything.zip\">JSON files</a>"))
        #expect(page.contains("href=\"/export/everything.zip?format=csv\">CSV files"))
        #expect(page.contains("href=\"/participants/export.csv\">CSV"))
        #expect(given.get("/").bodyText.contains("href=\"/export\""))
        let answer = given.get("/export/everything.zip")
        #expect(answer.header("Content-Type") == "application/zip")
        #expect(answer.header("Content-Disposition") == "attachment; filename=\"fieldbook-\(CalendarDate.today()).zip\"")
        let stream = try #require(answer.stream)
        let members = try unzip(try #require(stream.readToEnd()).bytes)
        #expect(members.last?.name == "fieldbook-export.json")
        let participants = try #require(members.first { $0.name == "participants.json" })
        #expect((try JSONSerialization.jsonObject(with: Data(participants.contents)) as? [Any])?.count == 12)

        given.signIn("ro@example.org")
        #expect(given.get("/export").status == .ok)
        #expect(!given.get("/export").bodyText.contains("everything.zip"))
        let refused = given.get("/export/everything.zip")
        #expect(refused.status == .forbidden && refused.stream == nil)
    }

    @Test func anAreaAndAnActivityDownloadAsArchivesFromTheirPages() async throws {
        let given = try await WebHarness()
        try given.createUser("ed@example.org", .editor)
        try given.createUser("ro@example.org", .readOnly)
        let actor = Actor.system("test")
        let area = try given.database.createArea(AreaInput(name: "Kibera", areaType: "NEIGHBOURHOOD", parentId: ""), by: actor)
        let venue = try given.database.createVenue(VenueInput(name: "Hall", address: "1 Road", areaId: area.id.uuidString), by: actor)
        let type = try given.database.categories(.activityType).first!
        let activity = try given.database.createActivity(ActivityInput(name: "Choir", typeId: type.id.uuidString, startDate: "2025-01-01",
                                                                       duration: "ongoing", status: "ACTIVE", venueIds: [venue.id.uuidString]), by: actor)
        given.signIn("ed@example.org")
        let areaPage = given.get("/areas/\(area.id.lowercaseText)").bodyText
        #expect(areaPage.contains("href=\"/areas/\(area.id.lowercaseText)/export.zip?format=csv\">a ZIP of CSV files"))
        let csvArchive = given.get("/areas/\(area.id.lowercaseText)/export.zip?format=csv")
        #expect(csvArchive.header("Content-Disposition") == "attachment; filename=\"fieldbook-kibera-\(CalendarDate.today())-csv.zip\"")
        let stream = try #require(csvArchive.stream)
        let members = try unzip(try #require(stream.readToEnd()).bytes)
        #expect(members.contains { $0.name == "venues.csv" && String(decoding: $0.contents, as: UTF8.self).contains("Hall") })
        #expect(given.get("/activities/\(activity.id.lowercaseText)").bodyText.contains("/activities/\(activity.id.lowercaseText)/export.zip"))
        #expect(given.get("/activities/\(UUID().uuidString.lowercased())/export.zip").status == .notFound)

        given.signIn("ro@example.org")
        #expect(!given.get("/areas/\(area.id.lowercaseText)").bodyText.contains("export.zip"))
        #expect(given.get("/areas/\(area.id.lowercaseText)/export.zip").status == .forbidden)
    }
}
