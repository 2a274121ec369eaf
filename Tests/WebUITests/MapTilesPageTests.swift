import Foundation
import Storage
import Testing
@testable import WebUI

/// Issue 41 item 7: the map says where no tiles have detail, and the tiles page says how to get a regional file.
@Suite struct MapTilesPageTests {
    let given: WebHarness

    init() async throws {
        given = try await WebHarness()
        try given.createUser("admin@example.org", .administrator)
        try given.createUser("ed@example.org", .editor)
    }

    @Test func theTilesPageSaysWhereToGetARegionalFileAndHowToImportIt() {
        given.signIn("admin@example.org")
        let html = given.get("/settings/map").bodyText
        #expect(html.contains("id=\"offline-tiles\""), "the map's notice links to this part of the page")
        #expect(html.contains("href=\"https://download.geofabrik.de/\"") && html.contains("href=\"https://qgis.org/\""),
                "a source of OpenStreetMap data that may be downloaded, and an offline tool that makes MBTiles from it")
        #expect(html.contains("Open Database License") && html.contains("© OpenStreetMap contributors"))
        #expect(html.contains("tile usage policy forbids bulk downloading"), "it warns off tile.openstreetmap.org")
        #expect(html.contains("<code class=\"tile-guide__command\">fieldbook tiles import --data DATA_FOLDER region.mbtiles</code>"))
    }

    @Test func theImportCommandNamesThisFieldbooksDataFolder() {
        let library = TileLibrary(bundledDirectory: "/nonexistent", importDirectory: "/srv/field book/tiles")
        #expect(MapSettingsPages.importCommand(library) == "fieldbook tiles import --data '/srv/field book' region.mbtiles")
        let plain = TileLibrary(bundledDirectory: "/nonexistent", importDirectory: "/var/lib/fieldbook/tiles")
        #expect(MapSettingsPages.importCommand(plain) == "fieldbook tiles import --data /var/lib/fieldbook region.mbtiles")
    }

    /// map.js overzooms each file from its own deepest zoom and only over its bounds, so it needs both for every file.
    @Test func theMapIsGivenEachFilesDeepestZoomAndBounds() throws {
        let imports = FileManager.default.temporaryDirectory.appendingPathComponent("fieldbook-tiles-\(UUID().uuidString)")
        let library = TileLibrary(bundledDirectory: WebHarness.repositoryRoot.appendingPathComponent("tiles").path, importDirectory: imports.path)
        let coverage = try #require(try JSONSerialization.jsonObject(with: Data(MapPages.tileCoverage(library).utf8)) as? [[String: Any]])
        #expect(coverage.count == 1)
        #expect(coverage.first?["maxZoom"] as? Int == 6 && coverage.first?["minZoom"] as? Int == 0)
        #expect(coverage.first?["bounds"] as? [Double] == [-90, -180, 90, 180], "south, west, north, east")
        #expect(MapPages.tileCoverage(nil) == "[]")
    }

    @Test func theNoDetailNoticeIsMarkedTextAndLinksToTheTilesForAdministratorsOnly() {
        given.signIn("admin@example.org")
        let admin = given.get("/map").bodyText
        #expect(admin.contains("data-no-detail=\"No map detail is installed for this area at this zoom.\""))
        #expect(admin.contains("data-no-detail-link=\"/settings/map#offline-tiles\""))
        given.signIn("ed@example.org")
        let editor = given.get("/map").bodyText
        #expect(editor.contains("data-no-detail=\"No map detail is installed for this area at this zoom.\""))
        #expect(!editor.contains("data-no-detail-link"), "editors cannot open the tiles page")
    }
}
