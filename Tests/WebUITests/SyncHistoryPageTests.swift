import Domain
import Foundation
import HTTPServer
import Storage
@testable import Sync
import Testing
@testable import WebUI

/// /sync says only what happened (issue 36): paused is "Paused" with Resume, one pending count on the screen, checks
/// that exchanged nothing are one line rather than history rows, and refused operations are not called a success.
@Suite struct SyncHistoryPageTests {
    let given: WebHarness

    init() async throws {
        given = try await WebHarness(withSyncEngine: true)
        try given.createUser("ed@example.org", .editor)
        given.signIn("ed@example.org")
    }

    @Test func whilePausedThePageSaysPausedAndOffersResumeNotSyncNow() throws {
        let engine = try #require(given.syncEngine)
        engine.state.setHub(.online)
        engine.pause()
        // A session still winding down when the pause came is not "Sync running" either.
        engine.state.setProgress(SyncProgress(phase: .pushing, fraction: 0.5, pushed: 1, pulled: 0, message: "Sent 1 of 2 changes"))
        let html = given.get("/sync").bodyText
        #expect(html.contains("<p role=\"status\" data-progress-phase>Paused: the sync under way stops after its current step.</p>"))
        #expect(!html.contains("Sync running"))
        #expect(html.contains(#"action="/sync/resume""#) && html.contains(">Resume</button>"))
        #expect(!html.contains(#"action="/sync/run""#) && !html.contains(">Sync now</button>"))
        engine.state.setProgress(nil)
        #expect(given.get("/sync").bodyText.contains("data-progress-phase>Paused: no sync runs until you resume it.</p>"))

        engine.resume()
        let resumed = given.get("/sync").bodyText
        #expect(resumed.contains(#"action="/sync/run""#) && !resumed.contains(#"action="/sync/resume""#))
        #expect(resumed.contains("data-progress-phase>No sync is running now.</p>"))
    }

    @Test func theHeaderAndTheBodyShowOnePendingCountAndBothFollowLiveUpdates() throws {
        for index in 0..<3 {
            try given.database.createParticipant(ParticipantInput(name: "Queued \(index)", email: "q\(index)@example.org"), by: .system("test"))
        }
        let pending = try given.database.pendingOperationCount()
        let html = given.get("/sync").bodyText
        #expect(html.contains(#"data-sync-field="pending_label">\#(pending) changes not yet synced</span>"#))
        #expect(html.contains(#"<dd class="summary-list__value" data-sync-field="pending_operations">\#(pending)</dd>"#))
        #expect(given.get("/").bodyText.contains(#"<span data-sync-field="pending_operations">\#(pending)</span>"#))
    }

    @Test func checksThatExchangedNothingAreOneLineAndRealSessionsStayInView() throws {
        let real = try given.database.startSyncSession()
        try given.database.finishSyncSession(real, outcome: .succeeded, statistics: SyncStatistics(pushed: 7, pulled: 5), error: nil)
        for _ in 0..<25 {
            let empty = try given.database.startSyncSession()
            try given.database.finishSyncSession(empty, outcome: .succeeded, statistics: SyncStatistics(), error: nil)
        }
        let html = given.get("/sync").bodyText
        #expect(html.contains("<td>Succeeded</td><td>7</td><td>5</td>"))
        #expect(!html.contains("<td>Succeeded</td><td>0</td><td>0</td>"))
        #expect(html.contains("Last checked with the hub ") && html.contains(": nothing to send or receive."))
    }

    @Test func aSessionThatOnlyMovedPhotoFilesIsListedWithThem() throws {
        let files = try given.database.startSyncSession()
        try given.database.finishSyncSession(files, outcome: .succeeded, statistics: SyncStatistics(photosSent: 2, photosReceived: 1), error: nil)
        let html = given.get("/sync").bodyText
        #expect(html.contains("<th scope=\"col\">Photo files sent</th><th scope=\"col\">Photo files received</th>"))
        #expect(html.contains("<td>Succeeded</td><td>0</td><td>0</td><td>2</td><td>1</td>"))
    }

    @Test func aPausedSessionIsListedAsPaused() throws {
        let paused = try given.database.startSyncSession()
        try given.database.finishSyncSession(paused, outcome: .paused, statistics: SyncStatistics(pushed: 2), error: nil)
        let html = given.get("/sync").bodyText
        #expect(html.contains("<td>Paused</td><td>2</td>") && !html.contains("Cancelled"))
    }

    @Test func aSessionWithRefusedOperationsSaysSoAndLinksToTheFailures() throws {
        let session = try given.database.startSyncSession()
        try given.database.finishSyncSession(session, outcome: .succeeded, statistics: SyncStatistics(pushed: 5, failures: 2), error: nil)
        let html = given.get("/sync").bodyText
        #expect(html.contains(##"<td><a href="#failed-operations">Finished with 2 refused</a></td>"##))
        #expect(html.contains(#"<h2 id="failed-operations">Failed operations</h2>"#))
        #expect(!html.contains("<td>Succeeded</td>"))
    }
}
