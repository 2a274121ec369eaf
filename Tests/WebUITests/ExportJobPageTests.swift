import Domain
import Foundation
import HTTPServer
import Storage
import Surface
import TestSupport
import Testing

/// Archives prepared in the background (issue 14): asked for, followed with their progress, cancelled, downloaded
/// as a finished file; each person's own, kept a day.
@Suite struct ExportJobPageTests {
    func editor() async throws -> WebHarness {
        let given = try await WebHarness()
        try given.createUser("ed@example.org", .editor)
        given.signIn("ed@example.org")
        for index in 0..<30 {
            try given.database.createParticipant(ParticipantInput(name: "Person \(index)", email: "p\(index)@example.org"), by: .system("test"))
        }
        return given
    }

    func ask(_ given: WebHarness, format: String = "json") -> String {
        let answer = given.post("/export/jobs", [("scope", "everything"), ("format", format)], formPath: "/export")
        #expect(answer.status == .seeOther)
        return answer.header("Location") ?? ""
    }

    @Test func anArchiveIsPreparedFollowedAndDownloaded() async throws {
        let given = try await editor()
        #expect(given.get("/export").bodyText.contains("Prepare everything (ZIP of JSON files)"))
        let page = ask(given)
        #expect(page.hasPrefix("/export/jobs/"))
        let waiting = given.get(page).bodyText
        #expect(waiting.contains("Waiting to start.") && waiting.contains("data-progress-url=\"\(page)/progress\""))
        #expect(given.get(page + "/progress").bodyText.contains("\"state\":\"queued\""))
        #expect(given.web.exports.runOnce() == 1)

        let ready = given.get(page).bodyText
        #expect(ready.contains("Ready: ") && ready.contains("href=\"\(page)/download\""))
        let download = given.get(page + "/download")
        #expect(download.status == .ok && download.header("Content-Type") == "application/zip")
        #expect(download.header("Content-Disposition")?.contains("fieldbook-\(CalendarDate.today()).zip") == true)
        let id = try #require(UUID(uuidString: String(page.split(separator: "/").last!)))
        let bytes = try PhotoFixtures.bytesAt(given.database.exportFile(id))
        #expect(download.file?.size == bytes.count)
        let members = try unzip(bytes)
        #expect(members.last?.name == "fieldbook-export.json")
        let people = try #require(members.first { $0.name == "participants.json" })
        #expect((try JSONSerialization.jsonObject(with: Data(people.contents)) as? [Any])?.count == 30)
        #expect(try given.database.exportJob(id: id).records == (try given.database.archiveRecordCount(.everything)))
    }

    @Test func aCancelledExportKeepsNothingAndCanBeAskedForAgain() async throws {
        let given = try await editor()
        let page = ask(given, format: "csv")
        #expect(given.post(page + "/cancel", [], formPath: page).status == .seeOther)
        #expect(given.web.exports.runOnce() == 0)
        let html = given.get(page).bodyText
        #expect(html.contains("This export was cancelled; nothing of it was kept.") && html.contains("Prepare it again"))
        #expect(html.contains("name=\"format\" value=\"csv\""))
        #expect(given.get(page + "/download").status == .notFound)
    }

    @Test func anExportIsItsAskersOwnAndGoesAfterADay() async throws {
        let given = try await editor()
        let page = ask(given)
        #expect(given.web.exports.runOnce() == 1)
        try given.createUser("other@example.org", .editor)
        given.signIn("other@example.org")
        #expect(given.get(page).status == .notFound && given.get(page + "/download").status == .notFound)
        try given.createUser("admin@example.org", .administrator)
        given.signIn("admin@example.org")
        #expect(given.get(page).status == .ok)

        let id = try #require(UUID(uuidString: String(page.split(separator: "/").last!)))
        #expect(FileManager.default.fileExists(atPath: given.database.exportFile(id)))
        #expect(try given.database.removeExpiredExports(now: Date().addingTimeInterval(AppDatabase.exportKeptFor + 60)) == 1)
        #expect(!FileManager.default.fileExists(atPath: given.database.exportFile(id)))
        #expect(given.get(page).status == .notFound)
    }

    @Test func aCancelAsTheExportEndsKeepsNothing() async throws {
        let given = try await editor()
        let page = ask(given)
        let id = try #require(UUID(uuidString: String(page.split(separator: "/").last!)))
        _ = try given.database.takeQueuedExport()
        #expect(try given.web.exports.cancel(id))
        #expect(try given.database.finishExport(id, .done, records: 1, fileBytes: 1) == false, "the cancel stands")
        #expect(try given.database.exportJob(id: id).state == .cancelled)
    }

    @Test func anExportCutOffByAStopIsWrittenAgainAtTheNextStart() async throws {
        let given = try await editor()
        let page = ask(given)
        let id = try #require(UUID(uuidString: String(page.split(separator: "/").last!)))
        _ = try given.database.takeQueuedExport()
        #expect(try given.database.exportJob(id: id).state == .running)
        try given.database.requeueInterruptedExports()
        #expect(given.web.exports.runOnce() == 1)
        #expect(try given.database.exportJob(id: id).state == .done)
    }
}
