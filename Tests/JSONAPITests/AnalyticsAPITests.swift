import Domain
import Foundation
@testable import Storage
import Testing

@Suite struct AnalyticsAPITests {
    /// While a large community's figures are first counted, the twins answer 503 analytics_preparing with Retry-After,
    /// worded for a client (no page to reload).
    @Test func theTwinsAnswerPreparingWithRetryAfter() throws {
        for path in ["/api/v1/analytics/engagement", "/api/v1/analytics/growth"] {
            let given = try APIHarness()
            let token = try given.token(.readOnly)
            // -1: even an empty database's first read is made off the report's thread, which the report does not wait for.
            given.database.analytics.limit(mostReadWaiting: -1, longestWait: 0)
            let answer = given.send(.get, path, token: token)
            #expect(answer.status == 503, "\(path)")
            #expect(answer.errorCode == "analytics_preparing", "\(path)")
            #expect(answer.response.header("Retry-After") == "5", "\(path)")
            #expect(answer.errorMessage.contains("Try again in 5 seconds") && !answer.errorMessage.contains("page"), "\(answer.errorMessage)")
        }
    }

    @Test func theTwinsServeTheReportsTheirDocumentDescribes() throws {
        let given = try APIHarness()
        try given.database.importDemoCommunity(size: .init(venues: 20, participants: 100, activities: 30), seed: 3)
        let token = try given.token(.readOnly)
        let engagement = given.send(.get, "/api/v1/analytics/engagement?range=all-time", token: token)
        #expect(engagement.status == 200)
        let report = try given.database.engagement(AnalyticsScope(range: .allTime))
        #expect(engagement["total_participants"] as? Int == report.totalParticipants)
        #expect(engagement["participation"] as? Int == report.participation)
        #expect((engagement["breakdown"] as? [[String: Any]])?.first?["area_id"] as? String == report.breakdown.first?.areaId)
        #expect(engagement["from"] is NSNull)

        let growth = given.send(.get, "/api/v1/analytics/growth?range=custom&from=2026-01-01&to=2026-06-30&period=quarter", token: token)
        #expect(growth.status == 200)
        let series = try #require(growth["series"] as? [[String: Any]])
        #expect(series.map { $0["measure"] as? String } == ["participants", "activities", "assignments"])
        #expect((series[0]["points"] as? [[String: Any]])?.map { $0["label"] as? String } == ["Q1 2026", "Q2 2026"])

        let document = given.send(.get, "/api/v1/openapi.json")
        let schemas = try #require((document["components"] as? [String: Any])?["schemas"] as? [String: Any])
        for (name, answer) in [("EngagementReport", engagement.json), ("GrowthReport", growth.json)] {
            let properties = try #require((schemas[name] as? [String: Any])?["properties"] as? [String: Any])
            #expect(Set(properties.keys) == Set(answer.keys), "\(name) documents exactly the keys it sends")
        }
        let paths = try #require(document["paths"] as? [String: Any])
        #expect(paths["/api/v1/analytics/engagement"] != nil && paths["/api/v1/analytics/growth"] != nil)
    }

    @Test func aWrongParameterIsA400ThatSaysWhatToSend() throws {
        let given = try APIHarness()
        let token = try given.token(.readOnly)
        let bad = given.send(.get, "/api/v1/analytics/growth?period=fortnight", token: token)
        #expect(bad.status == 400)
        #expect(bad.errorMessage.contains("period: must be one of week, month, quarter, year"))
        #expect(given.send(.get, "/api/v1/analytics/engagement?range=custom&from=2025-13-01", token: token).status == 400)
        // An area that is not there is missing (404), as the document says, not a malformed request.
        let missing = given.send(.get, "/api/v1/analytics/engagement?area_id=\(UUID().uuidString)", token: token)
        #expect(missing.status == 404)
        #expect(missing.errorMessage.contains("That area does not exist"))
        #expect(given.send(.get, "/api/v1/analytics/engagement?to=", token: token).status == 400, "an empty date is not a date")
        #expect(given.send(.get, "/api/v1/analytics/growth?area_id=nowhere", token: token).status == 400)
        // Any two dates are valid to the document: a range ending before it starts is empty, counted as such.
        let empty = given.send(.get, "/api/v1/analytics/engagement?range=custom&from=2024-06-01&to=2024-01-01", token: token)
        #expect(empty.status == 200)
        #expect(empty["active_activities"] as? Int == 0 && empty["new_participants"] as? Int == 0)
        #expect(given.send(.get, "/api/v1/analytics/engagement").status == 401)
    }
}
