import Domain
import Foundation
import HTTPServer
import Surface
import Testing

@Suite struct RoutePatternTests {
    let activity = UUID(uuidString: "0D2F3A10-0000-4000-8000-000000000001")!
    let assignment = UUID(uuidString: "0D2F3A10-0000-4000-8000-000000000002")!

    @Test func addressesFillTheParametersInOrderWithLowerCaseIds() {
        let remove = RoutePattern("/activities/{id}/assignments/{assignmentId}/delete")
        #expect(remove(activity, assignment)
            == "/activities/0d2f3a10-0000-4000-8000-000000000001/assignments/0d2f3a10-0000-4000-8000-000000000002/delete")
        #expect(RoutePattern("/") / "sync" == RoutePattern("/sync"))
    }

    @Test func recordRoutesDeriveEveryAddressFromTheList() {
        let routes = RecordRoutes(RecordCollection.activityTypes.path(under: RoutePattern("/api/v1")))
        #expect(routes.list() == "/api/v1/activity-types")
        #expect(routes.new.pattern == "/api/v1/activity-types/new")
        #expect(routes.edit.pattern == "/api/v1/activity-types/{id}/edit")
        #expect(routes.delete(activity) == "/api/v1/activity-types/0d2f3a10-0000-4000-8000-000000000001/delete")
        for pattern in [routes.record, routes.edit, routes.delete] {
            #expect(pattern.filled(idText: activity.lowercaseText) == pattern(activity))
        }
    }

    @Test func eachCollectionIsFoundByTheEntityOfItsRecords() {
        for collection in RecordCollection.allCases {
            #expect(RecordCollection(entity: collection.entity) == collection)
        }
        #expect(RecordCollection(entity: "geographic_area")?.path(under: RoutePattern("/")) == RoutePattern("/areas"))
        #expect(RecordCollection(entity: "assignment") == nil)
    }

    @Test func aNotificationOpensItsRecordsPageOrTheSyncPages() {
        #expect(NotificationSubject(entity: "activity", id: activity).pagePath == "/activities/0d2f3a10-0000-4000-8000-000000000001")
        #expect(NotificationSubject(entity: "visit_list", id: activity).pagePath == "/visit-lists/0d2f3a10-0000-4000-8000-000000000001")
        #expect(NotificationSubject(entity: "sync_conflict", id: activity).pagePath == "/sync/conflicts#conflict-0d2f3a10-0000-4000-8000-000000000001")
        #expect(NotificationSubject(entity: "assignment", id: activity).pagePath == "/sync")
        #expect(NotificationSubject.syncPage.pagePath == "/sync")
    }

    @Test func aFilteredListUsesTheSharedParameterName() {
        #expect(RoutePattern("/venues").filtered(by: .areaId, "a b") == "/venues?area_id=a%20b")
    }

    @Test func theRouterMatchesTheAddressesBuiltFromItsPatterns() throws {
        let pattern = RoutePattern("/activities/{id}/assignments/{assignmentId}/delete")
        var router = Router()
        router.add(.get, pattern.pattern) { request in
            Response.text((request.pathParameter("id") ?? "") + " " + (request.pathParameter("assignmentId") ?? ""))
        }
        let (handler, matched) = try router.resolve(Request(method: .get, path: pattern(activity, assignment)))
        #expect(String(decoding: try handler(matched).body, as: UTF8.self)
            == "0d2f3a10-0000-4000-8000-000000000001 0d2f3a10-0000-4000-8000-000000000002")
    }
}
