import Domain
import Foundation
@testable import HTTPServer
@testable import Storage
@testable import Sync
import Testing
import Translations
@testable import WebUI

/// The analytics pages and their charts, the Add a device page, the plain-HTTP guide, pagination and the live sync
/// status, crawled in the pseudo-locale over a demo community: every text a person reads is inside ⟦…⟧, except the
/// community's own names. Then analytics in Persian: its digits and its right-to-left charts.
@Suite struct PseudoLocaleAnalyticsPagesTests {
    private func page(_ given: WebHarness, _ path: String, language: String = PseudoLocale.tag) -> String {
        let parts = path.split(separator: "?", maxSplits: 1)
        let query = parts.count > 1 ? QueryString.decode(String(parts[1])) : Parameters()
        return given.send(Request(method: .get, path: String(parts[0]), query: query, headers: ["accept-language": language],
                                  cookies: given.cookies)).bodyText
    }

    private func demo(_ role: UserRole = .administrator) async throws -> WebHarness {
        let given = try await WebHarness(languages: try WebHarness.shippedLanguages())
        try given.database.importDemoCommunity(size: .init(venues: 30, participants: 300, activities: 60), seed: 7)
        try given.createUser("someone@example.org", role)
        given.signIn("someone@example.org")
        return given
    }

    /// The community's own names (areas with their types as the area filter lists them, activity types, roles), which
    /// stay as the organization wrote them, as they stand in the page's HTML too.
    private func names(_ database: AppDatabase) throws -> Set<String> {
        let names = try database.areaTree().flatMap { [$0.area.name, AreaPages.indented($0)] } + database.categories(.activityType).map(\.name)
            + database.categories(.participantRole).map(\.name)
        return Set(names + names.map { $0.replacingOccurrences(of: "'", with: "&#39;") })
    }

    /// Besides the community's names, what a page shows that no catalog holds: the layout's "User <email>" (the layout's
    /// part marks it) and month names, which are dates written by the language's formats, not texts.
    private static let alsoAllowed: Set<String> = ["User someone@example.org", "User admin@example.org", "someone@example.org",
                                                   "admin@example.org", "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug",
                                                   "Sep", "Oct", "Nov", "Dec"]

    /// The texts of a page's charts that are outside ⟦…⟧: `unwrapped` leaves the SVG out. A name may be shortened
    /// with "…" on a chart.
    static func unwrappedChartTexts(_ html: String, allowing names: Set<String>) -> [String] {
        let texts = html.matches(of: try! Regex("<text [^>]*>([^<]*)</text>")).map { String($0.output[1].substring ?? "") }
        return texts.flatMap { text -> [String] in
            let shown = text.replacingOccurrences(of: "&amp;", with: "&").replacingOccurrences(of: "&#39;", with: "'")
            return LanguagePageTests.unwrapped("<p>\(shown)</p>").filter { rest in
                let name = rest.hasSuffix("…") ? String(rest.dropLast()) : rest
                return !names.contains { $0 == rest || $0.hasPrefix(name) || $0.trimmingCharacters(in: .punctuationCharacters) == rest }
            }
        }
    }

    @Test func theAnalyticsPagesAndTheirChartsAreWrapped() async throws {
        let given = try await demo(.readOnly)
        let names = try names(given.database)
        let area = try #require(try given.database.areaTree().first { !$0.area.name.isEmpty }).area
        let paths = ["/analytics?range=all-time", "/analytics?range=last-30-days", "/analytics?range=all-time&area_id=\(area.id.lowercasedString)",
                     "/analytics/growth?range=all-time", "/analytics/growth?range=all-time&period=quarter",
                     "/analytics/growth?range=custom&from=1990-01-01&to=2030-12-31&period=week",
                     "/analytics/growth?range=all-time&period=year&area_id=\(area.id.lowercasedString)",
                     "/analytics?range=custom&from=2025-13-01&to=2025-01-01", "/analytics?range=custom&from=2025-03-01&to=2025-01-01"]
        var checkedCharts = 0
        for path in paths {
            let html = page(given, path)
            #expect(LanguagePageTests.unwrapped(html, allowing: names.union(Self.alsoAllowed)) == [], "\(path)")
            #expect(Self.unwrappedChartTexts(html, allowing: names.union(Self.alsoAllowed)) == [], "\(path)")
            checkedCharts += html.components(separatedBy: "<svg class=\"chart__svg\"").count - 1
        }
        #expect(checkedCharts >= 10, "the crawl met the bar and line charts")
        #expect(page(given, paths[5]).contains("⟦Thís ráñgé hás móré tháñ"), "the notice of a range too long for weeks")
        for path in ["/analytics", "/analytics/growth"] {
            let fresh = try await WebHarness(languages: try WebHarness.shippedLanguages())
            try fresh.createUser("someone@example.org", .readOnly)
            fresh.signIn("someone@example.org")
            fresh.database.analytics.limit(mostReadWaiting: -1, longestWait: 0)
            let html = page(fresh, path)
            #expect(html.contains("⟦Thé áñálýtíçs áré béíñg"), "\(path): the figures are being prepared")
            #expect(LanguagePageTests.unwrapped(html, allowing: Self.alsoAllowed) == [], "\(path) while preparing")
        }
    }

    /// The pages of a list show how many it holds and its page links in the reader's language, for every noun.
    @Test func paginationIsWrapped() async throws {
        let given = try await demo()
        for path in ["/participants?page=2", "/participants?page=999", "/venues", "/activities?page=2", "/participants/duplicates"] {
            let html = page(given, path)
            let count = try #require(html.firstMatch(of: try Regex("<p class=\"muted\" id=\"list-count\">.*?</p>")), "\(path)")
            #expect(LanguagePageTests.unwrapped(String(count.output[0].substring ?? "")) == [], "\(path)")
            if let links = html.firstMatch(of: try Regex("(?s)<nav class=\"pagination\".*?</nav>")) {
                #expect(LanguagePageTests.unwrapped(String(links.output[0].substring ?? "")) == [], "\(path)")
            }
        }
    }

    @Test func theLiveSyncStatusIsInThePagesLanguage() async throws {
        let given = try await WebHarness(languages: try WebHarness.shippedLanguages())
        try given.createUser("ed@example.org", .editor)
        given.signIn("ed@example.org")
        let answer = given.send(Request(method: .get, path: "/events", headers: ["accept-language": PseudoLocale.tag], cookies: given.cookies))
        let stream = try #require(answer.stream)
        defer { stream.close() }
        guard case .bytes(let bytes) = stream.next(maxBytes: 1 << 20, park: {}) else { Issue.record("no first event"); return }
        let text = String(decoding: bytes, as: UTF8.self)
        let data = try #require(text.split(separator: "\n").first { $0.hasPrefix("data: {\"current_sync_label\"") }).dropFirst(6)
        let status = try #require(try JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any])
        for label in ["current_sync_label", "hub_label", "pending_label", "last_successful_sync_label"] {
            let shown = try #require(status[label] as? String, "\(label)")
            #expect(shown.hasPrefix("⟦") && shown.hasSuffix("⟧"), "\(label): \(shown)")
        }
        #expect(status["hub"] as? String == "offline", "the script's own fields stay as they are")
        let english = given.get("/sync").bodyText
        #expect(english.contains("data-sync-field=\"hub_label\">Hub offline</span>"))
        let progress = SyncProgress(phase: .pushing, fraction: 0.5, pushed: 3, pulled: 0, message: "", toSend: 10)
        #expect(Translator.english.text(SyncStatusText.progressLabel(progress)) == "Sent 3 of 10 changes")
    }

    @Test func theGuideOnThePlainHTTPPortIsInTheBrowsersLanguage() async throws {
        let address = SecureAddress(hosts: ["hall.local"], port: 8080, authorityPEM: "", authorityFingerprint: "AB:CD")
        let renderer = try await PageRenderer.load(directory: WebHarness.repositoryRoot.appendingPathComponent("templates").path,
                                                   languages: try WebHarness.shippedLanguages())
        let guide = SecureAddressGuide(renderer: renderer,
                                       staticFiles: try StaticFiles(mounts: [("", WebHarness.repositoryRoot.appendingPathComponent("Public").path)])) { address }
        func html(_ language: String?) -> String {
            let headers = ["host": "hall.local"].merging(language.map { ["accept-language": $0] } ?? [:]) { $1 }
            return String(decoding: guide.respond(to: Request(method: .get, path: "/", headers: headers)).body, as: UTF8.self)
        }
        let pseudo = html(PseudoLocale.tag)
        #expect(pseudo.contains("<html lang=\"en-XA\" dir=\"ltr\">"))
        #expect(LanguagePageTests.unwrapped(pseudo, allowing: ["https://hall.local:8080/"]) == [])
        #expect(html("fa").contains("<html lang=\"fa\" dir=\"rtl\">"))
        #expect(html(nil).contains("<html lang=\"en\" dir=\"ltr\">"))
        #expect(html(nil).contains("<h1 class=\"page-title\">Open Fieldbook securely</h1>"))
    }

    /// Both states of the Add a device page: with an address and Fieldbook's authority, and serving only this computer.
    @Test func theAddADevicePageIsWrapped() async throws {
        let given = try await WebHarness(languages: try WebHarness.shippedLanguages())
        try given.createUser("admin@example.org", .administrator)
        given.signIn("admin@example.org")
        let devices = given.web.configuration.devices
        devices.served(at: ServingAddress.listening(on: "127.0.0.1", port: 8443, isTLS: true))
        let alone = page(given, "/settings/devices")
        #expect(alone.contains("⟦Fíéldbóók mádé ñó"), "no authority while serving only this computer")
        #expect(LanguagePageTests.unwrapped(alone, allowing: Self.alsoAllowed) == [])
        try DevicePageTests.makeAuthority(in: given)
        devices.served(at: ServingAddress.listening(on: "192.168.1.20", port: 8443, isTLS: true))
        let served = page(given, "/settings/devices")
        #expect(served.contains("https://192.168.1.20:8443/") && served.contains("⟦Fíéldbóók mádé íts ówñ"))
        let fingerprint = try #require(served.firstMatch(of: try Regex("<p class=\"device-fingerprint\"><code>([^<]*)</code>"))).output[1].substring ?? ""
        #expect(LanguagePageTests.unwrapped(served, allowing: Self.alsoAllowed.union(["https://192.168.1.20:8443/", String(fingerprint)])) == [])
    }

    @Test func analyticsInPersianHasPersianDigitsAndRightToLeftCharts() async throws {
        let given = try await demo(.readOnly)
        let html = page(given, "/analytics?range=all-time", language: "fa")
        #expect(html.contains("<html lang=\"fa\" dir=\"rtl\">"))
        let numbers = html.matches(of: try Regex("<td class=\"table__number\">([^<]*)</td>")).map { String($0.output[1].substring ?? "") }
        #expect(!numbers.isEmpty)
        let persianDigits = CharacterSet(charactersIn: "۰۱۲۳۴۵۶۷۸۹")
        #expect(numbers.allSatisfy { $0.unicodeScalars.contains(where: persianDigits.contains) && $0.rangeOfCharacter(from: .init(charactersIn: "0123456789")) == nil },
                "table numbers: \(numbers.prefix(5))")
        let chart = try #require(html.firstMatch(of: try Regex("(?s)<svg class=\"chart__svg\".*?</svg>"))).output[0].substring ?? ""
        let ticks = chart.matches(of: try Regex("text-anchor=\"middle\">([^<]*)</text>")).map { String($0.output[1].substring ?? "") }
        #expect(!ticks.isEmpty && ticks.allSatisfy { $0.unicodeScalars.allSatisfy(persianDigits.contains) }, "axis: \(ticks)")
        // Mirrored: the category names stand at the right (x = 720 − 182) and the bars start from the axis there.
        #expect(chart.contains("x=\"538\"") && chart.contains("text-anchor=\"end\""))
        #expect(!chart.contains(" x=\"182\" "), "no name stands where a left-to-right chart puts it")
        let english = page(given, "/analytics?range=all-time", language: "en")
        let englishChart = try #require(english.firstMatch(of: try Regex("(?s)<svg class=\"chart__svg\".*?</svg>"))).output[0].substring ?? ""
        #expect(englishChart.contains("x=\"182\""))
    }
}
