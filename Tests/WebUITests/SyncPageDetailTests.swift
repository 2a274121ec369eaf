import Domain
import Foundation
import HTTPServer
import Records
@testable import Storage
@testable import Sync
import Surface
import Testing
@testable import WebUI

/// What the sync pages must never show (password hashes, the hub's address to non-administrators) and the details that
/// make them usable: the notice for the person whose edit lost, names instead of ids, "Sync now" while paused.
@Suite struct SyncPageDetailTests {
    let given: WebHarness
    let hub: HubDatabase
    let editor: User
    let admin: User

    init() async throws {
        given = try await WebHarness(withSyncEngine: true)
        hub = try HubDatabase()
        admin = try given.createUser("admin@example.org", .administrator)
        editor = try given.createUser("ed@example.org", .editor)
        try given.createUser("other@example.org", .editor)
        try given.createUser("reader@example.org", .readOnly)
    }

    // A password changed on both sides is no conflict (issue 36: credentials never are); the name edited on both is,
    // and its page shows neither password hash.
    /// The sync pages name a record by its kind's label and link it to its page wherever the pages list the kind,
    /// for every kind, with no list of kinds of their own.
    @Test func everyKindIsNamedByItsLabelAndLinkedWhereThePagesListIt() {
        let id = UUID()
        for kind in RecordKind.all {
            let view = RecordText.view(entity: kind.entity, id: id, label: "Record", linksUsers: true)
            #expect(view.text("kind") == kind.label.one.capitalizedFirst, "\(kind.entity)")
            let collection = RecordCollection(entity: kind.entity)
            #expect(view.text("path") == collection.map { RecordRoutes($0.path(under: Paths.home)).record(id) }, "\(kind.entity)")
        }
        #expect(RecordText.view(entity: "user", id: id, label: "Ada", linksUsers: false).text("path") == nil)
    }

    @Test func aConflictOverAnAccountNeverShowsThePasswordHashes() async throws {
        try hub.push(from: given.database)
        try hub.database.resetPassword(id: editor.id, password: "hub side password", confirmation: "hub side password", by: hub.actor)
        try hub.database.updateUser(id: editor.id, UserChangeInput(name: "Ed on the hub", role: "editor", isDisabled: false), by: hub.actor)
        try given.database.resetPassword(id: editor.id, password: "node side password", confirmation: "node side password",
                                         by: .user(admin.id))
        try given.database.updateUser(id: editor.id, UserChangeInput(name: "Ed on the node", role: "editor", isDisabled: false),
                                      by: .user(admin.id))
        let hashes = try [hub.database, given.database].map { database in
            try database.read { try String.fetchOne($0, sql: "SELECT password_hash FROM users WHERE id = ?", arguments: [editor.id.databaseText]) }
        }
        try hub.push(from: given.database)
        #expect(try given.database.openConflictCount() == 1)
        #expect(try given.database.conflicts().first?.fields.map(\.name) == ["name"])

        given.signIn("reader@example.org")
        let html = given.get("/sync/conflicts?show=all").bodyText
        #expect(html.contains("Ed on the node") && !html.contains(#"<th scope="row">Password</th>"#))
        for hash in hashes.compactMap({ $0 }) { #expect(!html.contains(hash)) }
    }

    @Test func theHubAddressInErrorsIsForAdministratorsOnly() async throws {
        let session = try given.database.startSyncSession()
        try given.database.finishSyncSession(session, outcome: .failed, statistics: SyncStatistics(failures: 1),
                                             error: "The hub did not answer at http://hub.invalid/api/v1/health.")
        given.signIn("ed@example.org")
        let html = given.get("/sync").bodyText
        #expect(!html.contains("hub.invalid"))
        // Not "The hub did not answer at the hub." (issue 16): the address goes with its "at".
        #expect(html.contains("The hub did not answer.") && !html.contains("at the hub"))
        given.signIn("admin@example.org")
        #expect(given.get("/sync").bodyText.contains("The hub did not answer at http://hub.invalid/api/v1/health."))
    }

    // Issue 16: /sync said "Hub offline at (sync paused)" to editors, claimed the hub could not be reached before it was
    // ever tried, and offered Cancel only when the page was loaded during a sync.
    @Test func theHubLineReadsWellForEveryRoleAndNothingIsClaimedBeforeTheHubIsTried() async throws {
        try given.syncEngine?.pause()
        for email in ["ed@example.org", "reader@example.org"] {
            given.signIn(email)
            let html = given.get("/sync").bodyText
            #expect(html.contains(#"<span data-sync-field="hub_label">Checking the hub</span> (sync paused)</dd>"#), "\(email)")
            #expect(!html.contains(" at (sync paused)") && !html.contains("hub.invalid"), "\(email)")
            // The "cannot be reached" sentence is there for the live page to show, hidden until the hub is found offline.
            #expect(html.contains(#"<p data-sync-when-hub="offline" hidden>The hub cannot be reached now."#), "\(email)")
        }
        given.signIn("admin@example.org")
        #expect(given.get("/sync").bodyText.contains(#"Checking the hub</span> at http://hub.invalid (sync paused)"#))
        given.signIn("ed@example.org")
        #expect(given.get("/sync").bodyText.contains(#"<form method="post" action="/sync/cancel" data-sync-cancel hidden>"#))
    }

    // Property 14 (issue 16): Sync now needs the hub, so it is not offered while the hub cannot be reached, and the page
    // says why; the live page shows it again when the hub answers.
    @Test func property14_syncNowIsOfferedOnlyWhileTheHubCanBeReached() async throws {
        let engine = try #require(given.syncEngine)
        given.signIn("ed@example.org")
        engine.state.setHub(.offline)
        let offline = given.get("/sync").bodyText
        #expect(offline.contains(#"<form method="post" action="/sync/run" data-sync-unless-hub="offline" hidden>"#))
        #expect(offline.contains(#"<p data-sync-when-hub="offline">Sync now needs the hub"#))
        engine.state.setHub(.online)
        let online = given.get("/sync").bodyText
        #expect(online.contains(#"<form method="post" action="/sync/run" data-sync-unless-hub="offline">"#))
        #expect(online.contains(#"<p data-sync-when-hub="offline" hidden>Sync now needs the hub"#))
    }

    // Issue 16: Settings said "5 minutes" while --sync-interval 30 was in force.
    @Test func theSettingsPageSaysWhichIntervalAppliesAndWhy() async throws {
        let started = try await WebHarness(withSyncEngine: true, syncIntervalOverride: 30)
        try started.createUser("admin@example.org", .administrator)
        started.signIn("admin@example.org")
        #expect(started.get("/settings/sync").bodyText.contains(
            "Fieldbook was started with --sync-interval 30, so it syncs every 30 seconds whatever this setting says."))
        given.signIn("admin@example.org")
        #expect(!given.get("/settings/sync").bodyText.contains("--sync-interval"))
        #expect(SyncSettingsPages.spoken(seconds: 300) == "every 5 minutes" && SyncSettingsPages.spoken(seconds: 60) == "every minute")
    }

    @Test func syncNowWhilePausedResumes() async throws {
        let engine = try #require(given.syncEngine)
        given.signIn("ed@example.org")
        #expect(given.post("/sync/pause", [], formPath: "/sync").status == .seeOther)
        #expect(engine.isPaused)
        #expect(given.post("/sync/run", [], formPath: "/sync").status == .seeOther)
        #expect(!engine.isPaused)
    }

    @Test func thePersonWhoseEditLostIsToldAboutTheirOwnEdits() async throws {
        try hub.editConflict(on: given.database, by: .user(editor.id), hubName: "Ann H", nodeName: "Ann N")
        given.signIn("ed@example.org")
        for path in ["/", "/sync"] {
            #expect(given.get(path).bodyText.contains("1 of your edits lost a conflict"), "\(path)")
        }
        given.signIn("other@example.org")
        let home = given.get("/").bodyText
        #expect(!home.contains("of your edits") && home.contains("1 edit made here lost a conflict"))
        #expect(given.get("/sync").bodyText.contains(#"Open conflicts</dt><dd class="summary-list__value">1"#))
    }

    @Test func conflictValuesNameTheRecordsTheyReferTo() async throws {
        let area = try hub.database.createArea(AreaInput(name: "Kibera", areaType: "NEIGHBOURHOOD", parentId: ""), by: hub.actor)
        let hall = try hub.database.createVenue(VenueInput(name: "Kibera Hall", address: "1 Road", areaId: area.id.uuidString), by: hub.actor)
        let school = try hub.database.createVenue(VenueInput(name: "Olympic School", address: "2 Road", areaId: area.id.uuidString),
                                                  by: hub.actor)
        let ann = try hub.sharedParticipant("Ann Okafor", on: given.database)
        try hub.database.updateParticipant(id: ann.id, ParticipantInput(name: ann.name, email: ann.email, homeVenueId: hall.id.uuidString,
                                                                        movedOn: "2025-01-01"), expectedVersion: nil, by: hub.actor)
        try given.database.updateParticipant(id: ann.id, ParticipantInput(name: ann.name, email: ann.email, homeVenueId: school.id.uuidString,
                                                                           movedOn: "2025-01-01"), expectedVersion: nil, by: .user(editor.id))
        try hub.push(from: given.database)
        given.signIn("ed@example.org")
        let html = given.get("/sync/conflicts").bodyText
        #expect(html.contains(#"<tr><th scope="row">Home venue</th><td>Olympic School</td><td>Kibera Hall</td></tr>"#))
    }

    @Test func onlyAdministratorsGetLinksToUserPages() async throws {
        try hub.push(from: given.database)
        try hub.database.updateUser(id: editor.id, UserChangeInput(name: "Ed on the hub", role: "editor", isDisabled: false), by: hub.actor)
        try given.database.updateUser(id: editor.id, UserChangeInput(name: "Ed here", role: "editor", isDisabled: false), by: .user(admin.id))
        try hub.push(from: given.database)
        let userPath = "href=\"/users/\(editor.id.databaseText)\""
        given.signIn("admin@example.org")
        #expect(given.get("/sync/conflicts").bodyText.contains(userPath))
        given.signIn("ed@example.org")
        let html = given.get("/sync/conflicts").bodyText
        #expect(html.contains("Ed on the hub") && !html.contains(userPath))
    }
}
