import Foundation
import HTTPServer
@testable import JSONAPI
import Testing

/// The sync endpoints: push refuses what its document refuses and answers a bad record per operation; status writes nulls out.
@Suite struct SyncPushAPITests {
    private func operation(author: String, name: String) -> [String: Any] {
        ["operation_id": UUID().uuidString, "operation": "create", "entity": "geographic_area", "entity_id": UUID().uuidString,
         "fields": ["name": name, "area_type": "CITY"], "before": [:] as [String: Any], "base_version": 0, "author": author,
         "created_at": "2026-11-23T09:30:00Z"]
    }

    @Test func aNULInTheAuthorIsRefusedAndANULInARecordIsRejectedForThatOperationAlone() throws {
        let given = try APIHarness()
        let token = try given.token(.administrator)

        let refused = given.send(.post, "/api/v1/sync/push", ["node_id": UUID().uuidString,
                                                              "operations": [operation(author: "a\u{0}b", name: "Kisumu")]], token: token)
        #expect(refused.status == 422)
        #expect(refused.errorFields == ["operations[0].author"])

        let answered = given.send(.post, "/api/v1/sync/push", ["node_id": UUID().uuidString,
                                                               "operations": [operation(author: "test", name: "\u{0}Kisumu"),
                                                                              operation(author: "test", name: "Nyeri")]], token: token)
        #expect(answered.status == 200)
        let outcomes = (answered["results"] as? [[String: Any]])?.compactMap { $0["outcome"] as? String }
        #expect(outcomes == ["rejected", "applied"])
    }

    @Test func aStandaloneStatusWritesOutItsNulls() throws {
        let given = try APIHarness()
        let status = given.send(.get, "/api/v1/sync/status", token: try given.token(.administrator))

        #expect(status.status == 200)
        #expect(status.string("hub") == "standalone")
        #expect(status["last_successful_sync"] is NSNull && status["last_error"] is NSNull)
        #expect(status["pending_operations"] as? Int == 0 && status["paused"] as? Bool == false)
    }
}
