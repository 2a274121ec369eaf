import Domain
import Foundation
import GRDB
import HTTPServer
@testable import Storage
import Testing

/// Importing participants from the pages (issue 14): upload, review, choices, the import in the background, and a
/// clear message for a file that is not a participant list.
@Suite struct ImportPageTests {
    func editor() async throws -> WebHarness {
        let given = try await WebHarness()
        try given.createUser("ed@example.org", .editor)
        given.signIn("ed@example.org")
        return given
    }

    func location(_ response: Response) -> String { response.header("Location") ?? "" }

    @Test func aFileIsReviewedChosenForAndImported() async throws {
        let given = try await editor()
        let emile = try given.database.createParticipant(ParticipantInput(name: "Émile Dubois", email: "emile@example.org"), by: .system("test"))
        let csv = "Name;Email;Phone\r\nEmile Dubois;EMILE@example.org;+33 1 23 45 67 89\r\nAda Lovelace;ada@example.org;\r\nBea;not-an-email;\r\n"
        let uploaded = try given.upload("/imports", field: "file", filename: "people.csv", CSV.byteOrderMark + Array(csv.utf8))
        #expect(uploaded.status == .seeOther)
        let review = location(uploaded)
        #expect(review.hasPrefix("/imports/"))
        let html = given.get(review).bodyText
        #expect(html.contains("3 rows, cells separated by semicolons"))
        #expect(html.contains("1 row to add as a new participant") && html.contains("1 row to merge into a participant already here"))
        #expect(html.contains("Already here, with this email address: <a href=\"/participants/\(emile.id.lowercaseText)\" target=\"_blank\">Émile Dubois"))
        #expect(html.contains("Enter an email address"))
        #expect(html.contains("<label class=\"visually-hidden\" for=\"row-2\">What to do with row 2</label>"))

        // Ada is skipped after all; a row with problems cannot be imported.
        #expect(given.post(review + "/choices", [("row-3", "skip")], formPath: review).status == .seeOther)
        #expect(given.post(review + "/choices", [("row-4", "create")], formPath: review).status == .unprocessableContent)
        #expect(given.post(review + "/start", [], formPath: review).status == .seeOther)
        #expect(given.get(review).bodyText.contains("Waiting to start"))
        #expect(given.web.imports.runOnce() == 1)
        let report = given.get(review).bodyText
        #expect(report.contains("0 participants added") && report.contains("1 row merged into a participant already here") && report.contains("2 rows skipped"))
        #expect(try given.database.participant(id: emile.id).phone == "+33 1 23 45 67 89")
        #expect(given.get("/imports").bodyText.contains("Imported: 0 added, 1 merged, 2 skipped"))
    }

    // Issue 36: the import button sent only the CSRF token, so rows changed to Skip on the page were imported anyway
    // and a duplicate set to Skip was merged over the participant already here.
    @Test func theImportButtonImportsWithTheChoicesShownOnThePage() async throws {
        let given = try await editor()
        let kept = try given.database.createParticipant(ParticipantInput(name: "Ann Okafor", email: "ann@example.org", notes: "Met at the fair"),
                                                        by: .system("test"))
        let csv = "name,email,notes\nAnn Okafor,ann@example.org,From the file\nBo Chen,bo@example.org,\nCy Diallo,cy@example.org,\n"
        let review = location(try given.upload("/imports", field: "file", filename: "people.csv", Array(csv.utf8)))
        let html = given.get(review).bodyText
        // One form: the choices and the import button go together.
        #expect(html.contains(#"<button class="button" type="submit" formaction="\#(review)/start">Import 3 rows</button>"#))

        let started = given.post(review + "/start", [("row-2", "skip"), ("row-3", "skip"), ("row-4", "create")], formPath: review)
        #expect(started.status == .seeOther)
        #expect(given.web.imports.runOnce() == 1)
        #expect(given.get(review).bodyText.contains("1 participant added"))
        #expect(try given.database.participant(id: kept.id).notes == "Met at the fair")
        let names = try given.database.read { try String.fetchAll($0, sql: "SELECT name FROM participants") }
        #expect(names.contains("Cy Diallo") && !names.contains("Bo Chen"))
    }

    @Test func aChoiceARowCannotTakeStopsTheImportAndSaysWhy() async throws {
        let given = try await editor()
        let review = location(try given.upload("/imports", field: "file", filename: "people.csv",
                                               Array("name,email\nBea,not-an-email\nCy Diallo,cy@example.org\n".utf8)))
        let refused = given.post(review + "/start", [("row-2", "create"), ("row-3", "skip")], formPath: review)
        #expect(refused.status == .unprocessableContent)
        #expect(refused.bodyText.contains("Row 2 cannot be"))
        #expect(given.web.imports.runOnce() == 0)
        #expect(given.get(review).bodyText.contains("1 row to add as a new participant"))
    }

    @Test func aRowIsComparedAndMergedFieldByField() async throws {
        let given = try await editor()
        let ada = try given.database.createParticipant(ParticipantInput(name: "Ada Lovelace", email: "ada@example.org", phone: "0712 345 678"),
                                                       by: .system("test"))
        let uploaded = try given.upload("/imports", field: "file", filename: "people.csv", Array("name,email,phone\nAda King,ada@example.org,0799 999 999\n".utf8))
        let review = location(uploaded)
        #expect(given.get(review).bodyText.contains("<a href=\"\(review)/rows/2\">Compare field by field"))
        let form = given.get(review + "/rows/2").bodyText
        #expect(form.contains("Row 2 beside Ada Lovelace") && form.contains("id=\"phone-stored\" name=\"phone\" value=\"stored\""))
        #expect(form.contains("<strong>Email address</strong>: the same in both, ada@example.org"))
        #expect(given.post(review + "/rows/2", [("name", "file"), ("phone", "stored")], formPath: review + "/rows/2").status == .seeOther)
        #expect(given.get(review).bodyText.contains("Merging field by field."))
        #expect(given.post(review + "/start", [], formPath: review).status == .seeOther)
        #expect(given.web.imports.runOnce() == 1)
        let merged = try given.database.participant(id: ada.id)
        #expect((merged.name, merged.phone) == ("Ada King", "0712 345 678"))
    }

    @Test func aFileThatIsNotAListIsRefusedOnTheUploadForm() async throws {
        let given = try await editor()
        let answer = try given.upload("/imports", field: "file", filename: "photo.csv", [0x89, 0x50, 0x4E, 0x47, 0, 0, 0, 0])
        #expect(answer.status == .unprocessableContent)
        #expect(answer.bodyText.contains("This is not a CSV file"))
        #expect(answer.bodyText.contains("aria-invalid=\"true\""))
        let none = given.post("/imports", [])
        #expect(none.status == .unprocessableContent && none.bodyText.contains("Choose a file to import"))
    }

    @Test func columnsWithoutANameAreChosenBeforeRowsAreChecked() async throws {
        let given = try await editor()
        let uploaded = try given.upload("/imports", field: "file", filename: "list.csv", Array("Who,Contact\nAda,ada@example.org\n".utf8))
        let review = location(uploaded)
        let before = given.get(review).bodyText
        #expect(before.contains("Choose which column holds the names above") && !before.contains("Import 1 row"))
        let twice = given.post(review + "/columns", [("column-0", "name"), ("column-1", "name")], formPath: review)
        #expect(twice.status == .unprocessableContent && twice.bodyText.contains("Name is chosen for “Who” and “Contact”"))
        #expect(given.post(review + "/columns", [("column-0", "name"), ("column-1", "email")], formPath: review).status == .seeOther)
        #expect(given.get(review).bodyText.contains("Import 1 row"))
    }

    @Test func venuesAreImportedFromTheSameForm() async throws {
        let given = try await editor()
        _ = try given.database.createArea(AreaInput(name: "Riverside", areaType: "NEIGHBOURHOOD", parentId: ""), by: .system("test"))
        #expect(given.get("/imports?kind=venues").bodyText.contains("id=\"kind-venues\" name=\"kind\" value=\"venues\" aria-describedby=\"kind-venues-hint\" checked"))
        let uploaded = try given.upload("/imports", field: "file", filename: "venues.csv", Array("Venue,Address,Area\nBoathouse,1 Quay,riverside\n".utf8),
                                        fields: [("kind", "venues")])
        let review = location(uploaded)
        #expect(given.get(review).bodyText.contains("1 row to add as a new venue"))
        #expect(given.post(review + "/start", [], formPath: review).status == .seeOther)
        #expect(given.web.imports.runOnce() == 1)
        let report = given.get(review).bodyText
        #expect(report.contains("1 venue added") && report.contains("href=\"/venues\">Go to venues</a>"))
    }

    @Test func readOnlyPeopleCannotImport() async throws {
        let given = try await WebHarness()
        try given.createUser("viewer@example.org", .readOnly)
        given.signIn("viewer@example.org")
        #expect(given.get("/imports").status == .forbidden)
    }
}

/// An export of everything restored through the pages into another, empty Fieldbook (issue 14's round trip).
@Suite struct ArchiveRestorePageTests {
    @Test func everythingDownloadedFromOneFieldbookIsRestoredInAnother() async throws {
        let source = try await WebHarness()
        try source.createUser("ed@example.org", .editor)
        _ = try source.database.importDemoCommunity(size: DemoCommunity.Size(venues: 5, participants: 20, activities: 6), seed: 4)
        source.signIn("ed@example.org")
        let download = source.get("/export/everything.zip")
        let stream = try #require(download.stream)
        let archive = try #require(stream.readToEnd()).bytes

        let target = try await WebHarness()
        try target.createUser("admin@example.org", .administrator)
        target.signIn("admin@example.org")
        // Chosen as participants by mistake: the file is judged by its content.
        let uploaded = try target.upload("/imports", field: "file", filename: "fieldbook-everything.zip", archive, fields: [("kind", "participants")])
        #expect(uploaded.status == .seeOther)
        let review = uploaded.header("Location") ?? ""
        let page = target.get(review).bodyText
        #expect(page.contains("<td>participants.json</td><td>participants</td><td class=\"table__number\">20</td>"))
        #expect(target.post(review + "/start", [], formPath: review).status == .seeOther)
        #expect(target.web.imports.runOnce() == 1)
        let report = target.get(review).bodyText
        #expect(report.contains("records restored") && report.contains("records already here, left as they were"), "\(report)")
        #expect(try target.database.participants(ParticipantQuery.unfiltered).total == 20)
        #expect(try source.database.participants(ParticipantQuery.unfiltered).items.map(\.participant.id).sorted { $0.uuidString < $1.uuidString }
                == target.database.participants(ParticipantQuery.unfiltered).items.map(\.participant.id).sorted { $0.uuidString < $1.uuidString })

        let notZip = try target.upload("/imports", field: "file", filename: "list.zip", Array("name,email\n".utf8), fields: [("kind", "archive")])
        #expect(notZip.status == .unprocessableContent && notZip.bodyText.contains("This file is not a ZIP archive"))
    }
}
