import Domain
import Foundation
import HTTPServer
@testable import Storage
import Surface
import Testing

@Suite struct AnalyticsPageTests {
    func signedIn(_ role: UserRole, demo: Bool = false) async throws -> WebHarness {
        let given = try await WebHarness()
        if demo { try given.database.importDemoCommunity(size: .init(venues: 30, participants: 300, activities: 60), seed: 7) }
        try given.createUser("someone@example.org", role)
        given.signIn("someone@example.org")
        return given
    }

    /// The rows of the table with `data-table="name"`: each row's header and cells, as text.
    func table(_ html: String, _ name: String) throws -> [[String]] {
        let start = try #require(html.range(of: "data-table=\"\(name)\""))
        let body = try #require(html[start.upperBound...].range(of: "<tbody>"))
        let end = try #require(html[body.upperBound...].range(of: "</tbody>"))
        let cell = try Regex("<t[hd][^>]*>(.*?)</t[hd]>")
        return html[body.upperBound..<end.lowerBound].components(separatedBy: "</tr>").dropLast().map { row in
            row.matches(of: cell).map { match in
                String(match.output[1].substring ?? "").replacingOccurrences(of: "<[^>]+>", with: "", options: .regularExpression)
                    .replacingOccurrences(of: "&#39;", with: "'").replacingOccurrences(of: ",", with: "")
            }
        }
    }

    /// While a large community's figures are first counted, each view keeps its filters and says so in a status notice
    /// with a reload to the same choices, rather than becoming the error page.
    @Test func figuresBeingPreparedKeepThePageAndItsChoices() async throws {
        for (path, reload) in [("/analytics?range=last-30-days", "/analytics?range=last-30-days"),
                               ("/analytics/growth?range=last-30-days&period=week", "/analytics/growth?range=last-30-days&amp;period=week")] {
            let given = try await signedIn(.readOnly)
            // -1: even an empty database's first read is made off the report's thread, which the report does not wait for.
            given.database.analytics.limit(mostReadWaiting: -1, longestWait: 0)
            let page = given.get(path)
            #expect(page.status == .serviceUnavailable, "\(path)")
            #expect(page.header("Retry-After") == "5", "\(path)")
            let html = page.bodyText
            #expect(html.contains("<div class=\"notice\" role=\"status\"><p>\(AnalyticsPreparing.explanation)"), "\(path)")
            #expect(html.contains("<a href=\"\(reload)\">Reload</a>"), "\(path)")
            #expect(html.contains("value=\"last-30-days\" checked"), "the filters keep the range asked for: \(path)")
            #expect(!html.contains("<h2>How these figures are counted</h2>"), "\(path)")
        }
    }

    @Test func anEmptyDatabaseShowsEveryViewToAReadOnlyUser() async throws {
        let given = try await signedIn(.readOnly)
        for path in ["/analytics", "/analytics/growth", "/analytics?range=all-time", "/analytics/growth?range=last-30-days&period=week"] {
            let page = given.get(path)
            #expect(page.status == .ok, "\(path)")
            #expect(page.bodyText.contains("aria-current=\"page\">Analytics</a>"), "the navigation marks the section")
        }
        #expect(given.get("/analytics").bodyText.contains("There are no activities in all areas in this range."))
    }

    // Issue 36: "Active activities by status" counted completed and cancelled activities. What is counted is every
    // activity whose dates overlap the range, so that is what every name on the view says.
    @Test func activitiesOfEveryStatusAreNotCalledActive() async throws {
        let given = try await signedIn(.editor)
        let type = try given.database.createCategory(.activityType, CategoryInput(name: "Reading group"), by: .system("test"))
        for status in ["ACTIVE", "COMPLETED", "CANCELLED"] {
            try given.database.createActivity(ActivityInput(name: "Circle \(status)", typeId: type.id.uuidString, startDate: "2025-01-01",
                                                            duration: "finite", endDate: "2025-02-01", status: status), by: .system("test"))
        }
        let html = given.get("/analytics?range=all-time").bodyText
        #expect(!html.contains("Active activities") && !html.contains("active activities"))
        #expect(html.contains("Activities in the range, by status</h2>"))
        #expect(try table(html, "activities-by-status") == [["Planned", "0"], ["Active", "1"], ["Completed", "1"], ["Cancelled", "1"]])
        #expect(html.contains("Of 3 activities in all areas in this range"))
        let summary = given.get("/analytics/table.csv?range=all-time&table=summary").bodyText
        #expect(summary.contains("Activities in the range,3\r\n") && !summary.contains("Active"))
        let byStatus = given.get("/analytics/table.csv?range=all-time&table=activities-by-status").bodyText
        #expect(byStatus.hasPrefix("Status,Count\r\n"))
    }

    @Test func everyChartHasATitleASummaryAndItsTableAndTheTablesMatchTheReport() async throws {
        let given = try await signedIn(.readOnly, demo: true)
        let html = given.get("/analytics?range=all-time").bodyText
        let report = try given.database.engagement(AnalyticsScope(range: .allTime))
        for name in ["activities-by-type", "activities-by-status", "participants-by-role", "by-area"] {
            #expect(html.contains("<h2 id=\"\(name)-title\">"))
            #expect(html.contains("<p id=\"\(name)-summary\">"))
            #expect(html.contains("role=\"img\" aria-labelledby=\"\(name)-title \(name)-summary\""))
            #expect(html.contains("href=\"/analytics/table.csv?range=all-time&amp;table=\(name)\""))
        }
        #expect(try table(html, "activities-by-type") == report.activitiesByType.map { [$0.label, String($0.count)] })
        #expect(try table(html, "by-area") == report.breakdown.map {
            [$0.name, String($0.participants), String($0.activitiesInRange), String($0.participation)]
        })
        #expect(html.contains("fill=\"url(#by-area-fill-1)\""), "the breakdown's second series is hatched, not only coloured")
    }

    @Test func theBreakdownDrillsDownAndTheQueryStringKeepsEveryChoice() async throws {
        let given = try await signedIn(.editor, demo: true)
        let world = try #require(try given.database.areaTree().first?.area)
        let continent = try #require(try given.database.childAreas(of: world.id).first)
        let html = given.get("/analytics?range=custom&from=2024-01-01&to=2030-12-31&period=week&area_id=\(world.id.uuidString.lowercased())").bodyText
        #expect(html.contains("href=\"/analytics?range=custom&amp;from=2024-01-01&amp;to=2030-12-31&amp;area_id=\(continent.id.uuidString.lowercased())&amp;period=week\""))
        #expect(html.contains("value=\"custom\" checked"))
        #expect(html.contains("value=\"2024-01-01\""))
        #expect(html.contains("<option value=\"week\" selected>") || html.contains("name=\"period\" value=\"week\""))
        #expect(html.contains("href=\"/analytics/growth?range=custom&amp;from=2024-01-01&amp;to=2030-12-31&amp;area_id=\(world.id.uuidString.lowercased())&amp;period=week\""),
                "the growth tab keeps the choices")
        let growth = given.get("/analytics/growth?range=custom&from=2026-01-01&to=2026-03-31&period=month").bodyText
        #expect(try table(growth, "new-per-period").map { $0[0] } == ["Jan 2026", "Feb 2026", "Mar 2026"])
    }

    @Test func wrongDatesAreExplainedAndTheTypedValuesKept() async throws {
        let given = try await signedIn(.readOnly)
        let page = given.get("/analytics?range=custom&from=2025-02-30&to=2024-01-01")
        #expect(page.status == .badRequest)
        #expect(page.bodyText.contains("<title>Error: Analytics"))
        #expect(page.bodyText.contains("Enter the first day as a date, like 2025-03-01"))
        #expect(page.bodyText.contains("value=\"2025-02-30\""))
        let reversed = given.get("/analytics/growth?range=custom&from=2025-02-01&to=2024-01-01").bodyText
        #expect(reversed.contains("The last day must be on or after the first day"))
        let gone = given.get("/analytics?area_id=\(UUID().uuidString)")
        #expect(gone.status == .badRequest)
        #expect(gone.bodyText.contains("That area does not exist"))
    }

    @Test func csvDownloadsHoldTheTableAndDefuseFormulas() async throws {
        let given = try await signedIn(.editor)
        try given.database.createArea(AreaInput(name: "=SUM(A1)", areaType: "CITY", parentId: ""), by: .system("test"))
        let csv = given.get("/analytics/table.csv?range=all-time&table=by-area")
        #expect(csv.status == .ok)
        #expect(csv.header("Content-Type") == "text/csv; charset=utf-8")
        #expect(csv.bodyText == "Area,Participants,Activities in the range,Participants taking part\r\n'=SUM(A1),0,0,0\r\n")
        #expect(given.get("/analytics/table.csv?table=nothing").status == .notFound)
        let growth = given.get("/analytics/table.csv?range=custom&from=2026-01-01&to=2026-02-28&table=cumulative").bodyText
        #expect(growth == "Period,All participants,All activities,All assignments\r\nJan 2026,0,0,0\r\nFeb 2026,0,0,0\r\n")
    }

    @Test func theHomePageAndEachAreaPageLinkIntoAnalytics() async throws {
        let given = try await signedIn(.readOnly)
        let area = try given.database.createArea(AreaInput(name: "Lakeside", areaType: "CITY", parentId: ""), by: .system("test"))
        #expect(given.get("/").bodyText.contains("href=\"/analytics\""))
        #expect(given.get("/areas/\(area.id.uuidString.lowercased())").bodyText.contains("href=\"/analytics?area_id=\(area.id.uuidString.lowercased())\""))
    }
}
